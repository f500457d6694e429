/**
 * Recording and replay on real clusters: `snapshot export --record` on one cluster while objects
 * are created, patched, scheduled and deleted; `snapshot restore --format k8s --replay` on a new
 * cluster, where watches see the same changes arrive in the same order. A hand-written recording
 * in kwokctl's layout (relative timestamps, strategic-merge directives) replays too.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kwokts, requireBinaries, sandbox, spawnKwokts, waitFor, watchLines, type Sandbox, failure } from './harness.js';

const A = 'rec-a';
const B = 'rec-b';

const NODE_AND_POD = `apiVersion: v1
kind: Node
metadata:
  name: rec-node
  annotations:
    kwok.x-k8s.io/node: fake
---
apiVersion: v1
kind: Pod
metadata:
  name: rec-pod
  namespace: rec
spec:
  containers:
  - {name: c, image: busybox}
`;

async function ok(box: Sandbox, cluster: string, args: string[], input?: string): Promise<string> {
  const result = await kwokts(box, ['--name', cluster, ...args], input === undefined ? {} : { input });
  assert.equal(result.exitCode, 0, `kwokts --name ${cluster} ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

/** restore needs every component ready; on a loaded machine a probe can miss now and then. */
async function ready(box: Sandbox, cluster: string): Promise<void> {
  await waitFor(`${cluster} ready`, async () => new RegExp(`${cluster}\\s+\\d+/\\d+\\s+Ready`).test((await kwokts(box, ['--name', cluster, 'get', 'clusters', '-o', 'wide'])).stdout), 120_000, 2000);
}

/** Index of the first line matching, after `from`; -1 when none. */
function indexAfter(lines: readonly string[], from: number, match: (l: string) => boolean): number {
  for (let i = from + 1; i < lines.length; i++) if (match(lines[i]!)) return i;
  return -1;
}

