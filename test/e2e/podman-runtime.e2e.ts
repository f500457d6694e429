/** The podman runtime against podman's API service of the tests' own (test/engines/podman.sh). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerRuntimeSuite } from './container-runtime-scenario.js';
import { kwokts, sandbox, failure } from './harness.js';
import { podmanEnv } from '../engines/images.js';
import { startEngine } from '../engines/start-engine.js';

containerRuntimeSuite('podman');

test('podman: with nothing listening on its socket, the API service is started on demand and runs the cluster', async () => {
  await startEngine('podman');
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-podman-'));
  const socket = join(dir, 'podman.sock');
  const box = sandbox();
  const env = { ...box.env, ...podmanEnv(), KWOK_RUNTIME: 'podman', CONTAINER_HOST: `unix://${socket}` };
  try {
    const r = await kwokts({ ...box, env }, ['--name', 'on-demand', 'create', 'cluster', '--wait', '2m']);
    assert.equal(r.exitCode, 0, failure(r));
    const ping = await execa('curl', ['-sf', '--unix-socket', socket, 'http://localhost/_ping'], { reject: false });
    assert.equal(ping.stdout, 'OK');
    const ns = await kwokts({ ...box, env }, ['--name', 'on-demand', 'kubectl', 'get', 'ns', 'default', '-o', 'name']);
    assert.equal(ns.stdout.trim(), 'namespace/default');
    assert.equal((await kwokts({ ...box, env }, ['--name', 'on-demand', 'delete', 'cluster'])).exitCode, 0);
  } finally {
    await kwokts({ ...box, env }, ['--name', 'on-demand', 'delete', 'cluster']);
    // The service exits by itself after a minute without requests; end ours now.
    const owner = await execa('fuser', [socket], { reject: false });
    for (const pid of String(owner.stdout).trim().split(/\s+/).filter(Boolean)) process.kill(Number(pid), 'SIGTERM');
    box.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
});
