import type { ComponentName } from '../components/index.js';
import type { Runtime, RuntimeContext } from '../../runtimes/runtime.js';
import { readComponentLog } from './logs.js';
import { outputReason, summarizeOutput } from '../util/output-tail.js';
import { TimeoutError } from '../util/errors.js';
import { describeFreeSpace, freeBytes, LOW_SPACE_BYTES, saysDiskFull } from '../util/disk-full.js';
import type { NotReadyError } from './wait.js';

/*
 * Output tails under errors, in two places only: a component that died (its log, read through
 * the runtime) here; a child command that failed (commandFailed: the tail it keeps, failureOutput:
 * what the CLI prints, also through a wrapping error) in src/util/output-tail.ts, which the
 * executor, the container engines and the Go builds use, as runtimes cannot import src/cluster.
 */

/** The last lines of a component's log, indented, for error messages; empty when unreadable. */
export async function logTail(runtime: Runtime, component: ComponentName, ctx: RuntimeContext, lines = 8): Promise<string> {
  const text = await readComponentLog(runtime, component, ctx);
  return summarizeOutput(text, lines).map((l) => `  ${l}`).join('\n');
}

/**
 * How every "component died" error reads: `message`, the line of the component's log that says
 * why (a panic, else its last error-looking line) on the same line, so the one line names the
 * cause (etcd's "no space left on device", not the apiserver's "context deadline exceeded"), and
 * its last log lines under it. A full disk often takes those last words with it (the log is on
 * it too): the file system's own state is then said on the line. `diskFull`: the hint is to free
 * space.
 */
export async function componentFailure(message: string, runtime: Runtime, component: ComponentName, ctx: RuntimeContext): Promise<{ message: string; reason: string | undefined; diskFull: boolean }> {
  const text = await readComponentLog(runtime, component, ctx);
  const reason = outputReason(text);
  const lines = summarizeOutput(text, 8);
  // A log of one line is all said by the reason.
  const tail = lines.length === 1 && lines[0] === reason ? '' : lines.map((l) => `  ${l}`).join('\n');
  const free = await freeBytes(ctx.paths.root);
  const low = free !== undefined && free < LOW_SPACE_BYTES && !saysDiskFull(reason);
  const disk = low ? `; the file system that holds ${ctx.paths.root} ${describeFreeSpace(free)}` : '';
  return { message: `${message}${reason ? `: ${reason}` : ''}${disk}${tail ? `\nits log ends with:\n${tail}` : ''}`, reason, diskFull: low || saysDiskFull(reason) };
}

/**
 * The line of a component's log that says why it stopped (a panic, or an error among its last
 * lines), or undefined when its log ends without saying (it was killed).
 */
export async function logReason(runtime: Runtime, component: ComponentName, ctx: RuntimeContext): Promise<string | undefined> {
  return outputReason(await readComponentLog(runtime, component, ctx), { recent: 3 });
}

/**
 * A readiness deadline that passed, with the last log lines of each component still not ready:
 * read before a create rolls back, so what the component said is not lost with it.
 */
export async function notReadyFailure(error: NotReadyError, runtime: Runtime, ctx: RuntimeContext, hint: string): Promise<TimeoutError> {
  const tails = await Promise.all(error.pending.map(async (c) => ({ c, tail: await logTail(runtime, c, ctx, 6).catch(() => '') })));
  const told = tails.filter((t) => t.tail).map((t) => `${t.c}'s log ends with:\n${t.tail}`);
  return new TimeoutError([error.message, ...told].join('\n'), { hint, cause: error });
}
