import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { leasesResource, nodesResource, podsResource } from '../../../../src/kube/client/resources.js';
import { ShardRing } from '../../../../src/kwok/controllers/shard-ring.js';
import { FakeKubeClient } from '../controllers/fake-kube-client.js';
import { nodeReadyStage, podReadyStage } from '../controllers/fake-stages.js';
import { eventually, node, phaseOf, pod, podIpOf, startHarness } from '../controllers/harness.js';
import type { Harness } from '../controllers/harness.js';

const running: Harness[] = [];
afterEach(async () => {
  for (const h of running.splice(0)) await h.stop();
});

function holderOf(client: FakeKubeClient, name: string): string | undefined {
  return (client.object(leasesResource, `kube-node-lease/${name}`)?.['spec'] as { holderIdentity?: string } | undefined)?.holderIdentity;
}

describe('shards sharing nodes (two controllers, one fake API)', () => {
  it('a joining shard gets exactly the nodes the ring gives it; pods follow and keep their IPs', async () => {
    const client = new FakeKubeClient();
    const names = Array.from({ length: 12 }, (_, i) => `n${i}`);
    for (const name of names) client.seed(nodesResource, node(name, { podCIDR: `10.${names.indexOf(name)}.0.0/24` }));
    for (const name of names) client.seed(podsResource, pod(`p-${name}`, name));
    let ringA = new ShardRing(['a']);
    const ringB = new ShardRing(['a', 'b']);
    const view = (id: string, ring: () => ShardRing) => ({ owns: (n: string) => ring().ownerOf(n) === id, isShard: (h: string) => h === 'a' || h === 'b', handoverGraceMs: 15_000 });
    const a = startHarness({ client, identity: 'a', stages: [nodeReadyStage, podReadyStage], nodeLeaseDurationSeconds: 40, shard: view('a', () => ringA) });
    running.push(a);
    await eventually(() => names.every((n) => holderOf(client, n) === 'a') && names.every((n) => phaseOf(client.object(podsResource, `default/p-${n}`)) === 'Running'), 'a runs everything');
    const ips = new Map(names.map((n) => [n, podIpOf(client.object(podsResource, `default/p-${n}`))]));

    const b = startHarness({ client, identity: 'b', stages: [nodeReadyStage, podReadyStage], nodeLeaseDurationSeconds: 40, shard: view('b', () => ringB) });
    running.push(b);
    ringA = ringB;
    a.controller.nodes.reassign();
    const toB = names.filter((n) => ringB.ownerOf(n) === 'b');
    assert.ok(toB.length > 0 && toB.length < names.length, 'the ring splits the nodes');
    await eventually(() => names.every((n) => holderOf(client, n) === ringB.ownerOf(n)), 'every lease held by its owner on the new ring', 5000);
    assert.equal(a.controller.nodes.registry.size + b.controller.nodes.registry.size, names.length, 'each node managed by exactly one shard');
    for (const n of toB) assert.equal(a.controller.nodes.registry.has(n), false);

    // A new pod on one of b's nodes is played by b; nobody's IP changed.
    client.seed(podsResource, pod('late', toB[0]!));
    await eventually(() => phaseOf(client.object(podsResource, 'default/late')) === 'Running', 'b plays pods on its nodes', 5000);
    for (const n of names) assert.equal(podIpOf(client.object(podsResource, `default/p-${n}`)), ips.get(n));
  });
});
