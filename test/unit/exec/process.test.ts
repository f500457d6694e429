import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findProcessesByEnv, unrunnableReason } from '../../../src/exec/process.js';

test('unrunnableReason: programs pass; garbage, non-executables and directories are named', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-exec-'));
  const write = (name: string, content: string, mode: number): string => {
    writeFileSync(join(dir, name), content);
    chmodSync(join(dir, name), mode);
    return join(dir, name);
  };
  assert.equal(await unrunnableReason(process.execPath), undefined);
  assert.equal(await unrunnableReason(write('script', '#!/bin/sh\nexit 0\n', 0o755)), undefined);
  assert.match((await unrunnableReason(write('garbage', '<html>404</html>', 0o755)))!, /not a program/);
  assert.match((await unrunnableReason(write('noexec', '#!/bin/sh\n', 0o644)))!, /not executable/);
  assert.match((await unrunnableReason(write('empty', '', 0o755)))!, /not a program/);
  assert.match((await unrunnableReason(dir))!, /not a regular file/);
  assert.match((await unrunnableReason(join(dir, 'missing')))!, /does not exist/);
});

test('findProcessesByEnv finds a process by its marker, and only it', { skip: process.platform !== 'linux' }, async () => {
  const marker = `test-${process.pid}-${Date.now()}`;
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { env: { ...process.env, KWOKTS_OWNER: marker }, stdio: 'ignore' });
  try {
    await new Promise((r) => child.once('spawn', r));
    assert.deepEqual(await findProcessesByEnv('KWOKTS_OWNER', marker), [child.pid]);
    assert.deepEqual(await findProcessesByEnv('KWOKTS_OWNER', `${marker}-other`), []);
  } finally {
    child.kill('SIGKILL');
  }
});

test('findProcessesByEnv: callers asking at once share a scan and each gets only its own processes', { skip: process.platform !== 'linux' }, async () => {
  const markers = [1, 2, 3].map((i) => `test-${process.pid}-${Date.now()}-${i}`);
  const children = markers.map((m) => spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { env: { ...process.env, KWOKTS_OWNER: m }, stdio: 'ignore' }));
  try {
    await Promise.all(children.map((c) => new Promise((r) => c.once('spawn', r))));
    const found = await Promise.all([...markers, `${markers[0]}-other`].map((m) => findProcessesByEnv('KWOKTS_OWNER', m)));
    assert.deepEqual(found, [...children.map((c) => [c.pid]), []]);
    // A killed process is not found by a later scan.
    children[0]!.kill('SIGKILL');
    await new Promise((r) => children[0]!.once('exit', r));
    assert.deepEqual(await findProcessesByEnv('KWOKTS_OWNER', markers[0]!), []);
  } finally {
    for (const c of children) c.kill('SIGKILL');
  }
});

test('a zombie still runs while a thread of it is exiting (and holds its sockets); alone, it is gone', async () => {
  const { statSaysRunning } = await import('../../../src/exec/process.js');
  const line = (state: string, threads: number): string => `4242 (kube-apiserver (x)) ${state} 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 ${threads} 0 123 456`;
  assert.equal(statSaysRunning(line('S', 12)), true);
  assert.equal(statSaysRunning(line('Z', 2)), true, 'its last threads still exiting');
  assert.equal(statSaysRunning(line('Z', 1)), false, 'a zombie nobody reaped');
  assert.equal(statSaysRunning(line('X', 1)), false);
});
