/**
 * The controller's first contact with the API server. kwok lists nodes with backoff (1s, x2, 5
 * steps) until the API server answers; the client's own retry policy is that same schedule, so one
 * list call does it. But `create cluster` starts the controller beside a kube-apiserver that is
 * still starting, and the controller serves /healthz (which create waits for) only after this
 * list: with kwok's schedule alone it answered up to 1.2 s (then 2.4 s) after the apiserver did.
 * So, first, a quick client without retries tries every STARTUP_POLL_MS for a while, as long as
 * the failures are the transient kind (refused, reset, 429, 5xx); then kwok's schedule as before,
 * whose error is the one reported.
 */
import { PreflightError } from '../../util/errors.js';
import type { Logger } from '../../util/log.js';
import { isRetryable, nodesResource, sleep, type KubeClient } from '../../kube/index.js';

export const STARTUP_POLL_MS = 100;
export const STARTUP_POLL_WINDOW_MS = 15_000;

export interface QuickPoll {
  /** A client that does not retry on its own (each failed attempt returns at once). */
  client: KubeClient;
  intervalMs?: number;
  windowMs?: number;
}

export async function waitForApiServer(client: KubeClient, logger: Logger, signal: AbortSignal, quick?: QuickPoll): Promise<void> {
  if (quick) {
    const until = Date.now() + (quick.windowMs ?? STARTUP_POLL_WINDOW_MS);
    for (;;) {
      try {
        await quick.client.list(nodesResource, { limit: 1 }, signal);
        logger.debug('API server is reachable');
        return;
      } catch (error) {
        if (signal.aborted) throw error;
        if (!isRetryable(error) || Date.now() >= until) break;
      }
      await sleep(quick.intervalMs ?? STARTUP_POLL_MS, signal);
    }
  }
  try {
    await client.list(nodesResource, { limit: 1 }, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new PreflightError(`cannot reach the API server: ${(error as Error).message}`, { hint: 'check --kubeconfig/--master and that kube-apiserver is running', cause: error });
  }
  logger.debug('API server is reachable');
}
