/**
 * Snapshots on a real cluster: save (etcd and k8s), delete objects, restore each, and the
 * objects come back with their contents; an etcd restore under the running cluster (etcd, then
 * kcm and the scheduler restart; watchers and the kwok controller carry on with the restored state); export of a
 * cluster by kubeconfig; bad paths.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kwokts, requireBinaries, sandbox, spawnKwokts, waitFor, type Sandbox, failure } from './harness.js';
import { buildConnection } from '../../src/kube/client/connection.js';
import { HttpKubeClient } from '../../src/kube/client/http-client.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig/load.js';
import { Reflector } from '../../src/kube/client/reflector.js';
import { configMapsResource } from '../../src/kube/client/resources.js';
import { silentLogger } from '../../src/util/log.js';

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
  await explained(box, ok(box, ['kubectl', 'delete', 'namespace', 'keep', '--wait=true', '--timeout=60s']));
  await ok(box, ['kubectl', 'delete', 'node', 'snap-node']);
  const gone = await kwokts(box, ['--name', NAME, 'kubectl', 'get', 'configmap', 'settings', '-n', 'keep']);
  assert.notEqual(gone.exitCode, 0);
}

/**
 * What the cluster looked like, added to a failure's message so a red CI run can be read: the
 * objects of namespace keep, and the last errors and warnings of the controllers.
 */
async function diagnosis(box: Sandbox): Promise<string> {
  // Two calls: kubectl refuses `type/name` beside bare types in one, and reads `namespace/keep,nodes`
  // as four namespaces.
  const namespace = await kwokts(box, ['--name', NAME, 'kubectl', 'get', 'namespace', 'keep', '-o', 'wide']);
  const objects = await kwokts(box, ['--name', NAME, 'kubectl', 'get', 'nodes,deployments,replicasets,pods,events', '-n', 'keep', '-o', 'wide']);
  // What keeps a pod off the node: a taint the node lifecycle controller set, a Ready condition lost.
  const node = await kwokts(box, ['--name', NAME, 'kubectl', 'get', 'node', 'snap-node', '-o', 'jsonpath=taints: {.spec.taints}{"\\n"}ready: {.status.conditions[?(@.type=="Ready")]}{"\\n"}']);
  const logs = join(box.workdir, 'clusters', NAME, 'logs');
  // The whole logs, for a failure reproduced by hand (the message keeps only their last errors).
  const keep = process.env.KWOKTS_E2E_LOGS;
  if (keep) cpSync(logs, join(keep, `snapshot-${Date.now()}`), { recursive: true });
  const tails = ['kube-controller-manager', 'kwok-controller', 'kube-scheduler'].map((component) => {
    const file = join(logs, `${component}.log`);
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => /^[EW]\d{4} |error|warn|fail/i.test(l)).slice(-12) : ['(no log)'];
    return [`--- ${component}: last errors and warnings`, ...lines].join('\n');
  });
  return ['--- kubectl get namespace keep; kubectl get nodes,deployments,replicasets,pods,events -n keep', namespace.stdout + namespace.stderr + objects.stdout + objects.stderr, '--- node snap-node', node.stdout + node.stderr, ...tails].join('\n');
}

