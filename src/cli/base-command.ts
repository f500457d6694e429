import { Command, Flags, Errors, type Interfaces } from '@oclif/core';
import { DryRunExecutor } from '../exec/dry-run-executor.js';
import type { Executor } from '../exec/executor.js';
import { RealExecutor } from '../exec/real-executor.js';
import { DEFAULT_CLUSTER_NAME, resolveWorkdir, validateClusterName } from '../naming/naming.js';
import type { LoadedConfig } from '../config/load.js';
import { InterruptedError, KwoktsError, TimeoutError, UsageError } from '../util/errors.js';
import { failureOutput, summarizeOutput } from '../util/output-tail.js';
import { createLogger, LogLevel, parseLogLevel, type Logger } from '../util/log.js';
import { existsSync } from 'node:fs';
import { FlagSyntaxError, normalizeFlags, type FlagShape } from './pflag.js';
import { join } from 'node:path';

export type GlobalFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags'] & T['flags']>;

/**
 * Global flags, logging, the executor and the one place errors become output and exit codes.
 * Commands only parse, call a verb in src/cluster and render its result.
 */
export abstract class BaseCommand<T extends typeof Command> extends Command {
  static override baseFlags = {
    name: Flags.string({ description: 'cluster name', default: DEFAULT_CLUSTER_NAME, helpGroup: 'GLOBAL' }),
    config: Flags.string({ char: 'c', description: 'config file (repeatable or comma-separated; "-" for stdin); $KWOK_WORKDIR/kwok.yaml is read first when it exists', multiple: true, delimiter: ',', default: [], defaultHelp: async () => '~/.kwok/kwok.yaml', helpGroup: 'GLOBAL' }),
    'dry-run': Flags.boolean({ description: 'print the commands that would run and change nothing', default: false, helpGroup: 'GLOBAL' }),
    v: Flags.string({ char: 'v', description: 'log level: DEBUG, INFO, WARN, ERROR (or -4, 0, 4, 8)', default: 'INFO', helpGroup: 'GLOBAL' }),
  };

  protected flags!: GlobalFlags<T>;
  protected args!: Interfaces.InferredArgs<T['args']>;
  /** Every positional argument, for commands that take any number (static strict = false). */
  protected positionals: string[] = [];
  protected logger!: Logger;
  protected logLevel: number = LogLevel.INFO;
  protected workdir!: string;
  protected readonly abort = new AbortController();
  /** Commands for which Ctrl-C is the normal way to end (logs -f) turn the warning off. */
  protected announceInterrupt = true;

