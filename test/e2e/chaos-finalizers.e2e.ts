/**
 * The pod chaos Stage and deletion with and without finalizers, on a cluster made by `kwokts
 * create cluster` with the fast node sets, the general pod set and `pod-chaos.yaml`, checked through `kwokts
 * kubectl` only, as a user would.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { kwokts, requireBinaries, ROOT, sandbox, waitFor, watchLines, type Sandbox, failure } from './harness.js';
import { NODE } from '../fixtures/seed-objects.js';

const CLUSTER = 'chaos';
// The general pod set: its pod-delete waits until no finalizers are left (the fast set, like
// kwok's, deletes with grace period 0 and leaves finalizers to their owners too).
const STAGES = ['node-fast.yaml', 'node-heartbeat-with-lease.yaml', 'pod-general.yaml', 'pod-chaos.yaml'].map((f) => join(ROOT, 'templates', 'stages', f));

const CHAOS = 'pod-container-running-failed.stage.kwok.x-k8s.io';

/** A pod bound to the fake node; `metadataExtra` is YAML (indented two spaces) added under metadata. */
function pod(name: string, metadataExtra = ''): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: default
${metadataExtra}spec:
  nodeName: kwok-node-0
  tolerations:
    - key: kwok.x-k8s.io/node
      operator: Exists
      effect: NoSchedule
  containers:
    - name: app
      image: fake-image
`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('pod chaos and finalizers on a kwokts cluster', () => {
  let box: Sandbox;
  const k = (args: string[], input?: string) => kwokts(box, ['--name', CLUSTER, 'kubectl', ...args], input === undefined ? {} : { input });
  const field = async (name: string, jsonpath: string) => {
    const out = await k(['get', 'pod', name, '-o', `jsonpath=${jsonpath}`]);
    assert.equal(out.exitCode, 0, `get pod ${name}: ${out.stderr}`);
    return out.stdout;
  };
  /** Whether the pod exists; fails on any error other than NotFound. */
  const exists = async (name: string) => {
    const out = await k(['get', 'pod', name, '-o', 'name', '--ignore-not-found']);
    assert.equal(out.exitCode, 0, failure(out));
    return out.stdout.trim() === `pod/${name}`;
  };
  const phase = (name: string) => field(name, '{.status.phase}');

  before(async () => {
    requireBinaries();
    box = sandbox();
    const created = await kwokts(box, ['--name', CLUSTER, 'create', 'cluster', '--wait', '2m', ...STAGES.flatMap((s) => ['-c', s])]);
    assert.equal(created.exitCode, 0, failure(created));
    const applied = await k(['apply', '-f', '-'], NODE);
    assert.equal(applied.exitCode, 0, failure(applied));
    await waitFor('node Ready', async () => (await k(['get', 'node', 'kwok-node-0', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'])).stdout === 'True', 30_000);
  });
  after(async () => {
    if (!box) return;
    await kwokts(box, ['--name', CLUSTER, 'delete', 'cluster']);
    box.cleanup();
  });

  test('pod-container-running-failed: Running first, then the container terminates with the configured exit code and reason, Ready False', async () => {
    // Delay [4 s, 5 s) so the Running state is observable before the chaos stage fires.
    const meta = `  labels:
    ${CHAOS}: "true"
  annotations:
    ${CHAOS}/delay: 4s
    ${CHAOS}/jitter-delay: 5s
    ${CHAOS}/exit-code: "42"
    ${CHAOS}/reason: ChaosInjected
    ${CHAOS}/message: killed by the chaos stage
