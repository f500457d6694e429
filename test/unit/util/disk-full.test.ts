import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeSpaceHint, isDiskFull } from '../../../src/util/disk-full.js';

test('the free-space hint names the nearest existing directory of the path, quoted for the shell', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts disk '));
  try {
    assert.equal(freeSpaceHint(join(dir, 'clusters', 'c1', 'pids', 'etcd.pid')), `free space on the file system that holds ${dir} (see \`df -h '${dir}'\`), then try again`);
    assert.ok(isDiskFull('ENOSPC') && isDiskFull('EDQUOT') && !isDiskFull('EACCES') && !isDiskFull(undefined));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a program's words for a full disk are recognised, and free space is said in a few words", async () => {
  const { describeFreeSpace, freeBytes, saysDiskFull } = await import('../../../src/util/disk-full.js');
  assert.ok(saysDiskFull('panic: failed to create WAL: no space left on device'));
  assert.ok(saysDiskFull('write /w/db: disk quota exceeded'));
  assert.ok(!saysDiskFull('connection refused') && !saysDiskFull(undefined));
  assert.equal(describeFreeSpace(0), 'is full');
  assert.equal(describeFreeSpace(12 * 1024 + 5), 'has only 12 KiB free');
  assert.equal(describeFreeSpace(50 * 1024 * 1024), 'has only 50 MiB free');
  assert.equal(typeof (await freeBytes(join(tmpdir(), 'no', 'such', 'dir'))), 'number', 'asked of the nearest directory that exists');
});
