/**
 * The seed scenarios on a cluster made by `kwokts create cluster`, checked through `kwokts
 * kubectl` only, as a user would.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { kwokts, requireBinaries, sandbox, waitFor, watchLines, type Sandbox, failure } from './harness.js';
import { DEPLOYMENT, NODE } from '../fixtures/seed-objects.js';

describe('seed scenarios on a kwokts cluster', () => {
  let box: Sandbox;
  const k = (args: string[], input?: string) => kwokts(box, ['--name', 'seeds', 'kubectl', ...args], input === undefined ? {} : { input });
  before(async () => {
    requireBinaries();
    box = sandbox();
    // A short lease so several renewals fit in a test (seed 001 watches the node stay Ready).
    const created = await kwokts(box, ['--name', 'seeds', 'create', 'cluster', '--wait', '2m', '--heartbeat-factor', '1', '--node-lease-duration-seconds', '4']);
    assert.equal(created.exitCode, 0, failure(created));
  });
  after(async () => {
    await kwokts(box, ['--name', 'seeds', 'delete', 'cluster']);
    box.cleanup();
  });

  test('seed 000: the node is Ready with its IP, 10 pods Running with distinct IPs, scale to 0 removes them', async () => {
    assert.equal((await k(['apply', '-f', '-'], NODE)).exitCode, 0);
    await waitFor('node Ready', async () => (await k(['get', 'node', 'kwok-node-0', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'])).stdout === 'True', 30_000);
    const wide = await k(['get', 'node', '-o', 'wide']);
    assert.match(wide.stdout, /^kwok-node-0\s+Ready\s+agent\s+\S+\s+fake\s+127\.0\.0\.1\s/m);

    assert.equal((await k(['apply', '-f', '-'], DEPLOYMENT)).exitCode, 0);
    const podsOf = async (): Promise<Array<{ phase: string; ip: string; node: string }>> => {
      const out = await k(['get', 'pod', '-l', 'app=fake-pod', '-o', 'jsonpath={range .items[*]}{.status.phase} {.status.podIP} {.spec.nodeName}{"\\n"}{end}']);
      return out.stdout.split('\n').filter(Boolean).map((l) => {
        const [phase = '', ip = '', node = ''] = l.split(' ');
        return { phase, ip, node };
      });
    };
    await waitFor('10 pods Running', async () => {
      const pods = await podsOf();
      return pods.length === 10 && pods.every((p) => p.phase === 'Running');
    }, 60_000, 500);
    const pods = await podsOf();
    assert.equal(new Set(pods.map((p) => p.ip)).size, 10, 'pod IPs must be distinct');
    for (const p of pods) {
      assert.match(p.ip, /^10\.0\.0\.\d+$/);
      assert.equal(p.node, 'kwok-node-0');
    }

    assert.equal((await k(['scale', 'deployment', 'fake-pod', '--replicas', '0'])).exitCode, 0);
    await waitFor('pods gone', async () => (await podsOf()).length === 0, 60_000, 500);
  });

  test('seed 001: the node stays Ready across several lease periods and its Lease is renewed', async () => {
    const lease = async () => (await k(['get', 'lease', '-n', 'kube-node-lease', 'kwok-node-0', '-o', 'jsonpath={.spec.renewTime} {.spec.leaseDurationSeconds} {.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}'])).stdout;
    await waitFor('lease exists', async () => (await lease()).length > 0, 20_000);
    const first = await lease();
    const [, duration, owner] = first.split(' ');
    assert.equal(duration, '4');
    assert.equal(owner, 'Node/kwok-node-0');
    // Watches, not polls: every renewal and every change of the Ready condition is seen however
    // slowly kubectl runs on a loaded machine. Three renewals span several lease periods (one
    // every quarter of a period); the deadline only guards against a hang.
    const nodeReady = watchLines(box, ['--name', 'seeds', 'kubectl', 'get', 'node', 'kwok-node-0', '--watch', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}{"\\n"}']);
    const renewals = watchLines(box, ['--name', 'seeds', 'kubectl', 'get', 'lease', '-n', 'kube-node-lease', 'kwok-node-0', '--watch', '-o', 'jsonpath={.spec.renewTime}{"\\n"}']);
    try {
      await renewals.until('three lease renewals', () => new Set(renewals.lines).size >= 4);
    } finally {
      await renewals.stop();
      await nodeReady.stop();
    }
    assert.ok(nodeReady.lines.length > 0, 'the node watch saw the node');
    assert.deepEqual([...new Set(nodeReady.lines)], ['True'], `the node must stay Ready throughout; Ready seen: ${JSON.stringify(nodeReady.lines)}`);
  });
});
