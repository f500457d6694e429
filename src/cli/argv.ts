import { flagTokenCount, type FlagShape } from './pflag.js';
import { suggest, unknownFlagHint } from './suggest.js';
import { UsageError } from '../util/errors.js';

/** Commands whose arguments all belong to another tool (kwokctl disables flag parsing for them). */
export const PASSTHROUGH_COMMANDS = new Set(['kubectl', 'etcdctl', 'kectl', 'kwok', '__complete']);

export interface CommandTable {
  /** The program's name, for messages. */
  bin: string;
  /** Command ids with spaces: `create cluster`. */
  commands: ReadonlySet<string>;
  /** Topics with spaces: `create`, `get`. */
  topics: ReadonlySet<string>;
  /** The flags every command takes (BaseCommand.baseFlags). */
  globals: Readonly<Record<string, FlagShape>>;
}

const HELP_FLAGS = new Set(['--help', '-h']);

/**
 * Put the command id first (`create:cluster`), as oclif wants, wherever the user put kwokctl's global flags:
 * `kwokts --name ci create cluster`, `kwokts create --name ci cluster`. For a passthrough
 * command everything after its word belongs to the tool, so it goes after `--` untouched.
 * `help CMD...` becomes `CMD... --help`. A word that is no command is one UsageError with the
 * closest command as a hint, before oclif (which would exit 127 or, with its not-found plugin,
 * prompt on a terminal) sees it. Flags after the command words are left to BaseCommand.
 */
export function routeArgv(argv: readonly string[], table: CommandTable): string[] {
  const words: string[] = [];
  const moved: string[] = [];
  let help = false;
  let i = 0;
  const complete = () => table.commands.has(words.join(' '));
  while (i < argv.length) {
    const token = argv[i]!;
    if (token === '--') break;
    if (token.startsWith('-') && token !== '-') {
      if (HELP_FLAGS.has(token)) {
        help = true;
        i += 1;
        continue;
      }
      if (token === '--version' && i === 0 && words.length === 0) return [...argv];
      const count = flagTokenCount(argv, i, table.globals);
      if (count === undefined) {
        if (complete()) break;
        const where = words.length > 0 ? words.join(' ') + ' ' : '';
        throw new UsageError(`unknown flag: ${token.split('=')[0]}${words.length > 0 ? ` for "${table.bin} ${words.join(' ')}"` : ''}`, {
          // A typo of a global flag (`--nme`) is told as such; any other flag belongs after the command.
          hint: unknownFlagHint(token, table.globals, `flags other than --name, -c/--config, --dry-run and -v go after the command: see \`${table.bin} ${where}--help\``),
        });
      }
      moved.push(...argv.slice(i, i + count));
      i += count;
      continue;
    }
    if (complete()) break;
    if (words.length === 0 && token === 'help' && !table.commands.has('help')) {
      help = true;
      i += 1;
      continue;
    }
    const candidate = [...words, token].join(' ');
    if (!table.commands.has(candidate) && !table.topics.has(candidate)) throw unknownCommand(words, token, table);
    words.push(token);
    i += 1;
    if (PASSTHROUGH_COMMANDS.has(candidate)) return [words.join(':'), ...moved, '--', ...argv.slice(i)];
  }
  // Nothing but flags: kwokctl prints its help.
  if (words.length === 0) return ['--help'];
  // The id in oclif's own form, so that oclif does not take a positional argument for a command word.
  return [words.join(':'), ...moved, ...(help ? ['--help'] : []), ...argv.slice(i)];
}

function unknownCommand(words: readonly string[], token: string, table: CommandTable): UsageError {
  const prefix = words.join(' ');
  // The names one level below what was typed so far.
  const level = new Set<string>();
  for (const id of [...table.commands, ...table.topics]) {
    const parts = id.split(' ');
    if (parts.length === words.length + 1 && parts.slice(0, words.length).join(' ') === prefix) level.add(parts[words.length]!);
  }
  const typed = [...words, token].join(' ');
  const close = suggest(token, level).map((name) => `"${[...words, name].join(' ')}"`);
  return new UsageError(`unknown command "${typed}"`, {
    hint: close.length > 0 ? `did you mean ${close.join(' or ')}?` : `see \`${table.bin} ${prefix ? prefix + ' ' : ''}--help\` for the commands`,
  });
}
