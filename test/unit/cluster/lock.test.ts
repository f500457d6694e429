import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquire, holderIsLive, lockCluster } from '../../../src/cluster/lock.js';
import { ConflictError } from '../../../src/util/errors.js';
import { processStartTime } from '../../../src/exec/process.js';

function workdir(): string {
  return mkdtempSync(join(tmpdir(), 'kwokts-lock-'));
}

/** A pid that surely ran and is gone now. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(String(child.stdout));
}

test('a second lock of the same cluster by a live holder is a ConflictError naming its pid', async () => {
  const dir = workdir();
  const release = await lockCluster(dir, 'a');
  await assert.rejects(lockCluster(dir, 'a'), (e: unknown) => e instanceof ConflictError && e.message.includes(`pid ${process.pid}`));
  await release();
  const again = await lockCluster(dir, 'a');
  await again();
});

test('a lock left by a dead process is taken over at once, whatever its age', async () => {
  const dir = workdir();
  mkdirSync(join(dir, 'clusters'), { recursive: true });
  const path = join(dir, 'clusters', '.b.pidlock');
  writeFileSync(path, JSON.stringify({ pid: deadPid(), start: '1', host: hostname() }));
  const release = await lockCluster(dir, 'b');
  assert.equal(JSON.parse(readFileSync(path, 'utf8')).pid, process.pid);
  await release();
  assert.equal(existsSync(path), false);
  assert.deepEqual(readdirSync(join(dir, 'clusters')), [], 'no temp or tomb files left');
});

test('a reused pid (same pid, other start time) does not count as the holder', async () => {
  assert.equal(await holderIsLive({ pid: process.pid, start: 'not-my-start', host: hostname() }), process.platform !== 'linux');
  assert.equal(await holderIsLive({ pid: process.pid, start: (await processStartTime(process.pid)) ?? '', host: hostname() }), true);
  assert.equal(await holderIsLive({ pid: deadPid(), start: '', host: hostname() }), false);
  assert.equal(await holderIsLive({ pid: 1, start: '', host: 'another-host' }), true, 'another host cannot be checked: live');
});

test('two takers of one dead lock: exactly one wins', async () => {
  const dir = workdir();
  const path = join(dir, 'lock');
  const dead = { pid: deadPid(), start: '1', host: hostname() };
  writeFileSync(path, JSON.stringify(dead));
  // Both takers are running processes; only the dead holder is not live.
  const isLive = async (h: { pid: number }): Promise<boolean> => h.pid !== dead.pid;
  const a = { pid: 101, start: 'a', host: hostname() };
  const b = { pid: 102, start: 'b', host: hostname() };
  const results = await Promise.all([acquire(path, a, isLive), acquire(path, b, isLive)]);
  assert.equal(results.filter(Boolean).length, 1, `both or neither won: ${results}`);
  const holder = JSON.parse(readFileSync(path, 'utf8'));
  assert.ok([101, 102].includes(holder.pid));
});
