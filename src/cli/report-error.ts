import { freeSpaceHint, isDiskFull } from '../util/disk-full.js';
import { KwoktsError } from '../util/errors.js';
import { LogLevel } from '../util/log.js';
import { failureOutput, summarizeOutput } from '../util/output-tail.js';
import { namingInvocation } from './invocation.js';

// No oclif import here: the fast path (src/cli/fast-path.ts) reports errors without loading oclif.

/**
 * oclif's parse errors span lines ("Missing 1 required arg:", then one line per missing arg with
 * its description, then a blank line and notes or "See more help with --help"; or "Parsing
 * --flag" with the reason on the next line); the user gets one line that names what is wrong.
 */
export function oneLineParseError(message: string): string {
  const [first = message, ...rest] = message.split('\n').map((l) => l.trim());
  // A flag's own parse function failed: "Parsing --wait", then its message on the next line.
  const parsing = /^Parsing (--\S+)$/.exec(first);
  if (parsing && rest[0]) return `${parsing[1]}: ${rest[0]}`;
  if (!first.endsWith(':')) return first;
  // The list ends at the first blank line (oclif may add a note about multi-value flags after it).
  const end = rest.findIndex((l) => l === '' || /^See more help/i.test(l));
  const names = (end < 0 ? rest : rest.slice(0, end)).map((l) => l.split(/\s{2,}/)[0]);
  return names.length > 0 ? `${first} ${names.join(', ')}` : first;
}

/** How many lines of a failed command's output are shown under the error (all of them at DEBUG). */
const OUTPUT_TAIL_LINES = 5;

/** Errors of the operating system (a read-only or full disk, a missing permission) are not our bugs. */
const SYSTEM_ERRORS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'not a directory',
  EISDIR: 'is a directory',
  ENOENT: 'no such file or directory',
  EEXIST: 'already exists',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'file name too long',
  ELOOP: 'too many symbolic links',
  EIO: 'input/output error',
};

/** Print one error (plus hint) to stderr and return the exit code. Shared with bin/run.cjs. */
export function reportError(error: unknown, logLevel: number = LogLevel.INFO): number {
  const write = (line: string) => process.stderr.write(namingInvocation(line) + '\n');
  if (KwoktsError.is(error)) {
    const [line, ...more] = error.message.split('\n');
    write(`error: ${line}`);
    // Multi-line detail (a component's log tail) goes under the error line, indented.
    for (const l of more) if (l.trim() !== '') write(`  ${l.trim()}`);
    const output = failureOutput(error);
    if (output) {
      const lines = logLevel <= LogLevel.DEBUG ? output.split('\n').filter((l) => l.trim() !== '') : summarizeOutput(output, OUTPUT_TAIL_LINES);
      for (const l of lines) write(`  ${l.trimEnd()}`);
    }
    if (error.hint) write(`hint: ${error.hint}`);
    for (const s of error.suppressed) write(`warning: cleanup also failed: ${(s as Error).message ?? String(s)}`);
    if (logLevel <= LogLevel.DEBUG && error.cause) write(`cause: ${(error.cause as Error).stack ?? String(error.cause)}`);
    return error.exitCode;
  }
  // oclif's ExitError (this.exit(n)), recognised by its code so that oclif need not be loaded.
  if (isOclifExit(error)) return error.oclif.exit ?? 0;
  // oclif's own parse errors (unknown flag, missing arg): user input, exit 2, one line.
  const oclif = (error as { oclif?: { exit?: number } }).oclif;
  if (oclif && error instanceof Error) {
    write(`error: ${oneLineParseError(error.message)}`);
    write('hint: see --help');
    return 2;
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (error instanceof Error && typeof code === 'string' && code in SYSTEM_ERRORS) {
    const path = (error as NodeJS.ErrnoException).path;
    write(`error: ${path ? `${path}: ` : ''}${SYSTEM_ERRORS[code]} (${code})`);
    write(`hint: ${systemHint(code, path)}`);
    if (logLevel <= LogLevel.DEBUG && error.stack) write(error.stack);
    return 1;
  }
  write(`error: unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
  if (error instanceof Error && error.stack) write(error.stack);
  write('hint: this is a bug in kwokts; please report it with the output above');
  return 70;
}

function systemHint(code: string, path: string | undefined): string {
  if (isDiskFull(code)) return path ? freeSpaceHint(path) : 'free some disk space and try again';
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return 'check the permissions of that path, or set KWOK_WORKDIR to a writable directory';
  return 'check that path and try again';
}

function isOclifExit(error: unknown): error is { oclif: { exit?: number } } {
  return error instanceof Error && (error as { code?: unknown }).code === 'EEXIT' && typeof (error as { oclif?: unknown }).oclif === 'object';
}
