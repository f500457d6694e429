/** The podman runtime against podman's API service of the tests' own (test/engines/podman.sh). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerRuntimeSuite } from './container-runtime-scenario.js';
import { kwokts, sandbox } from './harness.js';
import { podmanEnv } from '../engines/images.js';
import { startEngine } from '../engines/start-engine.js';

containerRuntimeSuite('podman');

test('podman: with nothing listening on its socket, the API service is started on demand', async () => {
  await startEngine('podman');
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-podman-'));
  const socket = join(dir, 'podman.sock');
  const box = sandbox();
  try {
    const env = { ...box.env, ...podmanEnv(), KWOK_RUNTIME: 'podman', CONTAINER_HOST: `unix://${socket}` };
    const r = await kwokts({ ...box, env }, ['--name', 'on-demand', 'create', 'cluster', '--dry-run']);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stdout, /^podman create --name=kwok-on-demand-etcd /m);
    // The engine was reached (the images made for the tests are there, so nothing is pulled).
    assert.doesNotMatch(r.stdout, /^podman pull /m);
    const ping = await execa('curl', ['-sf', '--unix-socket', socket, 'http://localhost/_ping'], { reject: false });
    assert.equal(ping.stdout, 'OK');
  } finally {
    // The service exits by itself after a minute without requests; end ours now.
    const owner = await execa('fuser', [socket], { reject: false });
    for (const pid of String(owner.stdout).trim().split(/\s+/).filter(Boolean)) process.kill(Number(pid), 'SIGTERM');
    box.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
});
