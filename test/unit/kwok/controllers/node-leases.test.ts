import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { KubeApiError } from '../../../../src/kube/client/api-error.js';
import { leasesResource, nodesResource, podsResource } from '../../../../src/kube/client/resources.js';
import type { KubeObject } from '../../../../src/kube/client/types.js';
import { formatMicroTime, NodeLeases, nodeLeaseNamespace } from '../../../../src/kwok/controllers/node-leases.js';
import { silentLogger } from '../../../../src/util/log.js';
import { FakeKubeClient } from './fake-kube-client.js';
import { nodeReadyStage, podReadyStage } from './fake-stages.js';
import { eventually, node, phaseOf, pod, settle, startHarness } from './harness.js';
import type { Harness } from './harness.js';
import { ManualClock } from './manual-clock.js';

interface LeaseSpec {
  holderIdentity: string;
  leaseDurationSeconds: number;
  renewTime: string;
  acquireTime?: string;
  leaseTransitions?: number;
}

function specOf(lease: KubeObject | undefined): LeaseSpec {
  return lease?.['spec'] as LeaseSpec;
}

function foreignLease(name: string, holder: string, renewMs: number, durationSeconds = 40): KubeObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: nodeLeaseNamespace },
    spec: { holderIdentity: holder, leaseDurationSeconds: durationSeconds, renewTime: formatMicroTime(renewMs), leaseTransitions: 3 },
  };
}

function startLeases(client: FakeKubeClient, clock: ManualClock, changes: string[], takeOverFrom?: string[]): { leases: NodeLeases; stop: () => void } {
  const leases = new NodeLeases({
    client,
    holderIdentity: 'me',
    ...(takeOverFrom ? { takeOverFrom } : {}),
    durationSeconds: 40,
    parallelism: 2,
    logger: silentLogger,
    clock,
    random: () => 0,
    onChange: (name, held) => changes.push(`${name}:${held}`),
  });
  const abort = new AbortController();
  void leases.run(abort.signal);
  return { leases, stop: () => abort.abort() };
}

let stopLeases: (() => void) | undefined;
let harness: Harness | undefined;
afterEach(async () => {
  stopLeases?.();
  stopLeases = undefined;
  await harness?.stop();
  harness = undefined;
});