/** `step`, with the cluster's state added to its error. */
async function explained<T>(box: Sandbox, step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${await diagnosis(box)}`, { cause: error });
  }
}

/** The line a finished etcd restore prints. */
function restoredLine(path: string): RegExp {
  return new RegExp(`^Restored ${NAME} from ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} in \\d+\\.\\ds$`, 'm');
}

function pidOf(box: Sandbox, component: string): number {
  return Number(readFileSync(join(box.workdir, 'clusters', NAME, 'pids', `${component}.pid`), 'utf8').trim());
}

/** An informer on the config maps of namespace keep: list, then watch, relisting on 410 Gone. */
async function informer(box: Sandbox): Promise<{ events: string[]; stop: () => void }> {
  const { config } = loadKubeConfig({ kubeconfig: join(box.workdir, 'clusters', NAME, 'kubeconfig.yaml'), logger: silentLogger });
  const client = new HttpKubeClient(await buildConnection(config), { maxSockets: 2 });
  const events: string[] = [];
  const abort = new AbortController();
  const reflector = new Reflector({ client, ref: configMapsResource, selectors: { namespace: 'keep' }, onEvent: (type, o) => events.push(`${type} ${o.metadata.name}`), logger: silentLogger, backoff: { baseMs: 100, factor: 2, jitter: 0.2, capMs: 1000 } });
  void reflector.run(abort.signal);
  await reflector.waitForSync();
  return { events, stop: () => (abort.abort(), client.close()) };
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
    // The plain etcd restore runs on the CLI's fast path: oclif cannot even be loaded here.
    const restored = await kwokts(box, ['--name', NAME, 'snapshot', 'restore', '--path', path], { withoutOclif: true });
    assert.equal(restored.exitCode, 0, failure(restored));
    assert.match(restored.stderr, restoredLine(path));
    assert.equal(await state(box), want);
    await waitFor('pods Running again', async () => (await runningPods(box)) === 3, 90_000);
    assert.match(await ok(box, ['get', 'clusters', '-o', 'wide']), /snap\s+5\/5\s+Ready/);
  });

  test('etcd format under a running cluster: etcd, kcm and the scheduler restart; watchers and the controllers carry on with the restored state', async () => {
    const path = join(dir, 'live.db');
    await ok(box, ['snapshot', 'save', '--path', path]);
    // After the snapshot: one config map created, one deleted.
    await ok(box, ['kubectl', 'create', 'configmap', 'after', '-n', 'keep', '--from-literal=k=v']);
    await ok(box, ['kubectl', 'delete', 'configmap', 'settings', '-n', 'keep']);
    const kept = ['kube-apiserver', 'kwok-controller'];
    const pids = new Map(kept.map((c) => [c, pidOf(box, c)]));
    // Restarted once the apiserver serves the restored data, as kwokctl restarts them: kept
    // running, kcm's controllers acted on what they remembered of the data before (in one CI run
    // its ReplicaSet controller made three more pods for a ReplicaSet the restore brought back).
    const restartedOnes = ['kube-controller-manager', 'kube-scheduler'];
    const restartedPids = new Map(restartedOnes.map((c) => [c, pidOf(box, c)]));
    const etcdPid = pidOf(box, 'etcd');
    const watch = await informer(box);
    const kubectlWatch = spawnKwokts(box, ['--name', NAME, 'kubectl', 'get', 'configmaps', '-n', 'keep', '--watch', '-o', 'name']);
    let watched = '';
    let watchEnded = false;
    kubectlWatch.stdout?.on('data', (chunk: Buffer) => (watched += chunk.toString('utf8')));
    void kubectlWatch.then(() => (watchEnded = true));
    try {
      await waitFor('kubectl to list and watch', () => watched.split('\n').includes('configmap/after'), 120_000);
      await ok(box, ['snapshot', 'restore', '--path', path]);
      const returned = new Date().toISOString();
      // Served at once: the command returns only when the apiserver answers from the snapshot.
      assert.equal((await kwokts(box, ['--name', NAME, 'kubectl', 'get', 'configmap', 'after', '-n', 'keep'])).exitCode, 1, 'a config map made after the snapshot is gone');
      assert.equal(await state(box), 'blue/42 node/snap-node 3');
      for (const [component, pid] of pids) assert.equal(pidOf(box, component), pid, `${component} was not restarted`);
      for (const [component, pid] of restartedPids) assert.notEqual(pidOf(box, component), pid, `${component} was restarted on the restored data`);
      assert.notEqual(pidOf(box, 'etcd'), etcdPid, 'etcd was restarted on the restored data');
      // Every watch on the old data ends: an informer relists and sees the restored objects...
      await waitFor('the informer to see the restore', () => watch.events.includes('DELETED after') && watch.events.includes('ADDED settings'), 120_000);
      // ...and kubectl's watch does not carry on as if nothing had happened.
      await waitFor('kubectl get --watch to end', () => watchEnded, 120_000);
      // The controllers work on the restored state: the kwok controller renews the restored node's
      // lease, the scheduler binds a new pod, the controller-manager scales the restored Deployment.
      await waitFor('the node lease renewed after the restore', async () => (await ok(box, ['kubectl', 'get', 'lease', 'snap-node', '-n', 'kube-node-lease', '-o', 'jsonpath={.spec.renewTime}'])).trim() > returned, 120_000);
      assert.equal((await ok(box, ['kubectl', 'get', 'node', 'snap-node', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'])).trim(), 'True');
      await ok(box, ['kubectl', 'apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: {name: fresh, namespace: keep}
spec:
  tolerations: [{key: kwok.x-k8s.io/node, operator: Exists, effect: NoSchedule}]
  containers: [{name: c, image: busybox}]
`);
      await ok(box, ['kubectl', 'scale', 'deployment', 'web', '-n', 'keep', '--replicas=4']);
      await explained(box, waitFor('the new pod scheduled and 5 pods Running', async () => (await runningPods(box)) === 5, 120_000));
      assert.equal((await ok(box, ['kubectl', 'get', 'pod', 'fresh', '-n', 'keep', '-o', 'jsonpath={.spec.nodeName}'])).trim(), 'snap-node');
      // Restored again from the same file: the revision still rises, so watchers see this one too.
      await ok(box, ['kubectl', 'create', 'configmap', 'after-again', '-n', 'keep', '--from-literal=k=v']);
      await waitFor('the informer to see after-again', () => watch.events.includes('ADDED after-again'), 120_000);
      // This time through oclif (a --filter, which an etcd restore does not use, keeps it off the
      // fast path): both routes run the same restore and say the same.
      const again = await kwokts(box, ['--name', NAME, 'snapshot', 'restore', '--path', path, '--filter', 'configmap']);
      assert.equal(again.exitCode, 0, failure(again));
      assert.match(again.stderr, restoredLine(path));
      assert.equal((await kwokts(box, ['--name', NAME, 'kubectl', 'get', 'pod', 'fresh', '-n', 'keep'])).exitCode, 1, 'a pod made after the snapshot is gone');
      const returnedAgain = new Date().toISOString();
      await waitFor('the informer to see the second restore', () => watch.events.includes('DELETED after-again'), 120_000);
      await waitFor('3 pods Running again', async () => (await runningPods(box)) === 3, 120_000);
      // The restored pods were Running in the snapshot, so the line above does not show the kwok
      // controller alive after this restore: its lease renewal does.
      await explained(box, waitFor('the node lease renewed after the second restore', async () => (await ok(box, ['kubectl', 'get', 'lease', 'snap-node', '-n', 'kube-node-lease', '-o', 'jsonpath={.spec.renewTime}'])).trim() > returnedAgain, 120_000));
      assert.equal(await state(box), 'blue/42 node/snap-node 3');
    } finally {
      watch.stop();
      kubectlWatch.kill('SIGINT');
    }
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
    if (restore.exitCode !== 0) assert.fail(`${failure(restore)}\n${await diagnosis(box)}`);
    assert.match(restore.stderr, /\d+ objects created, \d+ already existed/);
    assert.equal(await state(box), want);
    // Pods point at the restored ReplicaSet: the Deployment does not create a second set.
    await explained(box, waitFor('3 pods Running, no extras', async () => (await runningPods(box)) === 3, 90_000));
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
