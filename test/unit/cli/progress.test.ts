import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectProgressMode } from '../../../src/cli/progress.js';

test('progress mode: listr2 only on a terminal that reports its width', () => {
  const table: Array<[string, { isTTY?: boolean; columns?: number }, NodeJS.ProcessEnv, boolean, boolean, string]> = [
    ['a sized terminal', { isTTY: true, columns: 80 }, {}, false, false, 'fancy'],
    ['a terminal without a size (script -c)', { isTTY: true, columns: 0 }, {}, false, false, 'plain'],
    ['a terminal with no columns at all', { isTTY: true }, {}, false, false, 'plain'],
    ['not a terminal', { isTTY: false, columns: 80 }, {}, false, false, 'plain'],
    ['CI', { isTTY: true, columns: 80 }, { CI: 'true' }, false, false, 'plain'],
    ['-q', { isTTY: true, columns: 80 }, {}, true, false, 'none'],
    ['--dry-run', { isTTY: true, columns: 80 }, {}, false, true, 'none'],
  ];
  for (const [title, stream, env, quiet, dryRun, mode] of table) assert.equal(detectProgressMode(quiet, dryRun, stream, env), mode, title);
});

/** A clock the test moves: `advance` runs the ticks that fall due, in order. */
function manualClock(): { now(): number; every(ms: number, tick: () => void): () => void; advance(ms: number): void } {
  let now = 0;
  const timers = new Set<{ ms: number; next: number; tick: () => void }>();
  return {
    now: () => now,
    every(ms, tick) {
      const timer = { ms, next: now + ms, tick };
      timers.add(timer);
      return () => timers.delete(timer);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers].filter((t) => t.next <= end).sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        now = due.next;
        due.next += due.ms;
        due.tick();
      }
      now = end;
    },
  };
}

test('plain progress: a line at least every 15 s while a phase runs, each with the elapsed time', async () => {
  const { plainRunner, formatElapsed } = await import('../../../src/cli/progress.js');
  const clock = manualClock();
  const out: string[] = [];
  let update: (detail: string) => void = () => undefined;
  let finish: () => void = () => undefined;
  const running = plainRunner((text) => out.push(text), clock, { detailGapMs: 5_000, heartbeatMs: 15_000 })([
    {
      title: 'Resolve binaries',
      run: (u) => {
        update = u;
        return new Promise<void>((resolve) => (finish = resolve));
      },
    },
  ]);
  await Promise.resolve();
  assert.deepEqual(out, ['Resolve binaries ...\n']);
  update('building kubernetes v1.36.1: compiling 1/2345 packages (internal/abi)');
  // Details closer together than the gap are not printed, but the latest one is kept.
  clock.advance(1_000);
  update('building kubernetes v1.36.1: compiling 2/2345 packages (internal/goarch)');
  clock.advance(5_000);
  update('building kubernetes v1.36.1: compiling 812/2345 packages (k8s.io/apiserver/pkg/server)');
  assert.deepEqual(out.slice(1), [
    '  [0s] building kubernetes v1.36.1: compiling 1/2345 packages (internal/abi)\n',
    '  [6s] building kubernetes v1.36.1: compiling 812/2345 packages (k8s.io/apiserver/pkg/server)\n',
  ]);
  // Then silence (one package compiling for a minute): the latest detail again every 15 s.
  clock.advance(60_000);
  assert.deepEqual(out.slice(3), [
    '  [21s] building kubernetes v1.36.1: compiling 812/2345 packages (k8s.io/apiserver/pkg/server)\n',
    '  [36s] building kubernetes v1.36.1: compiling 812/2345 packages (k8s.io/apiserver/pkg/server)\n',
    '  [51s] building kubernetes v1.36.1: compiling 812/2345 packages (k8s.io/apiserver/pkg/server)\n',
    '  [1m06s] building kubernetes v1.36.1: compiling 812/2345 packages (k8s.io/apiserver/pkg/server)\n',
  ]);
  finish();
  await running;
  assert.equal(out.at(-1), 'Resolve binaries done (66.0s)\n');
  assert.equal(formatElapsed(3_723_000), '1h02m03s');
});

test('plain progress: a phase with no detail still says it is running', async () => {
  const { plainRunner } = await import('../../../src/cli/progress.js');
  const clock = manualClock();
  const out: string[] = [];
  let finish: () => void = () => undefined;
  const running = plainRunner((text) => out.push(text), clock)([{ title: 'Wait for components', run: () => new Promise<void>((resolve) => (finish = resolve)) }]);
  await Promise.resolve();
  clock.advance(30_000);
  finish();
  await running;
  assert.deepEqual(out, ['Wait for components ...\n', '  [15s] Wait for components: still running\n', '  [30s] Wait for components: still running\n', 'Wait for components done (30.0s)\n']);
});
