import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { leasesResource } from '../../../../src/kube/client/resources.js';
import { ShardMembership, shardLeaseName } from '../../../../src/kwok/controllers/shard-membership.js';
import type { ShardRing } from '../../../../src/kwok/controllers/shard-ring.js';
import { silentLogger } from '../../../../src/util/log.js';
import { FakeKubeClient } from '../controllers/fake-kube-client.js';
import { ManualClock } from '../controllers/manual-clock.js';

function member(client: FakeKubeClient, clock: ManualClock, identity: string, rings: string[][]): ShardMembership {
  return new ShardMembership({
    client,
    clock,
    identity,
    namespace: 'kube-node-lease',
    leaseDurationMs: 10_000,
    retryPeriodMs: 2_000,
    logger: silentLogger,
    onChange: (ring: ShardRing) => rings.push([...ring.members]),
  });
}

describe('shardLeaseName', () => {
  it('keeps valid ids and turns others into distinct valid names', () => {
    assert.equal(shardLeaseName('shard-0'), 'kwok-shard-shard-0');
    const a = shardLeaseName('Host_1234');
    const b = shardLeaseName('host-1234');
    assert.match(a, /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/);
    assert.notEqual(a, b);
    assert.ok(shardLeaseName('x'.repeat(200)).length <= 63);
  });
});

describe('ShardMembership', () => {
  it('sees the others join, drops one that stops renewing, and remembers it as a shard', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const ringsA: string[][] = [];
    const a = member(client, clock, 'a', ringsA);
    const b = member(client, clock, 'b', []);
    await a.tick();
    assert.deepEqual(ringsA, [['a']]);
    await b.tick();
    clock.advance(2_000);
    await a.tick();
    assert.deepEqual(ringsA.at(-1), ['a', 'b']);
    assert.equal(client.object(leasesResource, 'kube-node-lease/kwok-shard-b')?.metadata.labels?.['kwok.x-k8s.io/shard'], 'true');
    // b dies: a keeps renewing; after b's lease duration on a's clock b is gone from the ring.
    for (let i = 0; i < 5; i++) {
      clock.advance(2_000);
      await a.tick();
    }
    assert.deepEqual(ringsA.at(-1), ['a']);
    assert.equal(a.isShard('b'), true, 'b’s node leases may still be taken over');
    assert.equal(a.isShard('someone-else'), false);
    assert.equal(a.owns('any-node'), true);
  });

  it('counts itself out when its own renewals fail for a lease duration', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const rings: string[][] = [];
    const a = member(client, clock, 'a', rings);
    await a.tick();
    for (let i = 0; i < 6; i++) {
      clock.advance(2_000);
      client.failNext('update', new Error('apiserver down'), 'leases');
      await a.tick();
    }
    assert.deepEqual(rings.at(-1), []);
    assert.equal(a.owns('n1'), false);
  });

  it('deletes its lease when stopped, so the others take over at their next list', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const a = member(client, clock, 'a', []);
    const abort = new AbortController();
    const running = a.run(abort.signal);
    await a.ready();
    assert.ok(client.object(leasesResource, 'kube-node-lease/kwok-shard-a'));
    abort.abort();
    await running;
    assert.equal(client.object(leasesResource, 'kube-node-lease/kwok-shard-a'), undefined);
  });
});
