/**
 * A start-up trace for finding where a command's seconds go: with KWOKTS_TIMELINE=1 every mark is
 * one stderr line, `[timeline +1.234s cpu 0.456s] what`: the time counted from this process's own
 * start (so Node's start-up and module loading show up as the first mark's offset) and the CPU
 * this process has used so far (user + system; not its children's), which on a busy machine says
 * more about our own cost than the clock. Off, a mark costs one boolean test. Diagnostics only:
 * nothing may depend on these lines. Node's global `performance`, not an import of node:perf_hooks:
 * a mark that is off must not load it (nine internal modules) into every command.
 */
let enabled = process.env.KWOKTS_TIMELINE === '1';
let sink: (line: string) => void = (line) => process.stderr.write(line);

export function timelineEnabled(): boolean {
  return enabled;
}

export function mark(event: string): void {
  if (!enabled) return;
  const cpu = process.cpuUsage();
  sink(`[timeline +${(performance.now() / 1000).toFixed(3)}s cpu ${((cpu.user + cpu.system) / 1e6).toFixed(3)}s] ${event}\n`);
}

/** Marks the start and end of `work` (and how long it took). */
export async function span<T>(event: string, work: () => Promise<T>): Promise<T> {
  if (!enabled) return work();
  const started = performance.now();
  mark(`${event} ...`);
  try {
    return await work();
  } finally {
    mark(`${event} done (${((performance.now() - started) / 1000).toFixed(3)}s)`);
  }
}

/** For tests: turn the trace on or off and catch its lines. */
export function setTimeline(on: boolean, write?: (line: string) => void): void {
  enabled = on;
  if (write) sink = write;
}
