import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_PLAY_RETRY_DELAY_MS, playRetryDelayMs } from '../../../../src/kwok/controllers/play-backoff.js';

test('failed plays back off from 1 s, doubling, with up to 20 % jitter, capped at 5 minutes', () => {
  assert.deepEqual([0, 1, 2, 3].map((n) => playRetryDelayMs(n, () => 0)), [1000, 2000, 4000, 8000]);
  assert.equal(playRetryDelayMs(2, () => 0.5), 4400);
  assert.equal(playRetryDelayMs(40, () => 0), MAX_PLAY_RETRY_DELAY_MS);
  assert.equal(playRetryDelayMs(4000, () => 0), MAX_PLAY_RETRY_DELAY_MS, 'no overflow to Infinity or NaN');
});
