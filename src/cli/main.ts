import { Config, flush, ux, type Command } from '@oclif/core';
import { getHelpFlagAdditions, normalizeArgv } from '@oclif/core/help';
import { fileURLToPath } from 'node:url';
import { routeArgv, type CommandTable } from './argv.js';
import { BaseCommand, reportError } from './base-command.js';
import type { FlagShape } from './pflag.js';
import { exitWhenFlushed } from './exit.js';
import KwoktsHelp from './help.js';

/**
 * A command's class by its oclif id, or undefined to let oclif load it (from the path in the
 * manifest). The bundle (scripts/bundle.mjs) passes one that imports the command's own chunk, so
 * that oclif, the help class and the command are one copy of each, loaded from a few files.
 */
export type CommandLoader = (id: string) => Promise<Command.Class> | undefined;

/** Entry point used by bin/run.cjs. */
export async function main(argv: readonly string[], binUrl: string, loadCommand: CommandLoader = () => undefined): Promise<void> {
  try {
    // The manifest gives every command id without loading any command module.
    const config = await Config.load(fileURLToPath(binUrl));
    await run(routeArgv(argv, commandTable(config)), withLoader(config, loadCommand));
    await flush();
  } catch (error) {
    process.exitCode = reportError(error);
  }
  await exitWhenFlushed(Number(process.exitCode ?? 0));
}

/**
 * oclif's own `run` (@oclif/core's main.js) for an argv routeArgv has put in order (the command id
 * first, or `--version`, or help), with the help class and the commands taken from here rather than
 * imported by path: oclif's `run` loads package.json's helpClass and the commands through its
 * module loader, which in the bundle would load a second oclif from node_modules beside the
 * bundled one. No plugin of ours has hooks; they run all the same, as oclif's `run` runs them.
 */
async function run(argv: string[], config: Config): Promise<void> {
  const [id = '', ...rest] = normalizeArgv(config, argv);
  const showHelp = (helpArgv: string[]) => new KwoktsHelp(config, config.pjson.oclif.helpOptions ?? config.pjson.helpOptions).showHelp(helpArgv);
  const runFinally = (cmd?: Command.Loadable, error?: Error) => config.runHook('finally', { argv: rest, Command: cmd, error, id });
  await config.runHook('init', { argv: rest, id });
  if ([...new Set(['--version', ...(config.pjson.oclif.additionalVersionFlags ?? [])])].includes(argv[0]!)) {
    ux.stdout(config.userAgent);
    await runFinally();
    return;
  }
  if (wantsHelp(argv, getHelpFlagAdditions(config))) {
    await showHelp(argv);
    await runFinally();
    return;
  }
  const cmd = config.findCommand(id);
  if (!cmd && config.findTopic(id)) {
    await showHelp([id]);
    await runFinally();
    return;
  }
  let error: Error | undefined;
  try {
    await config.runCommand(id, rest, cmd);
  } catch (caught) {
    error = caught as Error;
    throw caught;
  } finally {
    await runFinally(cmd, error);
  }
}

/** oclif's test: no arguments, or a help flag before any `--`. */
function wantsHelp(argv: readonly string[], helpFlags: readonly string[]): boolean {
  if (argv.length === 0) return true;
  for (const arg of argv) {
    if (helpFlags.includes(arg)) return true;
    if (arg === '--') return false;
  }
  return false;
}

/** `config`, whose commands (for running and for help) load through `loadCommand` where it has them. */
function withLoader(config: Config, loadCommand: CommandLoader): Config {
  const find = config.findCommand.bind(config);
  config.findCommand = ((id: string, opts?: { must: boolean }) => {
    const cached = find(id, opts as { must: true });
    if (!cached) return cached;
    return {
      ...cached,
      async load() {
        const loading = loadCommand(cached.id);
        if (!loading) return cached.load();
        // What oclif's plugin sets on a class it loads.
        const loaded = await loading;
        loaded.id = cached.id;
        loaded.plugin = config.plugins.get(cached.pluginName ?? '');
        return loaded;
      },
    };
  }) as Config['findCommand'];
  return config;
}

export function commandTable(config: Config): CommandTable {
  const spaced = (id: string) => id.replaceAll(':', ' ');
  return {
    bin: config.bin,
    commands: new Set(config.commandIDs.map(spaced)),
    topics: new Set(config.topics.map((t) => spaced(t.name))),
    globals: BaseCommand.baseFlags as Record<string, FlagShape>,
  };
}
