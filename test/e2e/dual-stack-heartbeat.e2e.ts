/**
 * Dual-stack nodes keep heartbeating. `scale node` makes kwokctl's node shape, with an IPv4 and an
 * IPv6 InternalIP; the heartbeat stage sends a node's addresses back, and merged by type (a
 * strategic merge) the two collided: every heartbeat got 422 "Duplicate value" and lastHeartbeatTime
 * stayed at creation (Go kwok v0.8.0 does the same). The cluster runs kwokts's own node stages with
 * the heartbeat's 10-minute delay cut to a second, so that several rounds pass in the test.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kwokts, requireBinaries, ROOT, sandbox, waitFor, type Sandbox } from './harness.js';

const NAME = 'ds-beat';

interface NodeView {
  name: string;
  heartbeat: string;
  addresses: Array<{ type: string; address: string }>;
}

describe('dual-stack node heartbeat', { timeout: 600_000 }, () => {
  let box: Sandbox;
  const kubectl = async (...args: string[]): Promise<string> => {
    const result = await kwokts(box, ['--name', NAME, 'kubectl', ...args]);
    assert.equal(result.exitCode, 0, result.stderr);
    return result.stdout;
  };
  const nodes = async (): Promise<NodeView[]> => {
    const list = JSON.parse(await kubectl('get', 'nodes', '-o', 'json')) as { items: Array<{ metadata: { name: string }; status: { addresses?: NodeView['addresses']; conditions?: Array<{ type: string; status: string; lastHeartbeatTime: string }> } }> };
    return list.items.map((n) => ({
      name: n.metadata.name,
      heartbeat: n.status.conditions?.find((c) => c.type === 'Ready' && c.status === 'True')?.lastHeartbeatTime ?? '',
      addresses: n.status.addresses ?? [],
    }));
  };

  before(async () => {
    requireBinaries();
    box = sandbox();
    const stages = ['node-fast.yaml', 'node-heartbeat-with-lease.yaml', 'pod-fast.yaml']
      .map((file) => readFileSync(join(ROOT, 'templates', 'stages', file), 'utf8'))
      .join('\n---\n')
      .replace('durationMilliseconds: 600000', 'durationMilliseconds: 1000')
      .replace('jitterDurationMilliseconds: 610000', 'jitterDurationMilliseconds: 1500');
    const config = join(box.workdir, '..', 'stages.yaml');
    writeFileSync(config, stages);
    const created = await kwokts(box, ['--name', NAME, '-c', config, 'create', 'cluster', '--wait', '2m']);
    assert.equal(created.exitCode, 0, created.stderr);
  });
  after(async () => {
    await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    box.cleanup();
  });

  test('lastHeartbeatTime advances and both InternalIPs stay', async () => {
    const scaled = await kwokts(box, ['--name', NAME, 'scale', 'node', '--replicas', '2']);
    assert.equal(scaled.exitCode, 0, scaled.stderr);
    let first: NodeView[] = [];
    await waitFor('2 nodes Ready', async () => {
      first = await nodes();
      return first.length === 2 && first.every((n) => n.heartbeat !== '');
    });
    // lastHeartbeatTime has a resolution of a second: two later values mean at least one heartbeat.
    await waitFor('every node heartbeats twice more', async () => {
      const now = await nodes();
      return now.every((n) => Date.parse(n.heartbeat) >= Date.parse(first.find((f) => f.name === n.name)!.heartbeat) + 2000);
    }, 120_000);
    for (const node of await nodes()) {
      const internal = node.addresses.filter((a) => a.type === 'InternalIP').map((a) => a.address);
      assert.equal(internal.length, 2, `${node.name}: ${JSON.stringify(node.addresses)}`);
      assert.ok(internal.some((a) => a.includes(':')) && internal.some((a) => a.includes('.')), `${node.name} keeps one address of each family: ${internal.join(', ')}`);
    }
    const log = await kwokts(box, ['--name', NAME, 'logs', 'kwok-controller']);
    assert.doesNotMatch(log.stdout, /Duplicate value/);
  });
});