describe('NodeLeases', () => {
  it('formats renewTime as MicroTime', () => {
    assert.equal(formatMicroTime(Date.UTC(2024, 0, 2, 3, 4, 5, 678)), '2024-01-02T03:04:05.678000Z');
  });

  it('creates the node lease with holder, duration and an owner reference to the node', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const changes: string[] = [];
    const { leases, stop } = startLeases(client, clock, changes);
    stopLeases = stop;
    leases.ensure('n1', 'uid-n1');
    await eventually(() => leases.isHeld('n1'), 'lease held');
    const lease = client.object(leasesResource, `${nodeLeaseNamespace}/n1`)!;
    assert.deepEqual(lease.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'uid-n1' }]);
    assert.equal(specOf(lease).holderIdentity, 'me');
    assert.equal(specOf(lease).leaseDurationSeconds, 40);
    assert.equal(specOf(lease).renewTime, formatMicroTime(clock.now()));
    assert.deepEqual(changes, ['n1:true']);
  });

  it('renews every duration/4 with one update', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const { leases, stop } = startLeases(client, clock, []);
    stopLeases = stop;
    leases.ensure('n1', 'uid-n1');
    await eventually(() => leases.isHeld('n1'), 'lease held');
    clock.advance(9_000);
    await settle(20);
    assert.equal(client.callsOf('update', 'leases').length, 0, 'not before 10 s');
    clock.advance(1_000);
    await eventually(() => client.callsOf('update', 'leases').length === 1, 'renewed');
    assert.equal(client.callsOf('get', 'leases').length, 0, 'renewal reuses the cached lease');
    assert.equal(specOf(client.object(leasesResource, `${nodeLeaseNamespace}/n1`)).renewTime, formatMicroTime(clock.now()));
  });

  it('keeps renewing with the resourceVersion each renewal got back, without reading the lease again', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const { leases, stop } = startLeases(client, clock, []);
    stopLeases = stop;
    leases.ensure('n1', 'uid-n1');
    await eventually(() => leases.isHeld('n1'), 'lease held');
    for (let round = 1; round <= 3; round++) {
      const stored = client.object(leasesResource, `${nodeLeaseNamespace}/n1`)!.metadata.resourceVersion;
      clock.advance(10_000);
      await eventually(() => client.callsOf('update', 'leases').length === round, `renewal ${round}`);
      // The fake, as the apiserver, answers a stale resourceVersion with a conflict.
      assert.equal((client.callsOf('update', 'leases')[round - 1]!.body as KubeObject).metadata.resourceVersion, stored, `renewal ${round} sends the resourceVersion the last write left`);
    }
    await settle(20);
    assert.equal(client.callsOf('update', 'leases').length, 3, 'no conflict, so no retry');
    assert.equal(client.callsOf('get', 'leases').length, 0, 'never re-read');
    assert.equal(leases.isHeld('n1'), true);
  });

  it('renews without sending back the managedFields the apiserver answered with (it keeps them)', async () => {
    class ManagedFieldsClient extends FakeKubeClient {
      override async create(...args: Parameters<FakeKubeClient['create']>): Promise<KubeObject> {
        const created = await super.create(...args);
        return { ...created, metadata: { ...created.metadata, managedFields: [{ manager: 'kwokts-controller', operation: 'Update' }] } };
      }
    }
    const client = new ManagedFieldsClient();
    const clock = new ManualClock();
    const { leases, stop } = startLeases(client, clock, []);
    stopLeases = stop;
    leases.ensure('n1', 'uid-n1');
    await eventually(() => leases.isHeld('n1'), 'lease held');
    clock.advance(10_000);
    await eventually(() => client.callsOf('update', 'leases').length === 1, 'renewed');
    const sent = client.callsOf('update', 'leases')[0]!.body as KubeObject;
    assert.equal(sent.metadata.managedFields, undefined);
    assert.equal(specOf(sent).renewTime, formatMicroTime(clock.now()));
  });

  it('stays read-only while another live holder has the lease, then takes it over when it expires', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    client.seed(leasesResource, foreignLease('n1', 'other', clock.now()));
    const changes: string[] = [];
    const { leases, stop } = startLeases(client, clock, changes);
    stopLeases = stop;
    leases.ensure('n1', 'uid-n1');
    await eventually(() => client.callsOf('get', 'leases').length === 1, 'lease read');
    await settle(20);
    assert.equal(leases.isHeld('n1'), false);
    assert.equal(client.callsOf('update', 'leases').length, 0);
    clock.advance(41_000);
    await eventually(() => leases.isHeld('n1'), 'taken over');
    const spec = specOf(client.object(leasesResource, `${nodeLeaseNamespace}/n1`));
    assert.equal(spec.holderIdentity, 'me');
    assert.equal(spec.leaseTransitions, 4);
    assert.equal(spec.acquireTime, spec.renewTime);
    assert.deepEqual(changes, ['n1:true']);
  });

  it('takes live leases of the leader it replaced at once, and still respects other holders', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    client.seed(leasesResource, foreignLease('n1', 'old-leader', clock.now()));
    client.seed(leasesResource, foreignLease('n2', 'other', clock.now()));
    const changes: string[] = [];
    const { leases, stop } = startLeases(client, clock, changes, ['old-leader']);
    stopLeases = stop;
    leases.ensure('n1', 'uid-n1');
    leases.ensure('n2', 'uid-n2');
    await eventually(() => leases.isHeld('n1'), 'n1 taken over without waiting for expiry');
    assert.equal(specOf(client.object(leasesResource, `${nodeLeaseNamespace}/n1`)).holderIdentity, 'me');
    await settle(20);
    assert.equal(leases.isHeld('n2'), false);
    assert.equal(specOf(client.object(leasesResource, `${nodeLeaseNamespace}/n2`)).holderIdentity, 'other');
  });

  it('re-reads the lease after a conflict', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const { leases, stop } = startLeases(client, clock, []);
    stopLeases = stop;
    leases.ensure('n1', 'uid-n1');
    await eventually(() => leases.isHeld('n1'), 'lease held');
    client.failNext('update', new KubeApiError('conflict', 409, 'Conflict'), 'leases');
    clock.advance(10_400);
    await eventually(() => client.callsOf('update', 'leases').length === 1, 'conflicting update');
    clock.advance(1_000);
    await eventually(() => client.callsOf('update', 'leases').length === 2, 'second update');
    assert.ok(client.callsOf('create', 'leases').length >= 2, 'the cache was dropped, so it tried to create/read again');
    assert.equal(leases.isHeld('n1'), true);
  });

  it('reports the loss when a node is forgotten', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const changes: string[] = [];
    const { leases, stop } = startLeases(client, clock, changes);
    stopLeases = stop;
    leases.ensure('n1', 'uid-n1');
    await eventually(() => leases.isHeld('n1'), 'lease held');
    leases.forget('n1');
    assert.deepEqual(changes, ['n1:true', 'n1:false']);
    assert.equal(leases.heldCount, 0);
  });
});

