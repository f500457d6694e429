import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { exitCodeForSignal } from '../../../src/cluster/passthrough.js';

const MODULE = resolve(import.meta.dirname, '..', '..', '..', 'src', 'cluster', 'passthrough.ts');

/** runInherited in a Node process of its own, running `sh -c script`: how that process ends. */
function runInheritedIn(script: string): { status: number | null; signal: NodeJS.Signals | null; stderr: string } {
  const code = `import { runInherited } from ${JSON.stringify(MODULE)};
process.on('SIGINT', () => {}); // as the CLI's own interrupt handling
process.exitCode = await runInherited({ command: '/bin/sh', args: ['-c', ${JSON.stringify(script)}], env: {} });`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { encoding: 'utf8' });
  return { status: r.status, signal: r.signal, stderr: r.stderr };
}

test("the Node passthrough ends as the tool did: its exit code, or the signal that killed it (as bin/kwokts's exec)", () => {
  assert.equal(runInheritedIn('exit 3').status, 3);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGKILL'] as const) {
    const r = runInheritedIn(`kill -${signal.slice(3)} $$`);
    assert.equal(r.signal, signal, r.stderr);
  }
  // SIGPIPE cannot be raised again under Node (it ignores it): the shell's number for it.
  assert.equal(runInheritedIn('kill -PIPE $$').status, 141);
});

test("a signal's exit code is the shell's, 128 + its number", () => {
  assert.equal(exitCodeForSignal('SIGINT'), 130);
  assert.equal(exitCodeForSignal('SIGTERM'), 143);
  assert.equal(exitCodeForSignal(null), 1);
});
