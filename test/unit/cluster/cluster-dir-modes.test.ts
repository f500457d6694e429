/**
 * The cluster directory's layout is private: no directory in it may be readable by others, even
 * where the root's 0700 already keeps them out (a directory copied or moved out keeps its own mode).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RealExecutor } from '../../../src/exec/real-executor.js';
import { silentLogger } from '../../../src/util/log.js';
import type { ApplyEnv } from '../../../src/cluster/create-steps.js';
import { planFor } from './plan/plan-harness.js';

test('make-directories creates the cluster directory, pids/, logs/ and etcd/ as 0700 whatever the umask', async () => {
  const workdir = mkdtempSync(join(tmpdir(), 'kwokts-modes-'));
  const umask = process.umask(0o022);
  try {
    const plan = await planFor({ runtime: 'binary', workdir, name: 'modes' });
    const step = plan.steps.find((s) => s.id === 'make-directories');
    assert.ok(step, 'the plan has a make-directories step');
    await step.run({ executor: new RealExecutor(silentLogger) } as unknown as ApplyEnv, () => undefined);
    for (const dir of [plan.paths.root, plan.paths.pids, plan.paths.logs, plan.paths.etcdData]) {
      assert.equal((statSync(dir).mode & 0o777).toString(8), '700', dir);
    }
  } finally {
    process.umask(umask);
    rmSync(workdir, { recursive: true, force: true });
  }
});
