/**
 * RealExecutor.kill without a grace period, as a delete stops a cluster: every component's
 * process and every process carrying its marker goes, and the kills started together read the
 * list of processes (/proc) once between them, not once per component.
 */
import assert from 'node:assert/strict';
import { test, mock } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';
import fs, { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RealExecutor } from '../../../src/exec/real-executor.js';
import { OWNER_ENV } from '../../../src/exec/process.js';
import { silentLogger } from '../../../src/util/log.js';

function sleeper(marker: string): ChildProcess {
  // detached: a group leader of its own, as components are started.
  return spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { env: { ...process.env, [OWNER_ENV]: marker }, stdio: 'ignore', detached: true });
}

test('kills started together (no grace) stop every named and marked process and list /proc once', { skip: process.platform !== 'linux' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-kill-'));
  const tag = `test-${process.pid}-${Date.now()}`;
  // Two components with pid files; the first also has a process its pid file does not name.
  const named = [sleeper(`${tag}-a`), sleeper(`${tag}-b`)];
  const unnamed = sleeper(`${tag}-a`);
  const all = [...named, unnamed];
  const exits = all.map((child) => once(child, 'exit'));
  const listings = mock.fn();
  const realReaddirSync = fs.readdirSync;
  mock.method(fs, 'readdirSync', (...args: Parameters<typeof fs.readdirSync>) => {
    if (args[0] === '/proc') listings();
    return realReaddirSync(...args);
  });
  syncBuiltinESMExports();
  try {
    await Promise.all(all.map((child) => once(child, 'spawn')));
    const pidFiles = named.map((child, i) => {
      const file = join(dir, `c${i}.pid`);
      writeFileSync(file, String(child.pid));
      return file;
    });
    const executor = new RealExecutor(silentLogger);
    await Promise.all(pidFiles.map((pidFile, i) => executor.kill({ pidFile, graceMs: 0, marker: `${tag}-${'ab'[i]}`, expectedCommand: process.execPath })));
    // Each child's exit is observed, not waited for by the clock: a survivor hangs the test.
    const signals = (await Promise.all(exits)).map(([, signal]) => signal);
    assert.deepEqual(signals, ['SIGKILL', 'SIGKILL', 'SIGKILL']);
    assert.equal(listings.mock.callCount(), 1);
    for (const file of pidFiles) assert.equal(existsSync(file), false);
  } finally {
    mock.restoreAll();
    syncBuiltinESMExports();
    for (const child of all) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('killMarked stops the processes of one marker, or of every marker with a prefix, and no others', { skip: process.platform !== 'linux' }, async () => {
  const tag = `test-${process.pid}-${Date.now()}-mark`;
  const a = sleeper(`${tag}#etcd`);
  const b = sleeper(`${tag}#etcd2`);
  const other = sleeper(`${tag}-other#etcd`);
  const all = [a, b, other];
  try {
    await Promise.all(all.map((child) => once(child, 'spawn')));
    const executor = new RealExecutor(silentLogger);
    const exitA = once(a, 'exit');
    assert.deepEqual(await executor.killMarked({ marker: `${tag}#etcd` }), [a.pid]);
    await exitA;
    const exitB = once(b, 'exit');
    assert.deepEqual(await executor.killMarked({ markerPrefix: `${tag}#` }), [b.pid]);
    await exitB;
    assert.equal(other.exitCode, null);
    assert.equal(other.signalCode, null, 'a marker outside the prefix is left alone');
  } finally {
    for (const child of all) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

test('spawnDetached first stops a process still carrying its marker (an orphan without its pid file)', { skip: process.platform !== 'linux' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-orphan-'));
  const marker = `test-${process.pid}-${Date.now()}-orphan`;
  const orphan = sleeper(marker);
  try {
    await once(orphan, 'spawn');
    const gone = once(orphan, 'exit');
    const executor = new RealExecutor(silentLogger);
    const pid = await executor.spawnDetached({ command: process.execPath, args: ['-e', 'setTimeout(() => {}, 60000)'], cwd: dir, logFile: join(dir, 'c.log'), pidFile: join(dir, 'c.pid'), marker });
    assert.deepEqual(await gone, [null, 'SIGKILL']);
    process.kill(pid, 'SIGKILL');
  } finally {
    if (orphan.exitCode === null && orphan.signalCode === null) orphan.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
