import { CommandHelp, Help, type Command, type Interfaces } from '@oclif/core';
import { homedir } from 'node:os';
import { join, sep } from 'node:path';
import { OPTION_SPECS, type OptionSpec } from '../config/options.js';
import { resolveOptionValues } from '../config/resolve.js';
import { resolveWorkdir } from '../naming/naming.js';
import { silentLogger } from '../util/log.js';
import { loadCommandConfig } from './command-config.js';
import { GLOBAL_FLAG_SHAPES } from './command-flags.js';
import { flagDescription } from './option-flags.js';
import { normalizeFlags } from './pflag.js';

/**
 * kwokts's --help (package.json's oclif.helpClass): oclif's, with two changes.
 *
 * The option flags (`create cluster`, `get artifacts`) have no oclif default, so that an unset
 * flag does not override a variable or a config file; their help shows instead the value create
 * would use, resolved as `config view` resolves it (defaults, $KWOK_WORKDIR/kwok.yaml and -c files,
 * KWOK_* variables) and derived as create derives it (images, download URLs). kwokctl's help does
 * the same: `KWOK_KUBE_VERSION=v1.35.0 kwokctl create cluster --help` names v1.35.0 images.
 *
 * Text wraps at spaces only: oclif breaks a word longer than the line, and a variable name or URL
 * cut in two cannot be copied.
 *
 * oclif renders every text of a help (each flag's description among them) as an EJS template,
 * and EJS compiles each one into a function first: most of the time `create cluster --help`
 * spent on its 100 flags. Only a text with a tag (`<%= config.bin %>` in the examples) is a
 * template; the others are printed as they are, which is what EJS would make of them.
 */
export default class KwoktsHelp extends Help {
  protected override CommandHelpClass = KwoktsCommandHelp;
  private argv: readonly string[] = [];

  constructor(config: Interfaces.Config, opts?: Partial<Interfaces.HelpOptions>) {
    super(config, opts);
    this.render = renderTagsOnly(this.render);
  }

  override async showHelp(argv: string[]): Promise<void> {
    this.argv = argv;
    await super.showHelp(argv);
  }

  override async showCommandHelp(command: Command.Loadable): Promise<void> {
    await super.showCommandHelp(withConfigDefault(withoutEmptyDefaults(await withOptionDefaults(command, this.argv))));
  }

  override wrap(body: string, spacing: number = this.indentSpacing): string {
    return wrapWords(this.render(body), this.opts.maxWidth - spacing);
  }
}

class KwoktsCommandHelp extends CommandHelp {
  constructor(command: Command.Loadable, config: Interfaces.Config, opts: Interfaces.HelpOptions) {
    super(command, config, opts);
    this.render = renderTagsOnly(this.render);
  }

  override wrap(body: string, spacing: number = this.indentSpacing): string {
    return wrapWords(this.render(body), this.opts.maxWidth - spacing);
  }
}

/** `render` for the texts that have an EJS tag; any other text is its own rendering. */
export function renderTagsOnly(render: (input: string) => string): (input: string) => string {
  return (input) => (input.includes('<%') ? render(input) : input);
}

/**
 * `text` broken at spaces into lines of at most `width` characters; a word longer than that gets a
 * line of its own, whole. Existing line breaks stay; each line is trimmed, as oclif's wrap does.
 */
export function wrapWords(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => {
      const out: string[] = [];
      let current = '';
      for (const word of line.split(' ').filter((w) => w !== '')) {
        if (current !== '' && current.length + 1 + word.length > width) {
          out.push(current);
          current = word;
        } else current = current === '' ? word : `${current} ${word}`;
      }
      out.push(current);
      return out.join('\n');
    })
    .join('\n');
}

/** -c's default is the file read first: $KWOK_WORKDIR/kwok.yaml, as ~/… when it is under $HOME. */
function withConfigDefault(command: Command.Loadable): Command.Loadable {
  const flag = command.flags['config'];
  if (!flag || flag.helpGroup !== 'GLOBAL') return command;
  const file = join(resolveWorkdir(), 'kwok.yaml');
  const home = homedir();
  const shown = home && file.startsWith(home + sep) ? `~${file.slice(home.length)}` : file;
  return { ...command, flags: { ...command.flags, config: { ...flag, default: shown } } };
}

/** oclif prints `[default: ]` for a list flag that defaults to none (`--extra-args`): no default is shown instead. */
function withoutEmptyDefaults(command: Command.Loadable): Command.Loadable {
  const empty = (value: unknown): boolean => value === '' || (Array.isArray(value) && value.length === 0);
  if (!Object.values(command.flags).some((flag) => empty(flag.default))) return command;
  const flags = Object.fromEntries(Object.entries(command.flags).map(([name, flag]) => [name, empty(flag.default) ? { ...flag, default: undefined } : flag]));
  return { ...command, flags };
}

/** The command with the option flags' real defaults in its help (see KwoktsHelp). */
async function withOptionDefaults(command: Command.Loadable, argv: readonly string[]): Promise<Command.Loadable> {
  const specs = new Map((OPTION_SPECS as readonly OptionSpec[]).filter((s) => s.flag).map((s) => [s.flag!, s]));
  // Only flags that are the option's own (the same description), not a command's flag of the same name.
  const options = Object.entries(command.flags).filter(([name, flag]) => specs.has(name) && flag.description === flagDescription(specs.get(name)!));
  if (options.length === 0) return command;
  const defaults = await helpDefaults(argv);
  const flags = { ...command.flags };
  for (const [name, flag] of options) {
    const shown = defaults.get(name) ?? '';
    if (flag.type === 'boolean') {
      // oclif shows no default for a boolean; pflag shows the true ones.
      if (shown === 'true') flags[name] = { ...flag, description: `[default: true] ${flag.description ?? ''}` };
    } else if (shown !== '') flags[name] = { ...flag, default: shown };
  }
  return { ...command, flags };
}

/** Option values as create would start from (`config view`), then what it derives from them, by flag. */
async function helpDefaults(argv: readonly string[]): Promise<Map<string, string>> {
  const workdir = resolveWorkdir();
  // -c files from the command line; stdin (`-c -`) is not read for a help text.
  const files = normalizeFlags(argv, GLOBAL_FLAG_SHAPES, { allowUnknown: true })
    .argv.filter((t) => t.startsWith('--config='))
    .flatMap((t) => t.slice('--config='.length).split(','))
    .filter((f) => f !== '' && f !== '-');
  let fileOptions = {};
  try {
    fileOptions = (await loadCommandConfig(workdir, files, silentLogger)).fileOptions;
  } catch {
    // A broken file is create's to report; its help still shows the other layers.
  }
  // Loaded here, not at the top: every oclif command loads this class, and what the defaults are
  // derived from (artifact sources, images, components) only a help text needs.
  const { optionFlagDefaults } = await import('../cluster/option-defaults.js');
  for (const [layerFiles, env] of [
    [fileOptions, process.env],
    [fileOptions, {}],
    [{}, {}],
  ] as const) {
    try {
      return optionFlagDefaults(resolveOptionValues(layerFiles, env, {}), workdir);
    } catch {
      // A bad value (KWOK_KUBE_APISERVER_PORT=x) is create's to report: show the layers below it.
    }
  }
  return new Map();
}