  override async init(): Promise<void> {
    await super.init();
    const baseFlags = (super.ctor as typeof BaseCommand).baseFlags;
    const shapes = { ...baseFlags, ...this.ctor.flags } as Record<string, FlagShape>;
    let falseBooleans: string[];
    try {
      ({ argv: this.argv, falseBooleans } = normalizeFlags(this.argv, shapes));
    } catch (error) {
      if (!(error instanceof FlagSyntaxError)) throw error;
      throw new UsageError(error.message, { hint: `see \`${this.config.bin} ${(this.id ?? '').replaceAll(':', ' ')} --help\`` });
    }
    const { flags, args, argv } = await this.parse({
      flags: this.ctor.flags,
      baseFlags,
      args: this.ctor.args,
      strict: this.ctor.strict,
    });
    for (const name of falseBooleans) (flags as Record<string, unknown>)[name] = false;
    this.flags = flags as GlobalFlags<T>;
    this.args = args as Interfaces.InferredArgs<T['args']>;
    this.positionals = argv.map(String);
    const level = parseLogLevel(this.flags.v);
    if (level === undefined) throw new UsageError(`invalid log level ${JSON.stringify(this.flags.v)}`, { hint: 'use DEBUG, INFO, WARN or ERROR' });
    this.logLevel = level;
    this.logger = createLogger(level);
    validateClusterName(this.flags.name);
    this.workdir = resolveWorkdir();
    let received = 0;
    const onSignal = (signal: 'SIGINT' | 'SIGTERM') => () => {
      // Once the verb has committed (a create whose last step is done) there is nothing to undo.
      if (this.settled) return;
      received++;
      if (received === 1) {
        if (this.announceInterrupt) this.logger.warn(`${signal} received, ${this.interruptAction} ...`);
        this.abort.abort(new InterruptedError(signal));
        return;
      }
      // A second signal must not cut a rollback short (that would leave half a cluster behind);
      // a third one ends at once, for a user who accepts that.
      if (received === 2 && this.announceInterrupt) {
        this.logger.warn(`${signal} received again: still ${this.interruptAction}; send it once more to stop at once and leave things as they are`);
        return;
      }
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    // Listeners stay installed (not `once`): a library's exit hook (signal-exit, under
    // proper-lockfile and execa) re-raises the signal and kills us when it finds itself the only
    // listener, which would skip the rollback.
    process.on('SIGINT', onSignal('SIGINT'));
    process.on('SIGTERM', onSignal('SIGTERM'));
  }

  /** What an interrupt does, in the warning it prints ("stopping", "rolling back"). */
  protected interruptAction = 'stopping';
  private settled = false;

  /** The verb has committed: from now on a signal changes nothing and the command completes. */
  protected ignoreInterrupts(): void {
    this.settled = true;
  }

  /**
   * kwokctl's --timeout: a deadline for the whole command. When it passes, the command is aborted
   * like on Ctrl-C (a create rolls back) and fails with a TimeoutError (exit 5).
   */
  protected armTimeout(ms: number | undefined, flag = '--timeout'): void {
    if (!ms) return;
    const timer = setTimeout(() => {
      this.abort.abort(new TimeoutError(`${this.id?.replaceAll(':', ' ') ?? 'the command'} did not finish within ${flag} ${formatMs(ms)}`, { hint: `raise ${flag}, or leave it out to have no overall deadline` }));
    }, ms);
    timer.unref();
  }

  protected executor(): Executor {
    return this.flags['dry-run'] ? new DryRunExecutor() : new RealExecutor(this.logger);
  }

  /** ~/.kwok/kwok.yaml (under $KWOK_WORKDIR) first, then every -c file, as kwokctl does. */
  protected async loadConfig(): Promise<LoadedConfig> {
    const defaultFile = join(this.workdir, 'kwok.yaml');
    const files = [...(existsSync(defaultFile) ? [defaultFile] : []), ...this.flags.config];
    // Loaded on demand: the config loader pulls in YAML and the kwok schemas (half a second on a
    // busy machine), which --help, --version and most commands never need.
    const { loadConfigFiles } = await import('../config/load.js');
    return loadConfigFiles(files, this.logger);
  }

  override async catch(error: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<void> {
    process.exitCode = reportError(error, this.logLevel);
  }
}

/** A duration as the user would write it: 1m, 90s, 1500ms. */
function formatMs(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

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

/** Print one error (plus hint) to stderr and return the exit code. Shared with bin/run.js. */
export function reportError(error: unknown, logLevel: number = LogLevel.INFO): number {
  const write = (line: string) => process.stderr.write(line + '\n');
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
  if (error instanceof Errors.ExitError) return error.oclif.exit ?? 0;
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
    write(`hint: ${systemHint(code)}`);
    if (logLevel <= LogLevel.DEBUG && error.stack) write(error.stack);
    return 1;
  }
  write(`error: unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
  if (error instanceof Error && error.stack) write(error.stack);
  write('hint: this is a bug in kwokts; please report it with the output above');
  return 70;
}


function systemHint(code: string): string {
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'free some disk space (or point KWOK_WORKDIR elsewhere) and try again';
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return 'check the permissions of that path, or set KWOK_WORKDIR to a writable directory';
  return 'check that path and try again';
}