describe('snapshot record and replay', { timeout: 1_500_000 }, () => {
  let box: Sandbox;
  let dir: string;
  let recording: string;
  before(async () => {
    requireBinaries();
    box = sandbox();
    dir = join(box.workdir, '..');
    recording = join(dir, 'recording.yaml');
    await Promise.all([ok(box, A, ['create', 'cluster', '--wait', '3m']), ok(box, B, ['create', 'cluster', '--wait', '3m'])]);
  });
  after(async () => {
    await Promise.all([kwokts(box, ['--name', A, 'delete', 'cluster']), kwokts(box, ['--name', B, 'delete', 'cluster'])]);
    box.cleanup();
  });

  test('export --record writes the objects, then every change until Ctrl-C', async () => {
    const kubeconfig = join(dir, 'a.kubeconfig');
    writeFileSync(kubeconfig, await ok(box, A, ['get', 'kubeconfig']), { mode: 0o600 });
    const recorder = spawnKwokts(box, ['snapshot', 'export', '--record', '--kubeconfig', kubeconfig, '--path', recording, '--filter', 'namespace,serviceaccount,node,configmap,pod']);
    let stderr = '';
    recorder.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    await waitFor('the recorder to start recording', () => stderr.includes('recording their changes'));
    await ok(box, A, ['kubectl', 'create', 'namespace', 'rec']);
    await ok(box, A, ['kubectl', 'create', 'configmap', 'cm1', '-n', 'rec', '--from-literal=a=1']);
    await ok(box, A, ['kubectl', 'patch', 'configmap', 'cm1', '-n', 'rec', '-p', '{"data":{"a":"2"}}']);
    await ok(box, A, ['kubectl', 'label', 'configmap', 'cm1', '-n', 'rec', 'x=y']);
    await ok(box, A, ['kubectl', 'apply', '-f', '-'], NODE_AND_POD);
    await waitFor('rec-pod Running on A', async () => (await ok(box, A, ['kubectl', 'get', 'pod', 'rec-pod', '-n', 'rec', '-o', 'jsonpath={.status.phase}'])) === 'Running');
    await ok(box, A, ['kubectl', 'delete', 'configmap', 'cm1', '-n', 'rec']);
    // The delete must be in the file before the recorder stops: wait until the recorder wrote it.
    await waitFor('the delete to be recorded', () => readFileSync(recording, 'utf8').split('\n---\n').some((d) => d.includes('method: delete') && d.includes('name: cm1')));
    recorder.kill('SIGINT');
    const done = await recorder;
    assert.equal(done.exitCode, 0, stderr);
    assert.match(stderr, /Recorded \d+ changes/);
    const text = readFileSync(recording, 'utf8');
    assert.doesNotMatch(text, /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/, 'no wall-clock time is kept');
    assert.match(text, /creationTimestamp: "?\$\(time-offset-nanosecond -?\d+\)/);
    for (const method of ['create', 'patch', 'delete']) assert.match(text, new RegExp(`kind: ResourcePatch\\n(?:.*\\n)*?method: ${method}`));
    assert.match(text, /nodeName: rec-node/);
  });

  test('restore --replay on a new cluster: the same changes arrive, in order', async () => {
    const cms = watchLines(box, ['--name', B, 'kubectl', 'get', 'configmap', '-A', '--field-selector', 'metadata.name=cm1', '--watch', '--output-watch-events', '-o', 'jsonpath={.type} {.object.data.a} {.object.metadata.labels.x}{"\\n"}']);
    const pods = watchLines(box, ['--name', B, 'kubectl', 'get', 'pod', '-A', '--field-selector', 'metadata.name=rec-pod', '--watch', '--output-watch-events', '-o', 'jsonpath={.type} node={.object.spec.nodeName} phase={.object.status.phase}{"\\n"}']);
    try {
      await ready(box, B);
      const restore = await kwokts(box, ['--name', B, 'snapshot', 'restore', '--format', 'k8s', '--replay', '--path', recording]);
      assert.equal(restore.exitCode, 0, failure(restore));
      assert.match(restore.stderr, /Replayed (\d+) of \1 recorded changes/);
      await cms.until('cm1 deleted', (l) => l.startsWith('DELETED'));
      const lines = cms.lines;
      const added = indexAfter(lines, -1, (l) => l === 'ADDED 1');
      const patched = indexAfter(lines, added, (l) => l === 'MODIFIED 2');
      const labeled = indexAfter(lines, patched, (l) => l === 'MODIFIED 2 y');
      const deleted = indexAfter(lines, labeled, (l) => l === 'DELETED 2 y');
      assert.ok(added >= 0 && patched > added && labeled > patched && deleted > labeled, `configmap changes out of order: ${JSON.stringify(lines)}`);
      // The pod is created unscheduled, bound by the replayed binding, then Running by its replayed status.
      await pods.until('rec-pod Running', (l) => l.includes('phase=Running'));
      const p = pods.lines;
      const created = indexAfter(p, -1, (l) => l.startsWith('ADDED node= '));
      const bound = indexAfter(p, created, (l) => l.includes('node=rec-node'));
      const running = indexAfter(p, bound - 1, (l) => l.includes('node=rec-node') && l.includes('phase=Running'));
      assert.ok(created >= 0 && bound > created && running >= bound, `pod changes out of order: ${JSON.stringify(p)}`);
    } finally {
      await cms.stop();
      await pods.stop();
    }
    // The controllers run again afterwards.
    await ready(box, B);
  });

  test('a recording in kwokctl\'s layout (relative times, $setElementOrder) replays', async () => {
    // Written by hand the way kwokctl writes one: an object, then changes; times relative to the start.
    const file = join(dir, 'kwokctl-layout.yaml');
    writeFileSync(
      file,
      `apiVersion: v1
kind: Namespace
metadata:
  creationTimestamp: "$(time-offset-nanosecond -3000000000)"
  name: legacy
---
apiVersion: action.kwok.x-k8s.io/v1alpha1
durationNanosecond: 100000000
kind: ResourcePatch
method: create
resource:
  resource: nodes
  version: v1
target:
  name: legacy-node
template:
  apiVersion: v1
  kind: Node
  metadata:
    annotations:
      kwok.x-k8s.io/node: fake
    creationTimestamp: "$(time-offset-nanosecond 100000000)"
    finalizers:
    - example.com/a
    name: legacy-node
    uid: 00000000-0000-0000-0000-000000000001
---
apiVersion: action.kwok.x-k8s.io/v1alpha1
durationNanosecond: 900000000
kind: ResourcePatch
method: patch
resource:
  resource: nodes
  version: v1
target:
  name: legacy-node
template:
  metadata:
    $deleteFromPrimitiveList/finalizers:
    - example.com/a
    $setElementOrder/finalizers:
    - example.com/b
    finalizers:
    - example.com/b
    labels:
      step: two
---
apiVersion: action.kwok.x-k8s.io/v1alpha1
durationNanosecond: 500000000
kind: ResourcePatch
method: patch
resource:
  resource: nodes
  version: v1
target:
  name: legacy-node
template:
  metadata:
    labels:
      step: one
`,
    );
    const nodes = watchLines(box, ['--name', B, 'kubectl', 'get', 'node', '--field-selector', 'metadata.name=legacy-node', '--watch', '--output-watch-events', '-o', 'jsonpath={.type} {.object.metadata.labels.step} {.object.metadata.finalizers}{"\\n"}']);
    try {
      await ready(box, B);
      const restore = await kwokts(box, ['--name', B, 'snapshot', 'restore', '--format', 'k8s', '--replay', '--path', file]);
      assert.equal(restore.exitCode, 0, failure(restore));
      assert.match(restore.stderr, /Replayed 3 of 3 recorded changes/);
      await nodes.until('step two', (l) => l.includes('two'));
    } finally {
      await nodes.stop();
    }
    const one = nodes.lines.findIndex((l) => l.includes('one'));
    const two = nodes.lines.findIndex((l) => l.includes('two'));
    assert.ok(one >= 0 && two > one, `patches not in recorded order: ${JSON.stringify(nodes.lines)}`);
    assert.equal(await ok(box, B, ['kubectl', 'get', 'node', 'legacy-node', '-o', 'jsonpath={.metadata.finalizers}']), '["example.com/b"]');
    assert.equal(await ok(box, B, ['kubectl', 'get', 'namespace', 'legacy', '-o', 'name']), 'namespace/legacy');
    await ok(box, B, ['kubectl', 'patch', 'node', 'legacy-node', '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
  });

  test('restore without --replay restores only the objects, and says what it left out', async () => {
    await ok(box, B, ['kubectl', 'delete', 'namespace', 'legacy', '--wait=false']);
    await ready(box, B);
    const restore = await kwokts(box, ['--name', B, 'snapshot', 'restore', '--format', 'k8s', '--path', join(dir, 'kwokctl-layout.yaml')]);
    assert.equal(restore.exitCode, 0, failure(restore));
    assert.match(restore.stderr, /3 recorded changes in .* were not replayed \(add --replay/);
  });

  test('bad recording input: one line, exit 2, nothing changed', async () => {
    const stray = join(dir, 'stray.yaml');
    writeFileSync(stray, readFileSync(join(dir, 'kwokctl-layout.yaml'), 'utf8') + '---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: late\n');
    const rows: Array<[string, string[], RegExp]> = [
      [A, ['snapshot', 'restore', '--format', 'k8s', '--replay', '--path', stray], /document 5 follows the recorded changes but is not a ResourcePatch/],
      [A, ['snapshot', 'restore', '--format', 'etcd', '--replay', '--path', stray], /--replay needs --format k8s/],
      [A, ['snapshot', 'save', '--record', '--path', join(dir, 'x.db')], /--record needs --format k8s/],
      [A, ['snapshot', 'export', '--record', '--as', 'alice', '--path', join(dir, 'x.yaml')], /--record cannot impersonate/],
    ];
    for (const [cluster, args, message] of rows) {
      const result = await kwokts(box, ['--name', cluster, ...args]);
      assert.equal(result.exitCode, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message);
    }
    await assert.rejects(ok(box, A, ['kubectl', 'get', 'configmap', 'late']));
  });
});