describe('leases in the controller', () => {
  it('plays nodes only after their lease is acquired', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, node('n1'));
    harness = startHarness({ client, stages: [nodeReadyStage, podReadyStage], nodeLeaseDurationSeconds: 40 });
    await eventually(() => phaseOf(client.object(nodesResource, 'n1')) === 'Running', 'node Running');
    const lease = client.object(leasesResource, `${nodeLeaseNamespace}/n1`);
    assert.equal(specOf(lease).holderIdentity, 'test-controller');
    const order = client.calls.filter((c) => c.verb === 'create' || c.verb === 'patch').map((c) => c.resource);
    assert.deepEqual(order.slice(0, 2), ['leases', 'nodes']);
  });

  it('treats nodes and pods whose lease another live controller holds as read-only', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, node('theirs'));
    client.seed(nodesResource, node('ours'));
    client.seed(podsResource, pod('p-theirs', 'theirs'));
    client.seed(podsResource, pod('p-ours', 'ours'));
    client.seed(leasesResource, foreignLease('theirs', 'other-controller', Date.now()));
    harness = startHarness({ client, stages: [nodeReadyStage, podReadyStage], nodeLeaseDurationSeconds: 40 });
    await eventually(() => phaseOf(client.object(podsResource, 'default/p-ours')) === 'Running', 'our pod Running');
    await settle();
    assert.equal(phaseOf(client.object(nodesResource, 'theirs')), undefined);
    assert.equal(phaseOf(client.object(podsResource, 'default/p-theirs')), 'Pending');
    assert.equal(harness.controller.stats().heldLeases, 1);
  });

  it('takes over an expired lease and then plays the node and its pods', async () => {
    const client = new FakeKubeClient();
    client.seed(nodesResource, node('n1'));
    client.seed(podsResource, pod('p', 'n1'));
    client.seed(leasesResource, foreignLease('n1', 'dead-controller', Date.now() - 60_000));
    harness = startHarness({ client, stages: [nodeReadyStage, podReadyStage], nodeLeaseDurationSeconds: 40 });
    await eventually(() => phaseOf(client.object(podsResource, 'default/p')) === 'Running', 'pod Running');
    assert.equal(specOf(client.object(leasesResource, `${nodeLeaseNamespace}/n1`)).holderIdentity, 'test-controller');
  });
});

describe('NodeLeases handover between shards', () => {
  function shard(client: FakeKubeClient, clock: ManualClock, holder: string, changes: string[]): { leases: NodeLeases; abort: AbortController } {
    const leases = new NodeLeases({
      client,
      holderIdentity: holder,
      canTakeOver: (other) => other === 'a' || other === 'b',
      durationSeconds: 40,
      parallelism: 2,
      logger: silentLogger,
      clock,
      random: () => 0,
      onChange: (name, held) => changes.push(`${holder}:${name}:${held}`),
    });
    const abort = new AbortController();
    void leases.run(abort.signal);
    return { leases, abort };
  }

  it('the releasing shard keeps renewing until the new owner has written the lease, then stops', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const changes: string[] = [];
    const a = shard(client, clock, 'a', changes);
    const b = shard(client, clock, 'b', changes);
    try {
      a.leases.ensure('n1', 'uid-n1');
      await eventually(() => a.leases.isHeld('n1'), 'a holds n1');
      // The ring moved n1 to b: a releases, b takes the live lease at once (a is a shard).
      a.leases.release('n1', 15_000);
      clock.advance(10_000);
      await eventually(() => client.callsOf('update', 'leases').length === 1, 'a still renews while releasing');
      b.leases.ensure('n1', 'uid-n1');
      await eventually(() => b.leases.isHeld('n1'), 'b took n1 over without waiting for expiry');
      assert.equal(specOf(client.object(leasesResource, `${nodeLeaseNamespace}/n1`)).holderIdentity, 'b');
      // a's next renewal conflicts, it re-reads, sees b and lets go; it never takes the lease back.
      clock.advance(10_000);
      await eventually(() => !a.leases.isHeld('n1'), 'a let go');
      clock.advance(1_000);
      await settle(20);
      assert.equal(specOf(client.object(leasesResource, `${nodeLeaseNamespace}/n1`)).holderIdentity, 'b');
      const writesByA = client.calls.filter((c) => c.verb === 'update' && (c.body as KubeObject | undefined)?.['spec'] && (((c.body as KubeObject)['spec'] as LeaseSpec).holderIdentity === 'a'));
      clock.advance(30_000);
      await settle(20);
      assert.equal(client.calls.filter((c) => c.verb === 'update' && (((c.body as KubeObject | undefined)?.['spec'] as LeaseSpec | undefined)?.holderIdentity === 'a')).length, writesByA.length, 'a stopped writing');
      assert.deepEqual(changes.filter((c) => c.startsWith('a:')), ['a:n1:true', 'a:n1:false']);
    } finally {
      a.abort.abort();
      b.abort.abort();
    }
  });

  it('a released node whose new owner never comes is dropped after the grace period', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const a = shard(client, clock, 'a', []);
    try {
      a.leases.ensure('n1', 'uid-n1');
      await eventually(() => a.leases.isHeld('n1'), 'a holds n1');
      a.leases.release('n1', 15_000);
      clock.advance(10_000);
      await eventually(() => client.callsOf('update', 'leases').length === 1, 'renewed once while releasing');
      clock.advance(10_000);
      await eventually(() => !a.leases.isHeld('n1'), 'dropped');
      clock.advance(60_000);
      await settle(20);
      assert.equal(client.callsOf('update', 'leases').length, 1);
    } finally {
      a.abort.abort();
    }
  });
});
