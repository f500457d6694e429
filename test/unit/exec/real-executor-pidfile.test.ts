/**
 * A component whose pid file cannot be written (a full disk, a file in the way) must not be left
 * running: stop, delete and a rollback find components by that file, so it would hold its ports
 * against the next start with nothing to stop it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RealExecutor } from '../../../src/exec/real-executor.js';
import { findProcessesByEnv, OWNER_ENV, terminate } from '../../../src/exec/process.js';
import { silentLogger } from '../../../src/util/log.js';

test('spawnDetached stops the process it started when the pid file cannot be written, and says which file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-pidfile-'));
  const marker = `pidfile-test-${process.pid}-${Date.now()}`;
  try {
    // A file where the pids directory should be: the pid file cannot be made.
    writeFileSync(join(dir, 'pids'), 'in the way');
    const pidFile = join(dir, 'pids', 'sleeper.pid');
    const executor = new RealExecutor(silentLogger);
    await assert.rejects(
      executor.spawnDetached({ command: '/bin/sh', args: ['-c', 'exec sleep 600'], cwd: dir, env: {}, logFile: join(dir, 'sleeper.log'), pidFile, marker }),
      (e: NodeJS.ErrnoException) => typeof e.code === 'string' && typeof e.path === 'string' && e.path.startsWith(join(dir, 'pids')),
    );
    assert.deepEqual(await findProcessesByEnv(OWNER_ENV, marker), [], 'no process is left running without its pid file');
  } finally {
    for (const pid of await findProcessesByEnv(OWNER_ENV, marker)) await terminate(pid, 0);
    rmSync(dir, { recursive: true, force: true });
  }
});
