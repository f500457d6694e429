/**
 * `scale node|pod` on a real cluster: numbered copies our controller brings to Ready/Running,
 * scale-down removes the newest, --param reaches the objects, bad input changes nothing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { nodesResource } from '../../src/kube/client/resources.js';
import { Reflector } from '../../src/kube/index.js';
import { clientForKubeconfig } from '../../src/scale/scale.js';
import { silentLogger } from '../../src/util/log.js';
import { kwokts, requireBinaries, sandbox, waitFor, type Sandbox } from './harness.js';

const NAME = 'scale';

async function ok(box: Sandbox, args: string[]): Promise<string> {
  const result = await kwokts(box, ['--name', NAME, ...args]);
  assert.equal(result.exitCode, 0, `kwokts ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

async function lines(box: Sandbox, args: string[]): Promise<string[]> {
  return (await ok(box, args)).split('\n').map((l) => l.trim()).filter(Boolean);
}

describe('scale', { timeout: 600_000 }, () => {
  let box: Sandbox;
  before(async () => {
    requireBinaries();
    box = sandbox();
    await ok(box, ['create', 'cluster', '--wait', '2m']);
  });
  after(async () => {
    await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    box.cleanup();
  });

  test('nodes: numbered, Ready under the controller', async () => {
    await ok(box, ['scale', 'node', '--replicas', '3']);
    assert.deepEqual(await lines(box, ['kubectl', 'get', 'nodes', '-l', 'kwok.x-k8s.io/kwokctl-scale=node', '-o', 'name']), ['node/node-000000', 'node/node-000001', 'node/node-000002']);
    await waitFor('3 nodes Ready', async () => {
      const status = await ok(box, ['kubectl', 'get', 'nodes', '-o', 'jsonpath={range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\\n"}{end}']);
      return status.split('\n').filter((s) => s === 'True').length === 3;
    }, 60_000);
  });

  test('pods: scheduled onto the fake nodes and Running with IPs; scale down keeps the lowest numbers', async () => {
    await ok(box, ['scale', 'pod', '--replicas', '6']);
    await waitFor('6 pods Running with IPs', async () => {
      const rows = await lines(box, ['kubectl', 'get', 'pods', '-l', 'kwok.x-k8s.io/kwokctl-scale=pod', '-o', 'jsonpath={range .items[*]}{.status.phase} {.status.podIP} {.spec.nodeName}{"\\n"}{end}']);
      return rows.length === 6 && rows.every((r) => /^Running \d+\.\d+\.\d+\.\d+ node-00000\d$/.test(r));
    }, 90_000);
    await ok(box, ['scale', 'pod', '--replicas', '2']);
    await waitFor('only pod-000000 and pod-000001 left', async () => {
      const names = await lines(box, ['kubectl', 'get', 'pods', '-l', 'kwok.x-k8s.io/kwokctl-scale=pod', '-o', 'name']);
      return names.join(',') === 'pod/pod-000000,pod/pod-000001';
    }, 60_000);
  });

  test('--param reaches the object; another name is another set', async () => {
    await ok(box, ['scale', 'node', 'big', '--replicas', '1', '--param', '.labels.size="big"', '--param', '.allocatable.cpu="128"']);
    const out = await ok(box, ['kubectl', 'get', 'node', 'big-000000', '-o', 'jsonpath={.metadata.labels.size} {.status.capacity.cpu}']);
    assert.equal(out.trim(), 'big 128');
    assert.equal((await lines(box, ['kubectl', 'get', 'nodes', '-l', 'kwok.x-k8s.io/kwokctl-scale=node', '-o', 'name'])).length, 3);
  });

  test('paced: created-but-not-Ready nodes stay within the window the Ready ones open', async () => {
    // The pacer lets a copy start only while fewer than max(32, 0.4 × Ready in the last second) are
    // waiting. A watch sees events in the apiserver's order, so when it sees a node created, it has
    // already seen every Ready the scale had seen when it let that node start: at every event the
    // backlog seen here is within max(32, 0.4 × Ready seen so far).
    const client = await clientForKubeconfig(join(box.workdir, 'clusters', NAME, 'kubeconfig.yaml'), 2);
    const created = new Set<string>();
    const ready = new Set<string>();
    let worst = { backlog: 0, ready: 0 };
    let breaches = 0;
    const stop = new AbortController();
    const reflector = new Reflector({
      client,
      ref: nodesResource,
      selectors: { labelSelector: 'kwok.x-k8s.io/kwokctl-scale=paced' },
      logger: silentLogger,
      onEvent: (type, node) => {
        const name = node.metadata.name!;
        if (type === 'DELETED') return;
        created.add(name);
        const conditions = (node['status'] as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? [];
        if (conditions.some((c) => c.type === 'Ready' && c.status === 'True')) ready.add(name);
        const backlog = created.size - ready.size;
        if (backlog > Math.max(32, Math.floor(0.4 * ready.size))) breaches++;
        if (backlog > worst.backlog) worst = { backlog, ready: ready.size };
      },
    });
    const running = reflector.run(stop.signal);
    await reflector.waitForSync();
    try {
      const result = await kwokts(box, ['--name', NAME, 'scale', 'node', 'paced', '--replicas', '300']);
      assert.equal(result.exitCode, 0, result.stderr);
      // A stall (nothing Ready for seconds, as on a starved machine) lifts the bound, and says so.
      const stalled = /creating without pacing/.test(result.stderr + result.stdout);
      await waitFor('300 paced nodes Ready', () => ready.size === 300, 120_000);
      if (!stalled) assert.equal(breaches, 0, `backlog went past the window: worst ${worst.backlog} waiting with ${worst.ready} Ready`);
      assert.match(result.stderr + result.stdout, /300\/300 created, \d+ Ready, \d+ not yet/);
    } finally {
      stop.abort();
      await running;
    }
    await ok(box, ['scale', 'node', 'paced', '--replicas', '0']);
  });

  test('bad input: one line, non-zero, nothing created', async () => {
    const before = (await lines(box, ['kubectl', 'get', 'nodes', '-o', 'name'])).length;
    const pods = (await lines(box, ['kubectl', 'get', 'pods', '-A', '-o', 'name'])).length;
    const rows: Array<[string[], number, RegExp]> = [
      [['scale', 'gpu', '--replicas', '1'], 2, /no resource template for "gpu"/],
      [['scale', 'node', '--replicas', '1', '--param', '.labels.x = ='], 2, /invalid --param/],
      [['scale', 'node', '--replicas', '-1'], 2, /--replicas must be/],
      [['scale', 'node', '--replicas', '2', '--serial-length', '0'], 2, /at most one replica/],
      // Refused before any request, with the limit (it used to run out of memory after seconds).
      [['scale', 'node', '--replicas', '99999999999999999999'], 2, /^error: --replicas 100000000000000000000 is more than one scale makes \(at most 1000000\)$/m],
      [['scale', 'node', '--replicas', '1', '--serial-length', '99999999999'], 2, /--serial-length 99999999999 .*at most 61/],
      // Named before the first create (it was "unexpected failure: POST …: 404 NotFound", exit 70, with a stack).
      [['scale', 'pod', '--replicas', '2', '-n', 'no-such-ns'], 4, /^error: namespace no-such-ns does not exist in cluster scale$/m],
    ];
    for (const [args, exit, message] of rows) {
      const result = await kwokts(box, ['--name', NAME, ...args]);
      assert.equal(result.exitCode, exit, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.equal(result.stderr.split('\n').filter((l) => l.startsWith('error:')).length, 1, `${args.join(' ')}: one error line\n${result.stderr}`);
      assert.doesNotMatch(result.stderr, /^\s+at /m, `${args.join(' ')}: no stack\n${result.stderr}`);
    }
    assert.equal((await lines(box, ['kubectl', 'get', 'nodes', '-o', 'name'])).length, before);
    assert.equal((await lines(box, ['kubectl', 'get', 'pods', '-A', '-o', 'name'])).length, pods);
  });
});
