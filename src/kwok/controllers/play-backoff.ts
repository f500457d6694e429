/**
 * When a failed stage play is tried again: kwok's backoff (1 s doubling per attempt, up to 20 %
 * jitter), capped at 5 minutes rather than kwok's 32 so that a node whose heartbeat failed is
 * retried well within the heartbeat stages' 10-minute period.
 */
const BASE_MS = 1000;
const FACTOR = 2;
const JITTER = 0.2;
export const MAX_PLAY_RETRY_DELAY_MS = 5 * 60_000;

/** The delay before retry number `attempt` (0 for the first retry); `random` in [0, 1). */
export function playRetryDelayMs(attempt: number, random: () => number = Math.random): number {
  const delay = Math.min(BASE_MS * FACTOR ** Math.max(0, attempt), MAX_PLAY_RETRY_DELAY_MS);
  return delay + delay * JITTER * random();
}
