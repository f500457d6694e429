import { ExternalCommandError, type KwoktsErrorOptions } from './errors.js';

/**
 * The few lines of a child's output (or a component's log) worth showing under an error. A Go
 * panic's goroutine dump is dropped (its "panic:" line says what happened), and a structured JSON
 * log line (etcd, klog's JSON format) is shown as "level: msg: error".
 */
export function summarizeOutput(text: string, max = 5): string[] {
  const lines = text.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim() !== '');
  const panic = lines.findIndex((l) => /^(panic|fatal error): /.test(l));
  const relevant = panic >= 0 ? lines.slice(0, panic + 1) : lines.filter((l) => !/^goroutine \d+ \[|^\s+\/.*\.go:\d+|^[\w./*()-]+\(.*\)$/.test(l));
  return relevant.slice(-max).map(readableLine);
}

/**
 * The most telling single line: a panic, else the last error-looking line, else the last line.
 * With `recent`, only a panic or an error among the last `recent` lines counts, and nothing else
 * is returned: the log of a process that was killed ends with whatever it was doing, and an error
 * it logged and got over long before is not why it is gone.
 */
export function outputReason(text: string, options: { recent?: number } = {}): string | undefined {
  const lines = summarizeOutput(text, 20);
  const panic = lines.find((l) => /^(panic|fatal error): /.test(l));
  if (panic) return panic;
  const searched = options.recent === undefined ? lines : lines.slice(-options.recent);
  const errorLine = [...searched].reverse().find((l) => /error|failed|fatal|no space|denied|not found|invalid|refused|no such/i.test(l));
  return errorLine ?? (options.recent === undefined ? lines.at(-1) : undefined);
}

function readableLine(line: string): string {
  if (!line.startsWith('{')) return line;
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(line) as Record<string, unknown>;
  } catch {
    // Cut short (a process killed mid-write, or a full disk that took the rest): its first
    // fields are still there to read, in the order zap writes them.
    value = Object.fromEntries(['level', 'msg', 'error'].map((key) => [key, new RegExp(`"${key}":"((?:[^"\\\\]|\\\\.)*)"`).exec(line)?.[1]]));
  }
  const parts = [value.level, value.msg, value.error ?? value.err].filter((p): p is string => typeof p === 'string' && p !== '');
  return parts.length > 0 ? parts.join(': ') : line;
}

/** How many of a failed child's last output lines an error keeps; the CLI shows the telling few (all of them at -v debug). */
export const KEPT_OUTPUT_LINES = 20;

/** The last lines of a child's output, as a failed command's error keeps them. */
export function keptTail(output: string, lines = KEPT_OUTPUT_LINES): string {
  return output.split('\n').slice(-lines).join('\n');
}

/**
 * The one way a child process that failed becomes an error: what ran, why it failed, and the
 * tail of its output, which the CLI prints under the error line.
 */
export function commandFailed(argv: readonly string[], message: string, output: string, options: KwoktsErrorOptions = {}): ExternalCommandError {
  return new ExternalCommandError(message, argv, keptTail(output), options);
}

/** The output of a failed command an error carries, on itself or on the error it wraps. */
export function failureOutput(error: unknown): string {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    // Recognised by shape as well as class: the class may come from another copy of the module.
    const output = (e as { output?: unknown }).output;
    if (typeof output === 'string' && output.trim() !== '') return output;
  }
  return '';
}
