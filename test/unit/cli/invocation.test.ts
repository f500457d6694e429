import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invocationCommand, namingInvocation } from '../../../src/cli/invocation.js';

/** A package checkout with bin/kwokts, and a PATH directory that may hold a kwokts. */
function layout(): { dir: string; pkg: string; pathDir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-invocation-'));
  const pkg = join(dir, 'pkg');
  mkdirSync(join(pkg, 'bin'), { recursive: true });
  writeFileSync(join(pkg, 'bin', 'kwokts'), '#!/bin/sh\n');
  chmodSync(join(pkg, 'bin', 'kwokts'), 0o755);
  const pathDir = join(dir, 'path');
  mkdirSync(pathDir);
  return { dir, pkg, pathDir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

test('the closing hint names the command the user ran, not a kwokts that is not on PATH', () => {
  const l = layout();
  try {
    const base = { execArgv: [], cwd: l.pkg, path: l.pathDir };
    // Node run by hand: node and the script, relative to where the user is.
    assert.equal(invocationCommand({ ...base, script: join(l.pkg, 'bin', 'run.cjs') }), 'node bin/run.cjs');
    assert.equal(invocationCommand({ ...base, cwd: l.dir, script: join(l.pkg, 'bin', 'run.cjs') }), 'node pkg/bin/run.cjs');
    // Outside the checkout the path stays absolute; Node's own options (bin/dev.js) come along.
    const elsewhere = join(l.dir, 'path');
    assert.equal(invocationCommand({ ...base, cwd: elsewhere, execArgv: ['--import', 'tsx'], script: join(l.pkg, 'bin', 'dev.js') }), `node --import tsx ${join(l.pkg, 'bin', 'dev.js')}`);
    // The launcher, typed as a path, with no kwokts on PATH: that path.
    assert.equal(invocationCommand({ ...base, invokedAs: './bin/kwokts' }), './bin/kwokts');
    assert.equal(invocationCommand({ ...base, invokedAs: join(l.pkg, 'bin', 'kwokts') }), join(l.pkg, 'bin', 'kwokts'));
    // The same program on PATH (npm's symlink): its name.
    symlinkSync(join(l.pkg, 'bin', 'kwokts'), join(l.pathDir, 'kwokts'));
    assert.equal(invocationCommand({ ...base, invokedAs: join(l.pathDir, 'kwokts') }), 'kwokts');
    assert.equal(invocationCommand({ ...base, invokedAs: './bin/kwokts' }), 'kwokts');
    assert.equal(invocationCommand({ ...base, invokedAs: 'kwokts' }), 'kwokts');
    // Another kwokts on PATH: the one typed.
    rmSync(join(l.pathDir, 'kwokts'));
    writeFileSync(join(l.pathDir, 'kwokts'), '#!/bin/sh\n');
    chmodSync(join(l.pathDir, 'kwokts'), 0o755);
    assert.equal(invocationCommand({ ...base, invokedAs: './bin/kwokts' }), './bin/kwokts');
    // Paths with spaces come quoted, ready to paste.
    assert.equal(invocationCommand({ ...base, cwd: '/srv', script: '/opt/my tools/bin/run.cjs' }), "node '/opt/my tools/bin/run.cjs'");
  } finally {
    l.cleanup();
  }
});

test('hints and warnings name commands as the user ran kwokts, and leave other mentions of kwokts alone', () => {
  const asRun = () => 'node bin/run.cjs';
  assert.equal(
    namingInvocation('hint: read its log with `kwokts --name a logs etcd`, then start it again with `kwokts --name a start cluster`', asRun),
    'hint: read its log with `node bin/run.cjs --name a logs etcd`, then start it again with `node bin/run.cjs --name a start cluster`',
  );
  assert.equal(namingInvocation('hint: run `sudo kwokts artifacts build kind-node-image` once', asRun), 'hint: run `sudo node bin/run.cjs artifacts build kind-node-image` once');
  assert.equal(namingInvocation('hint: `kwokts` alone lists the commands', asRun), 'hint: `node bin/run.cjs` alone lists the commands');
  // Prose, a file name and another program's command stay as they are.
  for (const text of ['this is a kwokts bug; please report it', 'if no other kwokts is running, remove x.lock', '`kwokts-passthrough 1`', '`kubectl get ns`']) {
    assert.equal(namingInvocation(text, asRun), text);
  }
  // Nothing to name: the invocation is not even worked out.
  assert.equal(
    namingInvocation('no command here', () => {
      throw new Error('worked out');
    }),
    'no command here',
  );
});
