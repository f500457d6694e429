import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectRuntime } from '../../../runtimes/registry.js';
import { PreflightError } from '../../../src/util/errors.js';

// No socket anywhere: docker and podman's APIs cannot answer.
const nothing = { env: { PATH: '/nonexistent' }, uid: 1000, home: '/nonexistent', exists: () => false };

test("options.runtimes: tried in the user's order; binary is always available", async () => {
  assert.equal(await detectRuntime({ detect: nothing, order: ['binary', 'docker'] }), 'binary');
  const skipped: string[] = [];
  assert.equal(await detectRuntime({ detect: nothing, order: ['kind', 'binary'], onSkip: (name) => skipped.push(name) }), 'binary');
  assert.deepEqual(skipped, ['kind']);
});

test('options.runtimes without an available runtime: a preflight error naming them, as kwokctl fails', async () => {
  await assert.rejects(detectRuntime({ detect: nothing, order: ['docker'] }), (e: unknown) => e instanceof PreflightError && e.message === 'none of the runtimes docker (options.runtimes) is available');
});
