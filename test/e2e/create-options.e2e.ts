/**
 * kwokctl's options on real clusters (binary runtime): a config written by `kwokctl config tidy`,
 * `-c DIR` (a kustomization), relative paths taken from the config file, the heartbeat factor,
 * extra certificate SANs, and `--kwok-controller-binary` running Go's kwok instead of the
 * embedded controller (when one is available: $KWOK_GO_BINARY or `kwok` on PATH).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, kwokts, recordedPids, requireBinaries, ROOT, sandbox, waitFor, type Sandbox, failure } from './harness.js';

function findGoKwok(): { binary: string } | { skip: string } {
  const explicit = process.env.KWOK_GO_BINARY;
  if (explicit) return existsSync(explicit) ? { binary: explicit } : { skip: `KWOK_GO_BINARY=${explicit} does not exist` };
  try {
    const found = execFileSync('sh', ['-c', 'command -v kwok'], { encoding: 'utf8' }).trim();
    if (found) return { binary: found };
  } catch {
    /* not on PATH */
  }
  return { skip: "no Go kwok binary: set KWOK_GO_BINARY (e.g. from `go install sigs.k8s.io/kwok/cmd/kwok@v0.8.0`) or put kwok on PATH" };
}
const goKwok = findGoKwok();
if ('skip' in goKwok) process.stdout.write(`skip: ${goKwok.skip}\n`);

const nodeYaml = (name: string): string => `apiVersion: v1
kind: Node
metadata:
  name: ${name}
  annotations: {kwok.x-k8s.io/node: fake}
  labels: {type: kwok}
spec:
  taints: [{key: kwok.x-k8s.io/node, value: fake, effect: NoSchedule}]
`;

describe('create cluster with kwokctl options (binary runtime)', () => {
  let box: Sandbox;
  before(() => {
    requireBinaries();
    box = sandbox();
  });
  after(() => box.cleanup());

  test('a kwokctl-tidy file plus -c DIR: loads without a warning; paths from the files; factor and SANs applied', async () => {
    // The file `kwokctl config tidy` writes, every default pinned (its cacheDir is overridden by
    // the sandbox's KWOK_CACHE_DIR: a variable beats a config file).
    const tidy = join(box.workdir, '..', 'tidy.yaml');
    writeFileSync(tidy, readFileSync(join(ROOT, 'test', 'fixtures', 'kwokctl-tidy', 'defaults.yaml'), 'utf8'));
    const dir = join(box.workdir, '..', 'conf');
    mkdirSync(join(dir, 'policy'), { recursive: true });
    writeFileSync(join(dir, 'kustomization.yaml'), 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- options.yaml\n- policy\n');
    writeFileSync(join(dir, 'options.yaml'), 'kind: KwokctlConfiguration\napiVersion: config.kwok.x-k8s.io/v1alpha1\noptions:\n  heartbeatFactor: 0.5\n  kubeApiserverCertSANs: [kwok.example, 10.0.0.9]\n');
    writeFileSync(join(dir, 'policy', 'kustomization.yaml'), 'resources:\n- audit.yaml\n');
    writeFileSync(join(dir, 'policy', 'audit.yaml'), 'kind: KwokctlConfiguration\napiVersion: config.kwok.x-k8s.io/v1alpha1\noptions:\n  kubeAuditPolicy: ./audit-policy.yaml\n');
    writeFileSync(join(dir, 'policy', 'audit-policy.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');

    const created = await kwokts(box, ['--name', 'op-tidy', '-c', tidy, '-c', dir, 'create', 'cluster', '--wait', '3m']);
    assert.equal(created.exitCode, 0, failure(created));
    assert.doesNotMatch(created.stderr, /warning/i);

    const clusterDir = join(box.workdir, 'clusters', 'op-tidy');
    const record = readFileSync(join(clusterDir, 'kwok.yaml'), 'utf8');
    // 40 s × 0.5, applied once (kwokctl's mutationHeartbeat).
    assert.match(record, /--node-lease-duration-seconds=20\b/);
    assert.match(record, /--node-monitor-grace-period=20s\b/);
    // The audit policy named relative to its own file was found and copied.
    assert.equal(readFileSync(join(clusterDir, 'audit.yaml'), 'utf8'), readFileSync(join(dir, 'policy', 'audit-policy.yaml'), 'utf8'));
    const san = new X509Certificate(readFileSync(join(clusterDir, 'pki', 'admin.crt'))).subjectAltName ?? '';
    assert.match(san, /DNS:kwok\.example/);
    assert.match(san, /IP Address:10\.0\.0\.9/);
    const ns = await kwokts(box, ['--name', 'op-tidy', 'kubectl', 'get', 'ns', 'default', '-o', 'name']);
    assert.equal(ns.stdout.trim(), 'namespace/default', ns.stderr);

    const deleted = await kwokts(box, ['--name', 'op-tidy', 'delete', 'cluster']);
    assert.equal(deleted.exitCode, 0, failure(deleted));
  });

  test('--kwok-controller-binary: Go kwok runs as the controller and plays the nodes', { skip: 'skip' in goKwok ? goKwok.skip : false }, async () => {
    const binary = (goKwok as { binary: string }).binary;
    const created = await kwokts(box, ['--name', 'op-gokwok', 'create', 'cluster', '--kwok-controller-binary', binary, '--wait', '3m']);
    assert.equal(created.exitCode, 0, failure(created));
    const controllerPid = Number(readFileSync(join(box.workdir, 'clusters', 'op-gokwok', 'pids', 'kwok-controller.pid'), 'utf8').trim());
    assert.ok(isAlive(controllerPid));
    assert.equal(readFileSync(`/proc/${controllerPid}/cmdline`, 'utf8').split('\0')[0], binary);

    const applied = await kwokts(box, ['--name', 'op-gokwok', 'kubectl', 'apply', '-f', '-'], { input: nodeYaml('op-node-0') });
    assert.equal(applied.exitCode, 0, failure(applied));
    // `kubectl wait` watches until the condition holds; the deadline is generous for a loaded machine.
    const ready = await kwokts(box, ['--name', 'op-gokwok', 'kubectl', 'wait', '--for=condition=Ready', 'node/op-node-0', '--timeout=240s']);
    assert.equal(ready.exitCode, 0, failure(ready));

    const pids = recordedPids(box.workdir);
    const deleted = await kwokts(box, ['--name', 'op-gokwok', 'delete', 'cluster']);
    assert.equal(deleted.exitCode, 0, failure(deleted));
    for (const pid of pids) await waitFor(`pid ${pid} to exit`, () => !isAlive(pid), 30_000);
  });

  test('bad option input: one line naming it, exit 2, nothing created', async () => {
    const empty = join(box.workdir, '..', 'empty-dir');
    mkdirSync(empty, { recursive: true });
    for (const [args, message] of [
      [['-c', empty], /^error: config directory .*empty-dir has no kustomization\.yaml$/m],
      [['--heartbeat-factor', 'fast'], /^error: flag --heartbeat-factor: expected a number, got "fast"$/m],
      [['--kube-apiserver-port', '-3'], /^error: flag --kube-apiserver-port: expected a non-negative integer, got "-3"$/m],
    ] as const) {
      const result = await kwokts(box, ['--name', 'op-bad', 'create', 'cluster', ...args]);
      assert.equal(result.exitCode, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.equal(existsSync(join(box.workdir, 'clusters', 'op-bad')), false);
    }
  });
});
