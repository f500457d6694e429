/** Time as the controllers see it; tests drive a manual clock instead of waiting. */
export interface Clock {
  now(): number;
  /** Schedules `fn`; the returned function cancels it. */
  setTimer(fn: () => void, delayMs: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn, delayMs) {
    const timer = setTimeout(fn, Math.max(0, delayMs));
    return () => clearTimeout(timer);
  },
};
