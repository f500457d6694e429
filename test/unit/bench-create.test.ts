import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { apiserverStartedAt } from '../bench/create.js';

test('apiserverStartedAt reads when the pid file\'s process started (Linux /proc)', { skip: process.platform !== 'linux' }, async () => {
  const workdir = mkdtempSync(join(tmpdir(), 'kwokts-bench-create-'));
  const pids = join(workdir, 'clusters', 'kwok', 'pids');
  mkdirSync(pids, { recursive: true });
  const before = Date.now();
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    await once(child, 'spawn');
    const after = Date.now();
    // No newline, as both tools write it.
    writeFileSync(join(pids, 'kube-apiserver.pid'), String(child.pid));
    const at = apiserverStartedAt(workdir);
    assert.ok(at !== undefined);
    // The kernel stamps the start at fork, between the two readings; /proc counts in 10 ms
    // steps (the start and the uptime both), so allow two steps either side.
    assert.ok(at >= before - 20 && at <= after + 20, `started at ${at}, expected between ${before} and ${after}`);
  } finally {
    child.kill();
    rmSync(workdir, { recursive: true, force: true });
  }
});

test('apiserverStartedAt is undefined without a pid file or a process', () => {
  const workdir = mkdtempSync(join(tmpdir(), 'kwokts-bench-create-'));
  try {
    assert.equal(apiserverStartedAt(workdir), undefined);
    const pids = join(workdir, 'clusters', 'kwok', 'pids');
    mkdirSync(pids, { recursive: true });
    writeFileSync(join(pids, 'kube-apiserver.pid'), '0');
    assert.equal(apiserverStartedAt(workdir), undefined);
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
});
