import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRuntime } from '../../../runtimes/load.js';
import { createRuntime } from '../../../runtimes/registry.js';
import { BinaryRuntime } from '../../../runtimes/binary/binary-runtime.js';

test('loadRuntime gives what the registry gives, loading the binary runtime alone', async () => {
  assert.ok((await loadRuntime('binary')) instanceof BinaryRuntime);
  for (const name of ['docker', 'podman', 'nerdctl', 'kind']) assert.deepEqual((await loadRuntime(name)).info(), createRuntime(name).info(), name);
  for (const name of ['bogus', 'lima']) {
    let expected: unknown;
    try {
      createRuntime(name);
    } catch (error) {
      expected = error;
    }
    await assert.rejects(loadRuntime(name), (e: unknown) => e instanceof Error && e.message === (expected as Error).message);
  }
});
