import type { Phase, PhaseRunner } from '../cluster/phases.js';

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
  if (mode === 'plain') return runPlain;
  return async (phases: readonly Phase[]) => {
    // Loaded only for a terminal: plain lines (CI, scripts, logs) do without it.
    const { Listr, ListrLogger, ProcessOutput } = await import('listr2');
    const list = new Listr(
      phases.map((phase) => ({
        title: phase.title,
        task: async (_ctx: unknown, task: { output: string; title: string }) => {
          const started = Date.now();
          await phase.run((detail) => {
            task.output = detail;
          });
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
}

/** One line when a phase starts and one when it ends; progress details throttled to one a second. */
const runPlain: PhaseRunner = async (phases) => {
  for (const phase of phases) {
    const started = Date.now();
    process.stderr.write(`${phase.title} ...\n`);
    let lastDetail = 0;
    await phase.run((detail) => {
      if (Date.now() - lastDetail < 1000) return;
      lastDetail = Date.now();
      process.stderr.write(`  ${detail}\n`);
    });
    process.stderr.write(`${phase.title} done (${((Date.now() - started) / 1000).toFixed(1)}s)\n`);
  }
};
