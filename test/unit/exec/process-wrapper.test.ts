import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive } from '../../../src/exec/process.js';

const linux = process.platform === 'linux';

test('a process whose cmdline does not name the expected program is not ours', { skip: !linux && 'needs /proc' }, async () => {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    await new Promise((r) => child.once('spawn', r));
    assert.equal(await isProcessAlive(child.pid!, 'sleep'), true);
    assert.equal(await isProcessAlive(child.pid!, '/opt/some/other-program'), false);
  } finally {
    child.kill('SIGKILL');
  }
});

test('a wrapper script that execs its program is still ours (kwok e2e: --kwok-controller-binary is such a script)', { skip: !linux && 'needs /proc' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-proc-'));
  const wrapper = join(dir, 'kwok');
  writeFileSync(wrapper, '#!/bin/sh\nexec sleep "$@"\n');
  chmodSync(wrapper, 0o755);
  const child = spawn(wrapper, ['30'], { stdio: 'ignore' });
  try {
    await new Promise((r) => child.once('spawn', r));
    // Wait until the shell has exec'd: the cmdline then names sleep, not the wrapper.
    for (let i = 0; i < 200 && !readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').startsWith('sleep'); i++) await new Promise((r) => setTimeout(r, 25));
    assert.doesNotMatch(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8'), /kwok-proc/);
    assert.equal(await isProcessAlive(child.pid!, wrapper), true);
  } finally {
    child.kill('SIGKILL');
  }
});
