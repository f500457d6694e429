import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KubeApiError } from '../../../../src/kube/client/api-error.js';
import { leasesResource } from '../../../../src/kube/client/resources.js';
import type { KubeObject } from '../../../../src/kube/client/types.js';
import { checkLeaderElectionTiming, LeaderElector, leaderElectionDefaults, runWhileLeader } from '../../../../src/kwok/controllers/leader-election.js';
import { createLogger, LogLevel } from '../../../../src/util/log.js';
import { FakeKubeClient } from './fake-kube-client.js';
import { ManualClock } from './manual-clock.js';

const key = 'kube-system/kwok-controller';
const quiet = createLogger(LogLevel.ERROR, () => undefined);

function elector(client: FakeKubeClient, clock: ManualClock, identity: string): LeaderElector {
  return new LeaderElector({
    client,
    clock,
    identity,
    namespace: 'kube-system',
    name: 'kwok-controller',
    leaseDurationMs: leaderElectionDefaults.leaseDurationMs,
    renewDeadlineMs: leaderElectionDefaults.renewDeadlineMs,
    retryPeriodMs: leaderElectionDefaults.retryPeriodMs,
    logger: quiet,
    random: () => 0,
  });
}

function holder(client: FakeKubeClient): string | undefined {
  return (client.object(leasesResource, key)?.['spec'] as { holderIdentity?: string } | undefined)?.holderIdentity;
}

