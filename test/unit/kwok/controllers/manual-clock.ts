/** A clock tests advance by hand. */
import type { Clock } from '../../../../src/kwok/controllers/clock.js';

export class ManualClock implements Clock {
  private current = 1_000_000;
  private timers: { at: number; fn: () => void; live: boolean }[] = [];

  now(): number {
    return this.current;
  }

  setTimer(fn: () => void, delayMs: number): () => void {
    const timer = { at: this.current + Math.max(0, delayMs), fn, live: true };
    this.timers.push(timer);
    return () => {
      timer.live = false;
    };
  }

  get pendingTimers(): number {
    return this.timers.filter((t) => t.live).length;
  }

  /** Move time forward, firing due timers in order. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.live && t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.current = Math.max(this.current, due.at);
      due.live = false;
      due.fn();
    }
    this.current = target;
    this.timers = this.timers.filter((t) => t.live);
  }
}
