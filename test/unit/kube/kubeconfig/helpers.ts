import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildClusterEntry } from '../../../../src/kube/index.js';
import type { ClusterEntry } from '../../../../src/kube/index.js';

export function scratchDir(prefix = 'kwokts-kubeconfig-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const hasKubectl = spawnSync('sh', ['-c', 'command -v kubectl']).status === 0;

export function kubectl(kubeconfig: string, ...args: string[]): string {
  return execFileSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The entry kwokctl adds for cluster `cluster` on `port`. */
export function kwokEntry(cluster: string, port = 32766): ClusterEntry {
  const pki = `/root/.kwok/clusters/${cluster}/pki`;
  return buildClusterEntry({
    name: `kwok-${cluster}`,
    server: `https://127.0.0.1:${port}`,
    caFile: `${pki}/ca.crt`,
    certFile: `${pki}/admin.crt`,
    keyFile: `${pki}/admin.key`,
  });
}

export function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

/** Identity of the file's inode and content version, to prove "no write happened". */
export function fileStamp(path: string): string {
  const info = statSync(path, { bigint: true });
  return `${info.ino}:${info.mtimeNs}:${info.ctimeNs}`;
}

/** What kubectl itself writes (clientcmd layout, no comments). */
export const KUBECTL_WRITTEN = `apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: LS0tLS1CRUdJTi==
    server: https://10.0.0.1:6443
  name: kind-kind
contexts:
- context:
    cluster: kind-kind
    user: kind-kind
  name: kind-kind
current-context: kind-kind
kind: Config
preferences: {}
users:
- name: kind-kind
  user:
    client-certificate-data: Y2VydA==
    client-key-data: a2V5
`;
