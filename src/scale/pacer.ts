/**
 * How many copies `scale` keeps in flight: created (or being created) but not yet Ready.
 *
 * A creator that sends requests as fast as the apiserver answers them runs ahead of the controller
 * that makes the copies Ready; the copies then wait in a growing backlog, and each one's delay from
 * creation to Ready (what a scheduler or autoscaler under test sees) grows with it. The pacer lets a
 * new copy start only while the backlog is smaller than a window sized by what the cluster made
 * Ready in the last second, so the creator runs at the cluster's pace and the backlog stays at
 * about a second's worth of work.
 *
 * The rules are pure, with an injected clock; `Turns` is where creators wait for them. `scale.ts`
 * feeds them and waits, `readiness.ts` tells them which copies became Ready.
 */

export interface PacerOptions {
  /** The window never shrinks below this, so a slow start (nothing Ready yet) is not serial. */
  minWindow?: number;
  /**
   * The window as a share of the copies made Ready in the last second. Below one, the creator
   * stays a little behind the cluster's pace, which keeps the backlog from creeping up.
   */
  fraction?: number;
  /**
   * With the window full and nothing made Ready for this long, the cluster is not making these
   * copies Ready at all (no controller, pods no scheduler places): stop pacing until one is.
   */
  stallMs?: number;
  now?: () => number;
}

export class Pacer {
  private readonly pending = new Set<string>();
  /** When each of the recent copies became Ready, oldest first. */
  private readonly readyTimes: number[] = [];
  private lastProgress: number;
  private stalled = false;
  private readonly minWindow: number;
  private readonly fraction: number;
  readonly stallMs: number;
  private readonly now: () => number;

  constructor(options: PacerOptions = {}) {
    this.minWindow = options.minWindow ?? 32;
    this.fraction = options.fraction ?? 0.4;
    this.stallMs = options.stallMs ?? 3000;
    this.now = options.now ?? Date.now;
    this.lastProgress = this.now();
  }

  /** Copies created (or being created) and not yet Ready. */
  get backlog(): number {
    return this.pending.size;
  }

  /** True while the pacer has given up waiting (see stallMs). */
  get unpaced(): boolean {
    return this.stalled;
  }

  /** Copies made Ready in the last second. */
  readyLastSecond(): number {
    const since = this.now() - 1000;
    while (this.readyTimes.length > 0 && this.readyTimes[0]! <= since) this.readyTimes.shift();
    return this.readyTimes.length;
  }

  window(): number {
    return Math.max(this.minWindow, Math.floor(this.fraction * this.readyLastSecond()));
  }

  /** Whether one more copy may start now. */
  mayStart(): boolean {
    if (this.stalled) return true;
    if (this.pending.size < this.window()) return true;
    if (this.now() - this.lastProgress >= this.stallMs) {
      this.stalled = true;
      return true;
    }
    return false;
  }

  /** A copy is about to be created. */
  started(name: string): void {
    if (this.pending.size === 0) this.lastProgress = this.now();
    this.pending.add(name);
  }

  /** The copy will never be Ready through us (its create failed). */
  abandoned(name: string): void {
    this.pending.delete(name);
  }

  /** The copy became Ready; copies not started by this scale are ignored. */
  ready(name: string): void {
    if (!this.pending.delete(name)) return;
    const now = this.now();
    this.readyTimes.push(now);
    this.lastProgress = now;
    this.stalled = false;
  }
}

/** Runs `task` on each item, `limit` at a time; the first failure stops taking new items. */
export async function forEachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (!failed && next < items.length) {
        try {
          await task(items[next++]!);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    }),
  );
}

/**
 * Where the creators wait for the pacer: woken by each Ready copy, and every 100 ms so the pacer's
 * clock-based rules (the last second's window, the stall) are seen without a Ready event.
 */
export class Turns {
  private waiters: Array<() => void> = [];

  wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Waits until `take` returns true; `take` checks and takes a place in one synchronous step. */
  async waitFor(take: () => boolean, signal?: AbortSignal): Promise<void> {
    while (!take()) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 100);
        const onAbort = (): void => done();
        function done(): void {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }
        this.waiters.push(done);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
  }
}
