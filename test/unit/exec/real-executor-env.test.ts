/**
 * RealExecutor.spawnDetached's environment: the caller's over this process's, the owner marker,
 * and NODE_EXTRA_CA_CERTS deferred for kwokts's own Node programs only (src/util/extra-ca-certs.ts).
 * Real detached processes (/bin/sh) that write what they got into their log file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RealExecutor } from '../../../src/exec/real-executor.js';
import { isProcessAlive } from '../../../src/exec/process.js';
import { silentLogger } from '../../../src/util/log.js';

const SCRIPT = 'echo "ca=${NODE_EXTRA_CA_CERTS+[$NODE_EXTRA_CA_CERTS]} deferred=${KWOKTS_DEFERRED_NODE_EXTRA_CA_CERTS+[$KWOKTS_DEFERRED_NODE_EXTRA_CA_CERTS]} own=$OWN"';

async function spawnAndRead(defers: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-executor-env-'));
  const saved = process.env.NODE_EXTRA_CA_CERTS;
  process.env.NODE_EXTRA_CA_CERTS = '/etc/bundle.pem';
  try {
    const executor = new RealExecutor(silentLogger);
    const pid = await executor.spawnDetached({ command: '/bin/sh', args: ['-c', SCRIPT], cwd: dir, env: { OWN: 'yes' }, logFile: join(dir, 'log'), pidFile: join(dir, 'pid'), ...(defers ? { defersExtraCaCerts: true } : {}) });
    // The process is detached, not our child to wait for: poll until it is gone.
    while (await isProcessAlive(pid)) await new Promise((done) => setTimeout(done, 10));
    return readFileSync(join(dir, 'log'), 'utf8').trim();
  } finally {
    if (saved === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
    else process.env.NODE_EXTRA_CA_CERTS = saved;
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a component marked defersExtraCaCerts gets NODE_EXTRA_CA_CERTS deferred; any other gets it as it is', async () => {
  assert.equal(await spawnAndRead(true), 'ca= deferred=[/etc/bundle.pem] own=yes');
  assert.equal(await spawnAndRead(false), 'ca=[/etc/bundle.pem] deferred= own=yes');
});