function spec(client: FakeKubeClient): Record<string, unknown> {
  return client.object(leasesResource, key)?.['spec'] as Record<string, unknown>;
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Advance the manual clock in small steps, letting the election loops run in between. */
async function elapse(clock: ManualClock, ms: number, step = 250): Promise<void> {
  for (let done = 0; done < ms; done += step) {
    clock.advance(Math.min(step, ms - done));
    for (let i = 0; i < 5; i++) await flush();
  }
}

describe('leader election', () => {
  it('follows client-go: leaseDuration > renewDeadline > 1.2 × retryPeriod', () => {
    assert.equal(checkLeaderElectionTiming({ leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 }), undefined);
    assert.match(checkLeaderElectionTiming({ leaseDurationMs: 10_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 }) ?? '', /lease duration must be greater/);
    assert.match(checkLeaderElectionTiming({ leaseDurationMs: 15_000, renewDeadlineMs: 2_000, retryPeriodMs: 2_000 }) ?? '', /renew deadline must be greater/);
    assert.match(checkLeaderElectionTiming({ leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 0 }) ?? '', /retry period/);
  });

  it('the first candidate creates the Lease; a second stands by until it expires unrenewed', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const a = elector(client, clock, 'a');
    const b = elector(client, clock, 'b');
    assert.equal(await a.tryAcquireOrRenew(), true);
    assert.equal(holder(client), 'a');
    assert.equal(spec(client)['leaseDurationSeconds'], 15);
    assert.equal(spec(client)['leaseTransitions'], 0);

    assert.equal(await b.tryAcquireOrRenew(), false);
    clock.advance(14_999);
    assert.equal(await b.tryAcquireOrRenew(), false, 'the lease is still valid for 1 ms');
    clock.advance(1);
    assert.equal(await b.tryAcquireOrRenew(), true);
    assert.equal(holder(client), 'b');
    assert.equal(spec(client)['leaseTransitions'], 1);
    assert.equal(b.previousLeader, 'a', 'b knows whom it replaced (to take its node leases)');
    assert.equal(a.previousLeader, undefined);
  });

  it('a renewing leader keeps the standby out', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const a = elector(client, clock, 'a');
    const b = elector(client, clock, 'b');
    assert.equal(await a.tryAcquireOrRenew(), true);
    const acquireTime = spec(client)['acquireTime'];
    for (let t = 0; t < 60_000; t += 2_000) {
      clock.advance(2_000);
      assert.equal(await a.tryAcquireOrRenew(), true);
      assert.equal(await b.tryAcquireOrRenew(), false);
    }
    assert.equal(holder(client), 'a');
    assert.equal(spec(client)['acquireTime'], acquireTime, 'renewals keep acquireTime');
    assert.equal(spec(client)['leaseTransitions'], 0);
  });

  it('judges expiry by its own observation, not by the renewTime another clock wrote', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    client.seed(leasesResource, {
      metadata: { name: 'kwok-controller', namespace: 'kube-system' },
      spec: { holderIdentity: 'skewed', leaseDurationSeconds: 15, renewTime: '2000-01-01T00:00:00.000000Z' },
    } as KubeObject);
    const b = elector(client, clock, 'b');
    assert.equal(await b.tryAcquireOrRenew(), false, 'an ancient renewTime alone does not make the lease expired');
    clock.advance(15_000);
    assert.equal(await b.tryAcquireOrRenew(), true);
  });

  it('a renewTime within the last poll interval counts as the renewal: the standby may take over a lease duration after it', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const a = elector(client, clock, 'a');
    const b = elector(client, clock, 'b');
    assert.equal(await a.tryAcquireOrRenew(), true);
    clock.advance(2_000);
    assert.equal(await b.tryAcquireOrRenew(), false, 'b first sees the lease 2 s after its renewal');
    clock.advance(12_999);
    assert.equal(await b.tryAcquireOrRenew(), false);
    clock.advance(1);
    assert.equal(await b.tryAcquireOrRenew(), true, '15 s after the renewal, not 15 s after b saw it');
  });

  it('a standby times its attempt for the expiry instead of the next poll', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const started = clock.now();
    assert.equal(await elector(client, clock, 'a').tryAcquireOrRenew(), true);
    clock.advance(1_000);
    let acquiredAt = 0;
    void elector(client, clock, 'b')
      .acquire(new AbortController().signal)
      .then(() => (acquiredAt = clock.now()));
    await elapse(clock, 15_000, 50);
    assert.ok(acquiredAt > 0, 'acquired');
    assert.ok(acquiredAt - started >= 15_000 && acquiredAt - started <= 15_100, `acquired ${acquiredAt - started} ms after the last renewal`);
  });

  it('two candidates racing for an expired Lease: exactly one wins', async () => {
    const client = new FakeKubeClient();
    client.latencyMs = 2;
    const clock = new ManualClock();
    client.seed(leasesResource, { metadata: { name: 'kwok-controller', namespace: 'kube-system' }, spec: { holderIdentity: '', leaseDurationSeconds: 15 } } as KubeObject);
    const results = await Promise.all([elector(client, clock, 'a').tryAcquireOrRenew(), elector(client, clock, 'b').tryAcquireOrRenew()]);
    assert.deepEqual(results.filter(Boolean).length, 1, `results ${results}`);
    assert.equal(holder(client), results[0] ? 'a' : 'b');
  });

  it('a leader that cannot renew within renewDeadline reports the loss', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const a = elector(client, clock, 'a');
    assert.equal(await a.acquire(new AbortController().signal), true);
    for (let i = 0; i < 20; i++) client.failNext('get', new KubeApiError('apiserver down', 0, undefined), 'leases');
    let outcome: string | undefined;
    void a.renew(new AbortController().signal).then((o) => (outcome = o));
    await elapse(clock, 9_000);
    assert.equal(outcome, undefined, 'still within the renew deadline');
    await elapse(clock, 2_000);
    assert.equal(outcome, 'lost');
    assert.equal(a.isLeader, false);
  });

  it('a renewal that hangs does not keep the leader acting past renewDeadline', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const a = elector(client, clock, 'a');
    assert.equal(await a.acquire(new AbortController().signal), true);
    client.get = () => new Promise(() => undefined);
    let outcome: string | undefined;
    void a.renew(new AbortController().signal).then((o) => (outcome = o));
    await elapse(clock, 9_500);
    assert.equal(outcome, undefined);
    await elapse(clock, 1_000);
    assert.equal(outcome, 'lost', 'lost at the renew deadline, before the lease (15 s) could pass to a standby');
  });

  it('runWhileLeader: the standby does nothing until the leader stops; a clean stop hands over at once', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    const started: string[] = [];
    const work = (name: string) => async (signal: AbortSignal): Promise<void> => {
      started.push(name);
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    };
    const stopA = new AbortController();
    const stopB = new AbortController();
    const runA = runWhileLeader(elector(client, clock, 'a'), stopA.signal, work('a'));
    await elapse(clock, 500);
    const runB = runWhileLeader(elector(client, clock, 'b'), stopB.signal, work('b'));
    await elapse(clock, 30_000);
    assert.deepEqual(started, ['a'], 'b stood by while a renewed');
    assert.equal(holder(client), 'a');

    stopA.abort();
    assert.equal(await runA, 'stopped');
    assert.equal(holder(client), '', 'released');
    await elapse(clock, 3_000);
    assert.deepEqual(started, ['a', 'b'], 'b took over within a retry period, not a lease period');
    assert.equal(holder(client), 'b');
    stopB.abort();
    assert.equal(await runB, 'stopped');
  });

  it('runWhileLeader: a leader whose Lease is taken stops its work and returns lost', async () => {
    const client = new FakeKubeClient();
    const clock = new ManualClock();
    let workAborted = false;
    const run = runWhileLeader(elector(client, clock, 'a'), new AbortController().signal, async (signal) => {
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      workAborted = true;
    });
    await elapse(clock, 500);
    assert.equal(holder(client), 'a');
    client.modify(leasesResource, key, (lease) => {
      (lease['spec'] as Record<string, unknown>)['holderIdentity'] = 'intruder';
    });
    await elapse(clock, 2_500);
    assert.equal(await run, 'lost');
    assert.equal(workAborted, true);
    assert.equal(holder(client), 'intruder', 'a lost leader does not touch the Lease again');
  });
});
