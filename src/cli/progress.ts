import type { Phase, PhaseRunner } from '../cluster/phases.js';
import { divertLogLines } from '../util/log.js';

export type ProgressMode = 'fancy' | 'plain' | 'none';

/**
 * listr2 on a terminal, plain lines in CI and logs, nothing under dry-run or -q. A terminal that
 * reports no width (a pty without a size, as under `script -c` or some CI runners) gets plain
 * lines too: listr2 wraps at the width it is told, and at 0 it prints one character a line.
 */
export function detectProgressMode(quiet: boolean, dryRun: boolean, stream: { isTTY?: boolean; columns?: number } = process.stderr, env: NodeJS.ProcessEnv = process.env): ProgressMode {
  if (quiet || dryRun) return 'none';
  const sized = typeof stream.columns === 'number' && stream.columns > 0;
  return stream.isTTY && sized && !env.CI ? 'fancy' : 'plain';
}

export function phaseRunner(mode: ProgressMode): PhaseRunner {
  if (mode === 'none') return async (phases) => { for (const p of phases) await p.run(() => undefined); };
  if (mode === 'plain') return plainRunner();
  return runFancy;
}

const runFancy: PhaseRunner = async (phases: readonly Phase[]) => {
  // Loaded only for a terminal: plain lines (CI, scripts, logs) do without it.
  const { Listr, ListrLogger, ProcessOutput } = await import('listr2');
  const list = new Listr(
    phases.map((phase) => ({
      title: phase.title,
      task: async (_ctx: unknown, task: { output: string; title: string }) => {
        const started = Date.now();
        // listr2 holds stderr until it ends: log lines (why a build starts, what it costs) are
        // shown under the phase while it runs, above its latest detail, and printed after the
        // display as before.
        const notices: string[] = [];
        let detail = '';
        const show = (): void => {
          task.output = [...notices, detail].filter((l) => l !== '').join('\n');
        };
        divertLogLines((line) => {
          notices.push(line);
          show();
          process.stderr.write(line + '\n');
        });
        try {
          await phase.run((update) => {
            detail = update;
            show();
          });
        } finally {
          divertLogLines(undefined);
        }
        task.title = `${phase.title} (${((Date.now() - started) / 1000).toFixed(1)}s)`;
      },
    })),
    {
      renderer: 'default',
      registerSignalListeners: false,
      exitOnError: true,
      // Progress belongs on stderr: stdout carries results only.
      rendererOptions: { collapseSubtasks: false, logger: new ListrLogger({ processOutput: new ProcessOutput(process.stderr, process.stderr) }) },
    },
  );
  await list.run();
};

/** The clock of the plain lines; tests drive it by hand. */
export interface PlainClock {
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

const REAL_CLOCK: PlainClock = {
  now: () => Date.now(),
  every: (ms, tick) => {
    const timer = setInterval(tick, ms);
    // A heartbeat never keeps the process alive.
    timer.unref();
    return () => clearInterval(timer);
  },
};

export interface PlainTiming {
  /** At most one detail line this often: a Go build reports every package it compiles. */
  detailGapMs: number;
  /** At least one line this often while a phase runs, so a log shows the command is alive. */
  heartbeatMs: number;
}

export const PLAIN_TIMING: PlainTiming = { detailGapMs: 5_000, heartbeatMs: 15_000 };

/**
 * Plain lines (CI, logs, pipes): one when a phase starts and one when it ends; between them its
 * details, at most one every `detailGapMs`, each with the phase's elapsed time, and at least one
 * every `heartbeatMs` (the latest detail again, with the time advanced): a long build that prints
 * nothing looks hung.
 */
export function plainRunner(write: (text: string) => void = (text) => process.stderr.write(text), clock: PlainClock = REAL_CLOCK, timing: PlainTiming = PLAIN_TIMING): PhaseRunner {
  return async (phases) => {
    for (const phase of phases) {
      const started = clock.now();
      write(`${phase.title} ...\n`);
      let latest = '';
      let lastLine = started;
      let lastDetail = Number.NEGATIVE_INFINITY;
      const print = (detail: string): void => {
        lastLine = clock.now();
        write(`  [${formatElapsed(lastLine - started)}] ${detail}\n`);
      };
      const stop = clock.every(Math.min(1_000, timing.heartbeatMs), () => {
        if (clock.now() - lastLine >= timing.heartbeatMs) print(latest === '' ? `${phase.title}: still running` : latest);
      });
      try {
        await phase.run((detail) => {
          latest = detail;
          if (clock.now() - lastDetail < timing.detailGapMs) return;
          lastDetail = clock.now();
          print(detail);
        });
      } finally {
        stop();
      }
      write(`${phase.title} done (${((clock.now() - started) / 1000).toFixed(1)}s)\n`);
    }
  };
}

/** `45s`, `13m05s`, `1h02m03s`. */
export function formatElapsed(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number): string => String(n).padStart(2, '0');
  if (h > 0) return `${h}h${two(m)}m${two(s)}s`;
  if (m > 0) return `${m}m${two(s)}s`;
  return `${s}s`;
}
