import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DelayQueue } from '../../../../src/kwok/controllers/delay-queue.js';
import { ManualClock } from './manual-clock.js';

/** Everything ready now, without waiting. */
async function drain<T>(queue: DelayQueue<T>): Promise<T[]> {
  const out: T[] = [];
  for (let job = await peekReady(queue); job !== undefined; job = await peekReady(queue)) out.push(job);
  return out;
}

async function peekReady<T>(queue: DelayQueue<T>): Promise<T | undefined> {
  return (await queue.take(AbortSignal.abort()))?.item;
}

describe('DelayQueue', () => {
  it('releases items when their delay has passed, earliest first', async () => {
    const clock = new ManualClock();
    const queue = new DelayQueue<string>(clock);
    queue.add('b', 'b', 200);
    queue.add('a', 'a', 100);
    queue.add('c', 'c', 0);
    assert.equal(queue.size, 3);
    assert.equal((await queue.take())?.item, 'c');
    clock.advance(150);
    assert.equal((await queue.take())?.item, 'a');
    clock.advance(100);
    assert.equal((await queue.take())?.item, 'b');
    assert.equal(queue.size, 0);
  });

  it('replaces and cancels the pending job of the same key', async () => {
    const clock = new ManualClock();
    const queue = new DelayQueue<string>(clock);
    queue.add('node-1', 'old', 1000);
    queue.add('node-1', 'new', 50);
    assert.equal(queue.size, 1);
    assert.equal(queue.get('node-1'), 'new');
    clock.advance(2000);
    const job = await queue.take();
    assert.deepEqual(job, { key: 'node-1', item: 'new' });
    assert.equal(await peekReady(queue), undefined, 'the replaced job never surfaces');
  });

  it('a later replacement can postpone an item that was due sooner', async () => {
    const clock = new ManualClock();
    const queue = new DelayQueue<string>(clock);
    queue.add('k', 'first', 10);
    queue.add('k', 'second', 500);
    clock.advance(100);
    assert.equal(await peekReady(queue), undefined);
    clock.advance(500);
    assert.equal((await queue.take())?.item, 'second');
  });

  it('cancel removes a pending job', async () => {
    const clock = new ManualClock();
    const queue = new DelayQueue<string>(clock);
    queue.add('k', 'x', 10);
    assert.equal(queue.cancel('k'), true);
    assert.equal(queue.cancel('k'), false);
    clock.advance(100);
    assert.deepEqual(await drain(queue), []);
  });

  it('a waiting worker gets the next job as soon as it is due', async () => {
    const clock = new ManualClock();
    const queue = new DelayQueue<string>(clock);
    const waiting = queue.take();
    queue.add('k', 'x', 30);
    clock.advance(30);
    assert.deepEqual(await waiting, { key: 'k', item: 'x' });
  });

  it('a taken job is no longer pending, so a new one for the key can be queued', async () => {
    const queue = new DelayQueue<string>(new ManualClock());
    queue.add('k', 'one', 0);
    const job = await queue.take();
    assert.equal(job?.item, 'one');
    assert.equal(queue.get('k'), undefined);
    queue.add('k', 'two', 0);
    assert.equal((await queue.take())?.item, 'two');
  });

  it('close wakes waiting workers with undefined', async () => {
    const queue = new DelayQueue<string>(new ManualClock());
    const waiting = queue.take();
    queue.close();
    assert.equal(await waiting, undefined);
  });

  it('hands out no ready job once closed', async () => {
    const queue = new DelayQueue<string>(new ManualClock());
    queue.add('a', 'a', 0);
    queue.add('b', 'b', 0);
    assert.equal(await peekReady(queue), 'a');
    queue.close();
    assert.equal(await queue.take(), undefined);
  });

  it('uses one timer for many delayed items', async () => {
    const clock = new ManualClock();
    const queue = new DelayQueue<number>(clock);
    for (let i = 0; i < 1000; i++) queue.add(`k${i}`, i, 1000 + i);
    assert.equal(clock.pendingTimers, 1);
    clock.advance(5000);
    assert.equal((await drain(queue)).length, 1000);
  });
});