`;
    // One watch from before the pod exists: every state it passes through is recorded, however
    // briefly it lasts on a loaded machine (polling could miss the Running state altogether).
    const watch = watchLines(box, ['--name', CLUSTER, 'kubectl', 'get', 'pods', '--field-selector', 'metadata.name=chaos-pod', '--watch', '-o',
      'jsonpath={.status.phase} {.status.conditions[?(@.type=="Ready")].status} {.status.containerStatuses[0].ready} {.status.podIP} {.status.containerStatuses[0].state.running.startedAt}{"\\n"}']);
    try {
      const created = await k(['apply', '-f', '-'], pod('chaos-pod', meta));
      assert.equal(created.exitCode, 0, failure(created));
      await watch.until('chaos-pod Failed', (line) => line.startsWith('Failed'));
    } finally {
      await watch.stop();
    }
    const failedAt = watch.lines.findIndex((line) => line.startsWith('Failed'));
    const runningAt = watch.lines.findIndex((line) => /^Running True true 10\.0\.0\.\d+ \d{4}-\d\d-\d\dT\S+$/.test(line));
    assert.ok(runningAt >= 0 && runningAt < failedAt, `Running (Ready, container running, with an IP) must come before Failed; states seen: ${JSON.stringify(watch.lines)}`);

    const terminated = JSON.parse(await field('chaos-pod', '{.status.containerStatuses[0].state.terminated}')) as Record<string, unknown>;
    assert.equal(terminated.exitCode, 42);
    assert.equal(terminated.reason, 'ChaosInjected');
    assert.equal(terminated.message, 'killed by the chaos stage');
    assert.equal(await field('chaos-pod', '{.status.containerStatuses[0].state.running}'), '', 'the container must no longer be running');
    assert.equal(await field('chaos-pod', '{.status.containerStatuses[0].ready}'), 'false');
    assert.equal(await field('chaos-pod', '{.status.conditions[?(@.type=="Ready")].status}'), 'False');
    assert.equal(await field('chaos-pod', '{.status.conditions[?(@.type=="ContainersReady")].status}'), 'False');

    // Failed is final: pod-ready must not bring it back (it still has its podIP).
    await sleep(2000);
    assert.equal(await phase('chaos-pod'), 'Failed');
    assert.equal(await field('chaos-pod', '{.status.containerStatuses[0].state.terminated.exitCode}'), '42');
  });

  test('a pod without the chaos label stays Running', async () => {
    const created = await k(['apply', '-f', '-'], pod('calm-pod'));
    assert.equal(created.exitCode, 0, failure(created));
    await waitFor('calm-pod Running', async () => (await phase('calm-pod')) === 'Running', 30_000, 200);
    await sleep(3000);
    assert.equal(await field('calm-pod', '{.status.phase} {.status.conditions[?(@.type=="Ready")].status} {.status.containerStatuses[0].restartCount}'), 'Running True 0');
    assert.equal(await field('calm-pod', '{.status.containerStatuses[0].state.terminated}'), '');
  });

  test('a pod without finalizers is removed soon after delete (pod-delete)', async () => {
    const created = await k(['apply', '-f', '-'], pod('plain-pod'));
    assert.equal(created.exitCode, 0, failure(created));
    await waitFor('plain-pod Running', async () => (await phase('plain-pod')) === 'Running', 30_000, 200);
    const deleted = await k(['delete', 'pod', 'plain-pod', '--wait=false', '--grace-period=1']);
    assert.equal(deleted.exitCode, 0, failure(deleted));
    // pod-delete removes it without waiting for a kubelet (the deadline only guards against a hang).
    await waitFor('plain-pod gone', async () => !(await exists('plain-pod')), 120_000, 200);
  });

  test('a pod with a foreign finalizer stays (deletionTimestamp set) until the finalizer is removed, then goes', async () => {
    const created = await k(['apply', '-f', '-'], pod('held-pod', '  finalizers:\n    - example.com/hold\n'));
    assert.equal(created.exitCode, 0, failure(created));
    await waitFor('held-pod Running', async () => (await phase('held-pod')) === 'Running', 30_000, 200);
    assert.equal(await field('held-pod', '{.metadata.finalizers}'), '["example.com/hold"]');

    const deleted = await k(['delete', 'pod', 'held-pod', '--wait=false', '--grace-period=1']);
    assert.equal(deleted.exitCode, 0, failure(deleted));
    // Held for several seconds: the pod stays, marked for deletion, with its finalizer intact.
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      assert.ok(await exists('held-pod'), 'a pod with a finalizer other than kwok\'s must not be removed');
      const meta = await field('held-pod', '{.metadata.deletionTimestamp}|{.metadata.finalizers}');
      const [deletionTimestamp = '', finalizers = ''] = meta.split('|');
      assert.match(deletionTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, `deletionTimestamp: ${meta}`);
      assert.equal(finalizers, '["example.com/hold"]', 'the finalizer must not be stripped');
      await sleep(500);
    }

    const patched = await k(['patch', 'pod', 'held-pod', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
    assert.equal(patched.exitCode, 0, failure(patched));
    await waitFor('held-pod gone', async () => !(await exists('held-pod')), 120_000, 200);
  });
});
