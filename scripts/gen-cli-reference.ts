/**
 * docs/reference/cli.md, written from the command classes themselves (src/commands), so that it
 * cannot say other than the code: every command, argument and flag, with the default and the
 * variable each flag's definition gives. No build is needed (tsx runs the sources):
 *
 *   npm run docs:reference                                    # rewrite docs/reference/cli.md
 *   node --import tsx scripts/gen-cli-reference.ts --check    # exit 1 when it is stale
 *
 * test/unit/docs.test.ts fails when the file and the command classes disagree.
 *
 * Where a value comes from: a flag's `default` (or its `defaultHelp`, what --help shows); for the
 * `create cluster` options, which have no oclif default (an unset flag must not override a
 * variable or a config file), the default and variable of their row in src/config/options.ts.
 * `kwokts kwok` passes its arguments to the controller, whose flags are src/kwok/app/options.ts's.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '..');
export const CLI_REFERENCE = 'docs/reference/cli.md';
const COMMANDS_DIR = join(ROOT, 'src', 'commands');

/** The parts of an oclif flag or argument definition the reference shows. */
interface FlagDef {
  type?: string;
  char?: string;
  description?: string;
  summary?: string;
  default?: unknown;
  defaultHelp?: unknown;
  helpValue?: string | string[];
  options?: readonly string[];
  multiple?: boolean;
  delimiter?: string;
  allowNo?: boolean;
  hidden?: boolean;
  env?: string;
  required?: boolean;
}

interface CommandClass {
  summary?: string;
  description?: string;
  hidden?: boolean;
  strict?: boolean;
  examples?: Array<string | { command: string; description?: string }>;
  flags?: Record<string, FlagDef>;
  baseFlags?: Record<string, FlagDef>;
  args?: Record<string, FlagDef>;
}

interface Command {
  id: string;
  cls: CommandClass;
}

interface OptionRow {
  key: string;
  flag?: string;
  env?: string;
  type: string;
  default: unknown;
}

interface KwokFlagRow {
  name: string;
  short?: string;
  kind: string;
  help: string;
  hidden?: boolean;
}

/** Every file under src/commands, as its command id (`create cluster`), sorted. */
function commandFiles(dir = COMMANDS_DIR): Array<{ id: string; file: string }> {
  const out: Array<{ id: string; file: string }> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...commandFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      out.push({ id: relative(COMMANDS_DIR, path).slice(0, -'.ts'.length).split(sep).join(' '), file: path });
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

async function loadCommands(): Promise<Command[]> {
  const commands: Command[] = [];
  for (const { id, file } of commandFiles()) {
    const mod = (await import(pathToFileURL(file).href)) as { default?: CommandClass };
    if (!mod.default) throw new Error(`${relative(ROOT, file)} has no default export`);
    if (mod.default.hidden) continue;
    commands.push({ id, cls: mod.default });
  }
  return commands;
}

/** Table cells: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').trim();
}

function code(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

/** What the definition says the default is, as text; '' when it says none. */
async function defaultOf(flag: FlagDef, option: OptionRow | undefined, optionDefaults: ReadonlyMap<string, string>): Promise<string> {
  // An option flag: what create uses when nothing sets it, as its --help shows (src/cluster/option-defaults.ts).
  if (option?.flag !== undefined && optionDefaults.has(option.flag)) return optionDefaults.get(option.flag)!;
  if (typeof flag.defaultHelp === 'function') {
    const shown = await (flag.defaultHelp as (ctx: unknown) => Promise<unknown>)({ options: flag, flags: {} });
    if (shown !== undefined && shown !== '') return String(shown);
  } else if (flag.defaultHelp !== undefined) return String(flag.defaultHelp);
  let value = flag.default;
  if (typeof value === 'function') value = await (value as (ctx: unknown) => Promise<unknown>)({ options: flag, flags: {} });
  if (value === undefined && option) value = option.default;
  if (value === undefined || value === '') return '';
  if (Array.isArray(value)) return value.length === 0 ? '' : value.join(',');
  return String(value);
}

/** The flag's variable: its own `env`, else its option row's. */
function envOf(flag: FlagDef, option: OptionRow | undefined): string {
  return flag.env ?? option?.env ?? '';
}

function spelling(name: string, flag: FlagDef): string {
  const long = flag.type === 'boolean' && flag.allowNo ? `--[no-]${name}` : `--${name}`;
  const value = flag.type === 'boolean' ? '' : ` ${typeof flag.helpValue === 'string' ? flag.helpValue : 'VALUE'}`;
  return (flag.char ? `-${flag.char}, ` : '') + long + value;
}

function describe(flag: FlagDef): string {
  // The variable has a column of its own.
  const text = (flag.summary ?? flag.description ?? '').replace(/\s*\[env: [^\]]*\]/g, '');
  const parts = [text];
  if (flag.options?.length) parts.push(`(one of: ${flag.options.join(', ')})`);
  if (flag.multiple && !/repeatable/i.test(text)) parts.push(flag.delimiter === ',' ? '(repeatable, or comma-separated)' : '(repeatable)');
  if (flag.hidden) parts.push('(hidden from --help)');
  return parts.filter((p) => p !== '').join(' ');
}

async function flagTable(flags: Record<string, FlagDef>, options: ReadonlyMap<string, OptionRow>, optionDefaults: ReadonlyMap<string, string> = new Map()): Promise<string[]> {
  const rows = ['| flag | default | variable | meaning |', '|---|---|---|---|'];
  const names = Object.keys(flags).sort();
  for (const name of names) {
    const flag = flags[name]!;
    const option = options.get(name);
    const shown = await defaultOf(flag, option, optionDefaults);
    const env = envOf(flag, option);
    rows.push(`| ${code(spelling(name, flag))} | ${shown === '' ? '' : code(shown)} | ${env === '' ? '' : code(env)} | ${cell(describe(flag))} |`);
  }
  return rows;
}

