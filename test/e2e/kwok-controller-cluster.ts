/**
 * A bare control plane for the kwok controller e2e tests: etcd and kube-apiserver (optionally
 * kube-controller-manager and kube-scheduler) on loopback in a temp dir, with a static admin token.
 * The CLI that does this properly lives in src/cluster; this only needs to be small and reliable.
 */
import { spawn, execFileSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './harness.js';

export interface ControlPlane {
  dir: string;
  kubeconfig: string;
  server: string;
  token: string;
  stop(): Promise<void>;
}

export interface ControlPlaneBinaries {
  etcd: string;
  apiserver: string;
  controllerManager: string | undefined;
  scheduler: string | undefined;
}

function firstExisting(paths: (string | undefined)[]): string | undefined {
  return paths.find((p): p is string => p !== undefined && p !== '' && existsSync(p));
}

function which(name: string): string | undefined {
  try {
    return execFileSync('which', [name], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Finds binaries: KWOK_E2E_BIN_DIR, the Go-module build output, the kwokts cache, then PATH. */
export function findControlPlaneBinaries(): ControlPlaneBinaries | string {
  const cache = join(homedir(), '.kwok', 'cache');
  const dirs = [process.env['KWOK_E2E_BIN_DIR'], '/tmp/kbuild/out'];
  const kube = (name: string): string | undefined =>
    firstExisting([...dirs.map((d) => (d ? join(d, name) : undefined)), ...findInCache(cache, name), which(name)]);
  const etcd = firstExisting([process.env['KWOK_E2E_ETCD'], ...findInCache(cache, 'etcd'), which('etcd')]);
  const apiserver = kube('kube-apiserver');
  if (!etcd) return 'no etcd binary (set KWOK_E2E_ETCD or apt-get install etcd-server)';
  if (!apiserver) return 'no kube-apiserver binary (set KWOK_E2E_BIN_DIR)';
  return { etcd, apiserver, controllerManager: kube('kube-controller-manager'), scheduler: kube('kube-scheduler') };
}

function findInCache(root: string, name: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > 5 || !existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      // Skip Go module sources: only built binaries are of interest.
      if (entry.isDirectory()) {
        if (entry.name !== 'src') walk(path, depth + 1);
      }
      else if (entry.name === name) found.push(path);
    }
  };
  walk(root, 0);
  return found.sort().reverse();
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function kubeconfigText(server: string, token: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- cluster: {server: "${server}", insecure-skip-tls-verify: true}`,
    '  name: e2e',
    'users:',
    `- name: admin`,
    `  user: {token: "${token}"}`,
    'contexts:',
    '- context: {cluster: e2e, user: admin}',
    '  name: e2e',
    'current-context: e2e',
    '',
  ].join('\n');
}

export async function startControlPlane(binaries: ControlPlaneBinaries, options: { withControllers?: boolean } = {}): Promise<ControlPlane> {
  const dir = mkdtempSync(join(tmpdir(), 'kwok-controller-e2e-'));
  const token = 'e2e-admin-token';
  const children: ChildProcess[] = [];
  const start = (name: string, command: string, args: string[]): void => {
    const log = openSync(join(dir, `${name}.log`), 'a');
    const child = spawn(command, args, { stdio: ['ignore', log, log], cwd: dir });
    children.push(child);
  };
  const stop = async (): Promise<void> => {
    for (const child of children.reverse()) {
      if (child.exitCode !== null) continue;
      child.kill('SIGTERM');
      await new Promise((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve(undefined);
        }, 5000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
    }
    if (!process.env['KWOK_E2E_KEEP']) rmSync(dir, { recursive: true, force: true });
  };

  try {
    const [etcdClient, etcdPeer, apiPort] = [await freePort(), await freePort(), await freePort()];
    start('etcd', binaries.etcd, [
      '--name=e2e',
      `--data-dir=${join(dir, 'etcd')}`,
      `--listen-client-urls=http://127.0.0.1:${etcdClient}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdClient}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=e2e=http://127.0.0.1:${etcdPeer}`,
      '--quota-backend-bytes=8589934592',
      '--unsafe-no-fsync',
    ]);
    execFileSync('openssl', ['genrsa', '-out', join(dir, 'sa.key'), '2048'], { stdio: 'ignore' });
    execFileSync('openssl', ['rsa', '-in', join(dir, 'sa.key'), '-pubout', '-out', join(dir, 'sa.pub')], { stdio: 'ignore' });
    writeFileSync(join(dir, 'tokens.csv'), `${token},admin,admin,system:masters\n`);
    mkdirSync(join(dir, 'certs'));
    start('kube-apiserver', binaries.apiserver, [
      `--etcd-servers=http://127.0.0.1:${etcdClient}`,
      '--bind-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      `--cert-dir=${join(dir, 'certs')}`,
      `--token-auth-file=${join(dir, 'tokens.csv')}`,
      '--authorization-mode=Node,RBAC',
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      `--service-account-key-file=${join(dir, 'sa.pub')}`,
      `--service-account-signing-key-file=${join(dir, 'sa.key')}`,
      '--service-cluster-ip-range=10.96.0.0/12',
      '--disable-admission-plugins=ServiceAccount',
      '--max-requests-inflight=2000',
      '--max-mutating-requests-inflight=1000',
      '--enable-priority-and-fairness=false',
    ]);
    const server = `https://127.0.0.1:${apiPort}`;
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, kubeconfigText(server, token));
    await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          const req = httpsRequest(`${server}/readyz`, { headers: { Authorization: `Bearer ${token}` }, rejectUnauthorized: false }, (res) => {
            res.resume();
            resolve(res.statusCode === 200);
          });
          req.on('error', () => resolve(false));
          req.end();
        }),
      'kube-apiserver /readyz',
      90_000,
    );
    if (options.withControllers && binaries.controllerManager && binaries.scheduler) {
      start('kube-controller-manager', binaries.controllerManager, [
        `--kubeconfig=${kubeconfig}`,
        '--controllers=*,-serviceaccount-token,-nodeipam',
        '--leader-elect=false',
        '--bind-address=127.0.0.1',
        '--secure-port=0',
        '--kube-api-qps=5000',
        '--kube-api-burst=10000',
      ]);
      start('kube-scheduler', binaries.scheduler, [`--kubeconfig=${kubeconfig}`, '--leader-elect=false', '--bind-address=127.0.0.1', '--secure-port=0', '--kube-api-qps=5000', '--kube-api-burst=10000']);
    }
    return { dir, kubeconfig, server, token, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
