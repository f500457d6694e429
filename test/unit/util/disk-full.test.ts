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
