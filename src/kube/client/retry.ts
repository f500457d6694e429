/**
 * Retry policy shared by every API call. Mirrors kwok: only transient failures (connection refused
 * or reset, timeouts, 429, 5xx) are retried, with exponential backoff 1s×2^n and 20% jitter.
 * Everything else surfaces at once so the caller can log it and drop the job.
 */
import { KubeApiError } from './api-error.js';

export interface BackoffOptions {
  baseMs: number;
  factor: number;
  /** Fraction of the delay added at random, e.g. 0.2 adds up to 20%. */
  jitter: number;
  capMs: number;
}

export interface RetryOptions extends BackoffOptions {
  /** Attempts after the first one; 0 disables retries. */
  retries: number;
}

export const defaultBackoff: BackoffOptions = { baseMs: 1000, factor: 2, jitter: 0.2, capMs: 32 * 60 * 1000 };
export const defaultRetry: RetryOptions = { ...defaultBackoff, retries: 5 };

const transientCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET']);

export function isRetryable(error: unknown): boolean {
  if (error instanceof KubeApiError) {
    if (error.status === 0) return true;
    return error.status === 429 || error.status >= 500 || error.reason === 'ServerTimeout' || error.reason === 'Timeout';
  }
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && transientCodes.has(code);
}

/** Delay before retry number `attempt` (0-based). `random` is injectable for tests. */
export function backoffDelay(attempt: number, options: BackoffOptions = defaultBackoff, random: () => number = Math.random): number {
  const raw = Math.min(options.capMs, options.baseMs * options.factor ** attempt);
  return Math.min(options.capMs, raw + raw * options.jitter * random());
}

/** Server-requested wait (Retry-After on 429) wins over our own backoff when it is longer. */
export function retryAfterMs(error: unknown): number {
  return error instanceof KubeApiError ? error.retryAfterMs : 0;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export async function withRetry<T>(operation: () => Promise<T>, options: RetryOptions = defaultRetry, signal?: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= options.retries || !isRetryable(error) || signal?.aborted) throw error;
      await sleep(Math.max(backoffDelay(attempt, options), retryAfterMs(error)), signal);
    }
  }
}
