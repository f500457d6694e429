import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitForApiServer } from '../../../../src/kwok/app/wait-for-apiserver.js';
import { KubeApiError } from '../../../../src/kube/index.js';
import type { KubeClient } from '../../../../src/kube/index.js';
import { PreflightError } from '../../../../src/util/errors.js';
import { createLogger, LogLevel } from '../../../../src/util/log.js';

const logger = createLogger(LogLevel.ERROR, () => {});
const refused = (): Error => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' });

/** A client whose list answers with the next outcome each call (an Error is thrown). */
function scripted(outcomes: Array<Error | 'ok'>): { client: KubeClient; calls: () => number } {
  let calls = 0;
  const client = {
    list: async () => {
      const outcome = outcomes[Math.min(calls, outcomes.length - 1)];
      calls++;
      if (outcome instanceof Error) throw outcome;
      return { items: [], resourceVersion: '1' };
    },
  } as unknown as KubeClient;
  return { client, calls: () => calls };
}

describe('the controller waiting for the API server', () => {
  it('polls quickly while the apiserver refuses or answers 5xx, and needs no backoff retry once it answers', async () => {
    const quick = scripted([refused(), refused(), new KubeApiError('starting', 503, 'ServiceUnavailable'), new KubeApiError('slow', 429, 'TooManyRequests'), 'ok']);
    const regular = scripted([new Error('the backoff path should not be used')]);
    await waitForApiServer(regular.client, logger, new AbortController().signal, { client: quick.client, intervalMs: 1 });
    assert.equal(quick.calls(), 5);
    assert.equal(regular.calls(), 0);
  });

  it("hands an error that is not transient to kwok's backoff path, whose error is reported", async () => {
    const quick = scripted([new KubeApiError('forbidden', 403, 'Forbidden')]);
    const regular = scripted([new KubeApiError('nodes is forbidden', 403, 'Forbidden')]);
    await assert.rejects(waitForApiServer(regular.client, logger, new AbortController().signal, { client: quick.client, intervalMs: 1 }), (e: unknown) => e instanceof PreflightError && /cannot reach the API server: nodes is forbidden/.test(e.message));
    assert.equal(quick.calls(), 1);
    assert.equal(regular.calls(), 1);
  });

  it('after the quick window, or without a quick client, waits as kwok does (one list with the client’s backoff)', async () => {
    const quick = scripted([refused()]);
    const regular = scripted(['ok']);
    await waitForApiServer(regular.client, logger, new AbortController().signal, { client: quick.client, intervalMs: 1, windowMs: 0 });
    assert.equal(quick.calls(), 1);
    assert.equal(regular.calls(), 1);
    const alone = scripted(['ok']);
    await waitForApiServer(alone.client, logger, new AbortController().signal);
    assert.equal(alone.calls(), 1);
  });

  it('stops polling when aborted', async () => {
    const abort = new AbortController();
    const quick = scripted([refused()]);
    const waiting = waitForApiServer(scripted(['ok']).client, logger, abort.signal, { client: quick.client, intervalMs: 5 });
    abort.abort(new Error('stop'));
    // The controller returns quietly on an aborted signal, whatever the error.
    await assert.rejects(waiting);
    const calls = quick.calls();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(quick.calls(), calls);
  });
});
