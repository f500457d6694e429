/**
 * Keyed delay queue for stage jobs. At most one pending job per key (object): adding a job for a key
 * that already has one replaces it, which is how kwok makes "any change to an object restarts its
 * stage delay". A job that a worker has already taken is no longer pending and is not affected.
 *
 * One timer serves the whole queue (the earliest due time), so 10,000 delayed heartbeats cost one
 * heap each, not 10,000 timers. Cancelled entries are dropped lazily when they surface.
 */
import { BinaryHeap } from './binary-heap.js';
import { systemClock } from './clock.js';
import type { Clock } from './clock.js';

interface Entry<T> {
  key: string;
  item: T;
  due: number;
  seq: number;
  live: boolean;
}

export interface QueuedJob<T> {
  key: string;
  item: T;
}

export class DelayQueue<T> {
  private readonly pending = new Map<string, Entry<T>>();
  private readonly delayed = new BinaryHeap<Entry<T>>((a, b) => a.due < b.due || (a.due === b.due && a.seq < b.seq));
  private ready: Entry<T>[] = [];
  private readyHead = 0;
  private readonly waiters: ((job: QueuedJob<T> | undefined) => void)[] = [];
  private seq = 0;
  private timerDue = Infinity;
  private cancelTimer: (() => void) | undefined;
  private closed = false;

  constructor(private readonly clock: Clock = systemClock) {}

  /** Jobs waiting for their delay or for a worker. */
  get size(): number {
    return this.pending.size;
  }

  /** The pending job for `key`, if any (not one a worker already took). */
  get(key: string): T | undefined {
    return this.pending.get(key)?.item;
  }

  /** Queue `item` for `key` after `delayMs`, replacing (cancelling) the key's pending job. */
  add(key: string, item: T, delayMs: number): void {
    if (this.closed) return;
    this.cancel(key);
    const entry: Entry<T> = { key, item, due: this.clock.now() + Math.max(0, delayMs), seq: this.seq++, live: true };
    this.pending.set(key, entry);
    if (delayMs <= 0) this.makeReady(entry);
    else {
      this.delayed.push(entry);
      this.armTimer();
    }
  }

  /** Drop the pending job for `key`. Returns whether there was one. */
  cancel(key: string): boolean {
    const entry = this.pending.get(key);
    if (!entry) return false;
    entry.live = false;
    this.pending.delete(key);
    return true;
  }

  /**
   * Next ready job; waits for one unless `signal` has aborted. Resolves undefined once the queue is
   * closed, even with jobs still ready: a stopping controller must not work through a backlog of
   * writes that each retry, with backoff, against an apiserver that is gone.
   */
  take(signal?: AbortSignal): Promise<QueuedJob<T> | undefined> {
    if (this.closed) return Promise.resolve(undefined);
    const entry = this.shiftReady();
    if (entry) return Promise.resolve(this.claim(entry));
    if (signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter = (job: QueuedJob<T> | undefined): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(job);
      };
      const onAbort = (): void => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        resolve(undefined);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  close(): void {
    this.closed = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    for (const waiter of this.waiters.splice(0)) waiter(undefined);
  }

  private claim(entry: Entry<T>): QueuedJob<T> {
    this.pending.delete(entry.key);
    entry.live = false;
    return { key: entry.key, item: entry.item };
  }

  private makeReady(entry: Entry<T>): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(this.claim(entry));
    else this.ready.push(entry);
  }

  private shiftReady(): Entry<T> | undefined {
    while (this.readyHead < this.ready.length) {
      const entry = this.ready[this.readyHead++]!;
      if (entry.live) {
        this.compactReady();
        return entry;
      }
    }
    this.ready = [];
    this.readyHead = 0;
    return undefined;
  }

  /** Keep the ready array from growing without bound when it is consumed from the front. */
  private compactReady(): void {
    if (this.readyHead > 1024 && this.readyHead * 2 > this.ready.length) {
      this.ready = this.ready.slice(this.readyHead);
      this.readyHead = 0;
    }
  }

  private armTimer(): void {
    let next = this.delayed.peek();
    while (next && !next.live) {
      this.delayed.pop();
      next = this.delayed.peek();
    }
    if (!next) {
      this.cancelTimer?.();
      this.cancelTimer = undefined;
      this.timerDue = Infinity;
      return;
    }
    if (this.cancelTimer && next.due >= this.timerDue) return;
    this.cancelTimer?.();
    this.timerDue = next.due;
    this.cancelTimer = this.clock.setTimer(() => this.onTimer(), next.due - this.clock.now());
  }

  private onTimer(): void {
    this.cancelTimer = undefined;
    this.timerDue = Infinity;
    const now = this.clock.now();
    for (let next = this.delayed.peek(); next && next.due <= now; next = this.delayed.peek()) {
      this.delayed.pop();
      if (next.live) this.makeReady(next);
    }
    this.armTimer();
  }
}
