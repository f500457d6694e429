/** The docker runtime against a dockerd of the tests' own (test/engines/docker.sh). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { containerRuntimeSuite, leftovers } from './container-runtime-scenario.js';
import { kwokts, ROOT, sandbox, failure } from './harness.js';
import { startEngine } from '../engines/start-engine.js';

containerRuntimeSuite('docker');

test("nerdctl's CLI engine, run for real through a nerdctl that is docker's CLI: create, kubectl, stop, start, delete", async () => {
  const under = await startEngine('docker');
  const box = sandbox();
  const name = 'e2e-nerdctl-cli';
  const env = { ...box.env, ...under.env, KWOK_RUNTIME: 'nerdctl', PATH: `${join(ROOT, 'test', 'e2e', 'doubles', 'nerdctl-via-docker')}:${process.env.PATH ?? ''}` };
  const run = (args: string[]) => kwokts({ ...box, env }, ['--name', name, ...args]);
  try {
    const created = await run(['create', 'cluster', '--wait', '2m']);
    assert.equal(created.exitCode, 0, failure(created));
    const ns = await run(['kubectl', 'get', 'ns', 'kube-system', '-o', 'name']);
    assert.equal(ns.stdout.trim(), 'namespace/kube-system');
    const logs = await run(['logs', 'kube-apiserver']);
    assert.equal(logs.exitCode, 0, failure(logs));
    assert.ok(logs.stdout.length > 0);
    assert.equal((await run(['stop', 'cluster'])).exitCode, 0);
    const components = JSON.parse((await run(['get', 'components', '-o', 'json'])).stdout) as Array<{ state: string }>;
    assert.ok(components.every((c) => c.state === 'stopped'));
    const started = await run(['start', 'cluster', '--wait', '2m']);
    assert.equal(started.exitCode, 0, failure(started));
    assert.equal((await run(['delete', 'cluster'])).exitCode, 0);
    assert.deepEqual(await leftovers(under, name), []);
    assert.ok(!existsSync(join(box.workdir, 'clusters', name)));
  } finally {
    await run(['delete', 'cluster']);
    box.cleanup();
  }
});
