/**
 * Snapshots on a real cluster: save (etcd and k8s), delete objects, restore each, and the
 * objects come back with their contents; export of a cluster by kubeconfig; bad paths.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kwokts, requireBinaries, sandbox, waitFor, type Sandbox } from './harness.js';

const NAME = 'snap';
const OBJECTS = `apiVersion: v1
kind: Namespace
metadata:
  name: keep
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: keep
data:
  color: blue
  size: "42"
---
apiVersion: v1
kind: Node
metadata:
  name: snap-node
  annotations:
    kwok.x-k8s.io/node: fake
  labels:
    type: kwok
spec:
  taints:
  - effect: NoSchedule
    key: kwok.x-k8s.io/node
    value: fake
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: keep
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      nodeName: snap-node
      tolerations:
      - {key: kwok.x-k8s.io/node, operator: Exists, effect: NoSchedule}
      containers:
      - {name: c, image: busybox}
`;

async function ok(box: Sandbox, args: string[], input?: string): Promise<string> {
  const result = await kwokts(box, ['--name', NAME, ...args], input === undefined ? {} : { input });
  assert.equal(result.exitCode, 0, `kwokts ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

async function state(box: Sandbox): Promise<string> {
  const cm = (await ok(box, ['kubectl', 'get', 'configmap', 'settings', '-n', 'keep', '-o', 'jsonpath={.data.color}/{.data.size}'])).trim();
  const node = (await ok(box, ['kubectl', 'get', 'node', 'snap-node', '-o', 'name'])).trim();
  const deploy = (await ok(box, ['kubectl', 'get', 'deployment', 'web', '-n', 'keep', '-o', 'jsonpath={.spec.replicas}'])).trim();
  return `${cm} ${node} ${deploy}`;
}

async function runningPods(box: Sandbox): Promise<number> {
  const phases = await ok(box, ['kubectl', 'get', 'pods', '-n', 'keep', '-o', 'jsonpath={range .items[*]}{.status.phase}{"\\n"}{end}']);
  return phases.split('\n').filter((p) => p === 'Running').length;
}

async function wipe(box: Sandbox): Promise<void> {
  await ok(box, ['kubectl', 'delete', 'namespace', 'keep', '--wait=true', '--timeout=60s']);
  await ok(box, ['kubectl', 'delete', 'node', 'snap-node']);
  const gone = await kwokts(box, ['--name', NAME, 'kubectl', 'get', 'configmap', 'settings', '-n', 'keep']);
  assert.notEqual(gone.exitCode, 0);
}

describe('snapshot', { timeout: 900_000 }, () => {
  let box: Sandbox;
  let dir: string;
  before(async () => {
    requireBinaries();
    box = sandbox();
    dir = join(box.workdir, '..');
    await ok(box, ['create', 'cluster', '--wait', '2m']);
    await ok(box, ['kubectl', 'apply', '-f', '-'], OBJECTS);
    await waitFor('3 pods Running', async () => (await runningPods(box)) === 3, 90_000);
  });
  after(async () => {
    await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    box.cleanup();
  });

  test('etcd format: save, delete, restore brings every object back', async () => {
    const want = await state(box);
    assert.equal(want, 'blue/42 node/snap-node 3');
    const path = join(dir, 'snap.db');
    await ok(box, ['snapshot', 'save', '--path', path]);
    assert.ok(existsSync(path));
    assert.deepEqual(readdirSync(dir).filter((f) => f.includes('.part')), [], 'no partial file left');
    await wipe(box);
    await ok(box, ['snapshot', 'restore', '--path', path]);
    assert.equal(await state(box), want);
    await waitFor('pods Running again', async () => (await runningPods(box)) === 3, 90_000);
    assert.match(await ok(box, ['get', 'clusters', '-o', 'wide']), /snap\s+5\/5\s+Ready/);
  });

  test('k8s format: save, delete, restore re-creates the objects with owners re-linked', async () => {
    const want = await state(box);
    const path = join(dir, 'objects.yaml');
    await ok(box, ['snapshot', 'save', '--path', path, '--format', 'k8s']);
    const text = readFileSync(path, 'utf8');
    assert.match(text, /name: settings/);
    assert.doesNotMatch(text, /resourceVersion/);
    await wipe(box);
    const restore = await kwokts(box, ['--name', NAME, 'snapshot', 'restore', '--path', path, '--format', 'k8s']);
    assert.equal(restore.exitCode, 0, restore.stderr);
    assert.match(restore.stderr, /\d+ objects created, \d+ already existed/);
    assert.equal(await state(box), want);
    // Pods point at the restored ReplicaSet: the Deployment does not create a second set.
    await waitFor('3 pods Running, no extras', async () => (await runningPods(box)) === 3, 90_000);
    const rsOwners = await ok(box, ['kubectl', 'get', 'pods', '-n', 'keep', '-o', 'jsonpath={range .items[*]}{.metadata.ownerReferences[0].uid}{"\\n"}{end}']);
    const rsUids = (await ok(box, ['kubectl', 'get', 'replicasets', '-n', 'keep', '-o', 'jsonpath={.items[*].metadata.uid}'])).trim().split(/\s+/);
    for (const uid of rsOwners.trim().split('\n')) assert.ok(rsUids.includes(uid), `pod owner ${uid} is not a live ReplicaSet (${rsUids.join(',')})`);
  });

  test('export by kubeconfig matches save --format k8s', async () => {
    const saved = join(dir, 'saved.yaml');
    const exported = join(dir, 'exported.yaml');
    await ok(box, ['snapshot', 'save', '--path', saved, '--format', 'k8s', '--filter', 'configmap,namespace']);
    const kubeconfig = join(dir, 'snap.kubeconfig');
    writeFileSync(kubeconfig, await ok(box, ['get', 'kubeconfig']), { mode: 0o600 });
    await ok(box, ['snapshot', 'export', '--kubeconfig', kubeconfig, '--path', exported, '--filter', 'configmap,namespace']);
    const names = (file: string): string[] => [...readFileSync(file, 'utf8').matchAll(/^  name: (.+)$/gm)].map((m) => m[1]!).sort();
    assert.deepEqual(names(exported), names(saved));
    assert.ok(names(saved).includes('settings'));
  });

  test('bad paths and formats: one line, non-zero, nothing changed', async () => {
    const existing = join(dir, 'snap.db');
    const rows: Array<[string[], number, RegExp]> = [
      [['snapshot', 'save', '--path', existing], 2, /already exists/],
      [['snapshot', 'restore', '--path', join(dir, 'missing.db')], 4, /does not exist/],
      [['snapshot', 'save', '--path', join(dir, 'x.db'), '--format', 'zip'], 2, /format/],
      [['snapshot', 'save', '--path', join(dir, 'no-such-dir', 'x.db')], 2, /does not exist/],
    ];
    for (const [args, code, message] of rows) {
      const result = await kwokts(box, ['--name', NAME, ...args]);
      assert.equal(result.exitCode, code, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message);
    }
    assert.equal(existsSync(join(dir, 'x.db')), false);
    assert.equal(await state(box), 'blue/42 node/snap-node 3');
  });
});
