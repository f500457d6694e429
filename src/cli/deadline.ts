import { TimeoutError } from '../util/errors.js';

/**
 * kwokctl's --timeout: a deadline for the whole command. When it passes, `abort` is aborted like
 * on Ctrl-C (a create rolls back) and the command fails with a TimeoutError (exit 5). Shared by
 * BaseCommand and the fast create, so both say the same.
 */
export function armDeadline(abort: AbortController, ms: number | undefined, command: string, flag = '--timeout'): void {
  if (!ms) return;
  const timer = setTimeout(() => {
    abort.abort(new TimeoutError(`${command} did not finish within ${flag} ${formatMs(ms)}`, { hint: `raise ${flag}, or leave it out to have no overall deadline` }));
  }, ms);
  timer.unref();
}

/** A duration as the user would write it: 1m, 90s, 1500ms. */
function formatMs(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
