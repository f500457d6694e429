import { BaseCommand } from './base-command.js';

/**
 * A command whose arguments all belong to another tool. bin/run.cjs puts them after `--`, so
 * oclif parses only our global flags and leaves the tool's arguments untouched.
 */
export abstract class PassthroughCommand extends BaseCommand<typeof PassthroughCommand> {
  static override strict = false;
  // Ctrl-C ends the tool, and us with it, silently: as running the tool itself (or bin/kwokts's exec of it).
  protected override announceInterrupt = false;

  protected toolArgs(): string[] {
    const i = this.argv.indexOf('--');
    return i === -1 ? [] : this.argv.slice(i + 1);
  }
}