function usage(command: Command): string {
  const args = Object.entries(command.cls.args ?? {}).map(([name, arg]) => (arg.required ? name.toUpperCase() : `[${name.toUpperCase()}]`));
  const rest = command.cls.strict === false ? ['[ARGS...]'] : [];
  return ['kwokts', command.id, ...args, '[FLAGS]', ...rest].join(' ');
}

function examples(command: Command): string[] {
  return (command.cls.examples ?? []).map((e) => (typeof e === 'string' ? e : e.command).replaceAll('<%= config.bin %>', 'kwokts'));
}

function anchor(id: string): string {
  return id.replaceAll(' ', '-');
}

export async function renderCliReference(): Promise<string> {
  const { OPTION_SPECS } = (await import('../src/config/options.js')) as { OPTION_SPECS: readonly OptionRow[] };
  const { kwokFlags } = (await import('../src/kwok/app/options.js')) as { kwokFlags: readonly KwokFlagRow[] };
  const { BaseCommand } = (await import('../src/cli/base-command.js')) as unknown as { BaseCommand: CommandClass };
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { oclif: { topics: Record<string, { description: string }> } };
  const options = new Map(OPTION_SPECS.filter((o) => o.flag).map((o) => [o.flag!, o]));
  // Nothing of this machine's: no config file, no variable, the download URLs of linux/amd64.
  const { optionFlagDefaults } = await import('../src/cluster/option-defaults.js');
  const { resolveOptionValues } = await import('../src/config/resolve.js');
  const optionDefaults = optionFlagDefaults(resolveOptionValues({}, {}, {}), '~/.kwok', { os: 'linux', arch: 'amd64' });
  const commands = await loadCommands();
  const globalFlags = BaseCommand.baseFlags ?? {};

  const out: string[] = [
    '# Command reference',
    '',
    '<!-- Generated by scripts/gen-cli-reference.ts from src/commands; do not edit by hand: run `npm run docs:reference`. -->',
    '',
    'Every command of `kwokts`, its arguments and its flags, as the command definitions in `src/commands` declare them.',
    'The command-line grammar (Go pflag spellings, `--no-FLAG`, repeated flags) is described in',
    '[the command line](../user/command-line.md). A variable is read when its flag is not given. The',
    'defaults of the cluster options are those of a machine with no config file and no `KWOK_*`',
    'variable, on linux/amd64; `--help` shows them as resolved on yours (as `config view` resolves them).',
    '',
    '## Global flags',
    '',
    'Accepted by every command, before, between or after the command words.',
    '',
    ...(await flagTable(globalFlags, new Map())),
    '',
    '## Commands',
    '',
    '| command | what it does |',
    '|---|---|',
    ...commands.map((c) => `| [\`kwokts ${c.id}\`](#${anchor(c.id)}) | ${cell(c.cls.summary ?? '')} |`),
    '',
  ];

  let topic = '';
  for (const command of commands) {
    const [first] = command.id.split(' ');
    if (command.id.includes(' ') && first !== topic) {
      topic = first!;
      const description = pkg.oclif.topics[topic]?.description;
      const repeated = description === undefined || description === command.cls.summary;
      out.push(`## ${topic}`, '', ...(repeated ? [] : [`${description}.`, '']));
    } else if (!command.id.includes(' ')) topic = '';
    out.push(`<a id="${anchor(command.id)}"></a>`, '', `${command.id.includes(' ') ? '###' : '##'} \`kwokts ${command.id}\``, '');
    if (command.cls.summary) out.push(command.cls.summary, '');
    if (command.cls.description) out.push(command.cls.description, '');
    out.push('```', usage(command), '```', '');
    const args = Object.entries(command.cls.args ?? {});
    if (args.length > 0) {
      out.push('| argument | required | meaning |', '|---|---|---|');
      for (const [name, arg] of args) out.push(`| ${code(name.toUpperCase())} | ${arg.required ? 'yes' : 'no'} | ${cell(describe(arg))} |`);
      out.push('');
    }
    const flags = command.cls.flags ?? {};
    if (Object.keys(flags).length > 0) out.push(...(await flagTable(flags, options, optionDefaults)), '');
    else out.push('No flags of its own; the global flags apply.', '');
    if (command.id === 'kwok') {
      out.push("The controller's own flags, after `kwok` (`src/kwok/app/options.ts`):", '', '| flag | meaning |', '|---|---|');
      for (const flag of kwokFlags) {
        const name = (flag.short ? `-${flag.short}, ` : '') + `--${flag.name}` + (flag.kind === 'bool' ? '' : ` ${flag.kind}`);
        out.push(`| ${code(name)} | ${cell(flag.help + (flag.hidden ? ' (hidden from --help)' : ''))} |`);
      }
      out.push('');
    }
    const shown = examples(command);
    if (shown.length > 0) out.push('```sh', ...shown, '```', '');
  }
  return out.join('\n').replace(/\n+$/, '\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const path = join(ROOT, CLI_REFERENCE);
  const text = await renderCliReference();
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      // missing: stale
    }
    if (current !== text) {
      process.stderr.write(`${CLI_REFERENCE} is stale: run \`npm run docs:reference\`\n`);
      process.exit(1);
    }
  } else {
    writeFileSync(path, text);
  }
}
