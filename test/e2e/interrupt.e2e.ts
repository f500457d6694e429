/**
 * An interrupted create is rolled back whole (non-zero) or finished whole (exit 0), whatever
 * the moment: SIGINT or SIGTERM is sent when a phase's progress line appears on stderr, at every
 * phase boundary and after "ready". A SIGKILLed create (no rollback possible) leaves nothing a
 * later `delete cluster` cannot find: delete works at once (the lock's holder is dead) and ends
 * every process; a later create of a still-running orphan gives the user the context.
 *
 * Prints a summary table (moment, signal, exit code, outcome) to re-measure with:
 *   npm run build && node --import tsx --test test/e2e/interrupt.e2e.ts
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { kwokts, requireBinaries, sandbox, spawnKwokts, waitFor, type Sandbox, failure } from './harness.js';

/** Processes whose owner marker names this cluster directory (found even without a pid file). */
function markedProcesses(clusterDir: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      if (state !== 'Z' && environ.some((e) => e.startsWith(`KWOKTS_OWNER=${clusterDir}#`))) out.push(Number(entry));
    } catch {
      /* gone or not ours */
    }
  }
  return out;
}

function hasContext(box: Sandbox, name: string): boolean {
  return readFileSync(box.kubeconfig, 'utf8').includes(`name: kwok-${name}\n`);
}

/** Start a create and send `signal` once a stderr line matches `moment`. */
async function interruptAt(box: Sandbox, name: string, moment: RegExp, signal: NodeJS.Signals): Promise<{ exitCode: number; stderr: string; sent: boolean }> {
  const child = spawnKwokts(box, ['--name', name, 'create', 'cluster', '--wait', '5m']);
  let sent = false;
  let buffer = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    if (!sent && buffer.split('\n').some((l) => moment.test(l))) {
      sent = true;
      child.kill(signal);
    }
  });
  const result = await child;
  return { exitCode: result.exitCode ?? -1, stderr: String(result.stderr), sent };
}

const MOMENTS: Array<[string, RegExp]> = [
  ['resolve starts', /^Resolve binaries \.\.\.$/],
  ['resolve done', /^Resolve binaries done/],
  ['write files starts', /^Write cluster files \.\.\.$/],
  ['write files done', /^Write cluster files done/],
  ['start components starts', /^Start .* \.\.\.$/],
  ['start components done', /^Start .* done/],
  ['add context starts', /^Add context .* \.\.\.$/],
  ['add context done', /^Add context .* done/],
  ['after ready', /is ready \(/],
];

describe('interrupted create', { timeout: 1_800_000 }, () => {
  let box: Sandbox;
  const rows: string[] = [];
  before(() => {
    requireBinaries();
    box = sandbox();
  });
  after(() => {
    console.log(['moment                     signal   exit  outcome', ...rows].join('\n'));
    box.cleanup();
  });

  MOMENTS.forEach(([label, moment], i) => {
    const signal: NodeJS.Signals = i % 2 === 0 ? 'SIGINT' : 'SIGTERM';
    test(`${signal} at "${label}": rolled back whole or finished whole`, async () => {
      const name = `hd-int-${i}`;
      const clusterDir = join(box.workdir, 'clusters', name);
      const before = readFileSync(box.kubeconfig, 'utf8');
      const result = await interruptAt(box, name, moment, signal);
      assert.ok(result.sent, `never saw ${moment}:\n${result.stderr}`);
      assert.notEqual(result.exitCode, 70, result.stderr);
      if (result.exitCode === 0) {
        // Finished: the whole cluster and the context.
        rows.push(`${label.padEnd(26)} ${signal.padEnd(8)} ${String(result.exitCode).padEnd(5)} complete`);
        assert.ok(existsSync(join(clusterDir, 'kwok.yaml')), 'exit 0 without a cluster record');
        assert.ok(hasContext(box, name), 'exit 0 without the kubeconfig context');
        const components = await kwokts(box, ['--name', name, 'get', 'components']);
        assert.equal(components.exitCode, 0, failure(components));
        const deleted = await kwokts(box, ['--name', name, 'delete', 'cluster']);
        assert.equal(deleted.exitCode, 0, failure(deleted));
      } else {
        rows.push(`${label.padEnd(26)} ${signal.padEnd(8)} ${String(result.exitCode).padEnd(5)} rolled back`);
        assert.equal(result.exitCode, signal === 'SIGINT' ? 130 : 143, result.stderr);
        assert.equal(existsSync(clusterDir), false, `cluster directory left:\n${result.stderr}`);
        assert.equal(readFileSync(box.kubeconfig, 'utf8'), before, 'kubeconfig changed');
      }
      assert.deepEqual(markedProcesses(clusterDir), [], 'processes left');
    });
  });

  test('SIGKILL while components start: delete works at once and ends every process', async () => {
    const name = 'hd-kill-start';
    const clusterDir = join(box.workdir, 'clusters', name);
    const result = await interruptAt(box, name, /^Start .* \.\.\.$/, 'SIGKILL');
    assert.ok(result.sent);
    // Whatever the SIGKILL left running: the lock's holder is dead, so delete need not wait. The
    // kill may come before any component was spawned; a component spawned just before it appears
    // within moments. A short look, not waitFor: that one waits at least its hang guard, and here
    // nothing appearing is a fine outcome too.
    for (const until = Date.now() + 5_000; Date.now() < until && markedProcesses(clusterDir).length === 0; ) await new Promise((r) => setTimeout(r, 50));
    const deleteStarted = Date.now();
    const deleted = await kwokts(box, ['--name', name, 'delete', 'cluster']);
    rows.push(`${'SIGKILL while starting'.padEnd(26)} SIGKILL  -     delete exit ${deleted.exitCode} in ${((Date.now() - deleteStarted) / 1000).toFixed(1)}s`);
    assert.equal(deleted.exitCode, 0, failure(deleted));
    assert.equal(existsSync(clusterDir), false);
    // Components spawned after delete read the pid files would still carry the marker.
    await waitFor('every marked process to end', () => markedProcesses(clusterDir).length === 0, 30_000);
    assert.equal(hasContext(box, name), false);
  });

  test('SIGKILL before the context is added: a second create leaves the user a context', async () => {
    const name = 'hd-kill-ctx';
    const result = await interruptAt(box, name, /^Start .* done/, 'SIGKILL');
    assert.ok(result.sent);
    const again = await kwokts(box, ['--name', name, 'create', 'cluster', '--wait', '5m']);
    rows.push(`${'SIGKILL before context'.padEnd(26)} SIGKILL  -     re-create exit ${again.exitCode}, context ${hasContext(box, name)}`);
    assert.equal(again.exitCode, 0, failure(again));
    assert.ok(hasContext(box, name), `no context after the second create:\n${again.stderr}`);
    // The user's own kubectl, through the user's kubeconfig and the added context.
    const kubectl = /kubectl: (\S+)/.exec(readFileSync(join(box.workdir, 'clusters', name, 'kwok.yaml'), 'utf8'))?.[1];
    assert.ok(kubectl, 'no kubectl in the cluster record');
    const ns = await execa(kubectl, ['--kubeconfig', box.kubeconfig, '--context', `kwok-${name}`, 'get', 'ns', 'default'], { reject: false });
    assert.equal(ns.exitCode, 0, String(ns.stderr));
    const deleted = await kwokts(box, ['--name', name, 'delete', 'cluster']);
    assert.equal(deleted.exitCode, 0, failure(deleted));
    assert.deepEqual(markedProcesses(join(box.workdir, 'clusters', name)), []);
  });
});
