import { Command, type Interfaces } from '@oclif/core';
import { DryRunExecutor } from '../exec/dry-run-executor.js';
import type { Executor } from '../exec/executor.js';
import { RealExecutor } from '../exec/real-executor.js';
import { DEFAULT_CLUSTER_NAME, resolveWorkdir, validateClusterName } from '../naming/naming.js';
import type { LoadedConfig } from '../config/load.js';
import { UsageError } from '../util/errors.js';
import { LogLevel, parseLogLevel, type Logger } from '../util/log.js';
import { createCliLogger } from './cli-logger.js';
import { FlagSyntaxError, normalizeFlags, type FlagShape } from './pflag.js';
import { reportError } from './report-error.js';
import { GLOBAL_FLAGS } from './command-flags.js';
import { toOclifFlags } from './oclif-flags.js';
import { unknownFlagHint } from './suggest.js';
import { installInterruptHandlers } from './interrupts.js';
import { armDeadline } from './deadline.js';
import { loadCommandConfig } from './command-config.js';

// Kept importable from here, where they lived before the fast path needed them without oclif.
export { oneLineParseError, reportError } from './report-error.js';

export type GlobalFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof BaseCommand)['baseFlags'] & T['flags']>;

/**
 * Global flags, logging, the executor and the one place errors become output and exit codes.
 * Commands only parse, call a verb in src/cluster and render its result.
 */
export abstract class BaseCommand<T extends typeof Command> extends Command {
  static override baseFlags = toOclifFlags(GLOBAL_FLAGS);

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
      const help = `see \`${this.config.bin} ${(this.id ?? '').replaceAll(':', ' ')} --help\``;
      throw new UsageError(error.message, { hint: error.message.startsWith('unknown flag') ? unknownFlagHint(error.flag, shapes, help) : help });
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
    this.logger = createCliLogger(level);
    validateClusterName(this.flags.name);
    this.workdir = resolveWorkdir();
    installInterruptHandlers({
      logger: this.logger,
      abort: this.abort,
      settled: () => this.settled,
      announce: () => this.announceInterrupt,
      action: () => this.interruptAction,
    });
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
    armDeadline(this.abort, ms, this.id?.replaceAll(':', ' ') ?? 'the command', flag);
  }

  protected executor(): Executor {
    return this.flags['dry-run'] ? new DryRunExecutor() : new RealExecutor(this.logger);
  }

  /** ~/.kwok/kwok.yaml (under $KWOK_WORKDIR) first, then every -c file, as kwokctl does. */
  protected async loadConfig(): Promise<LoadedConfig> {
    return loadCommandConfig(this.workdir, this.flags.config, this.logger);
  }

  override async catch(error: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<void> {
    process.exitCode = reportError(error, this.logLevel);
  }
}
