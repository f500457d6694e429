import { Config, flush, run } from '@oclif/core';
import { fileURLToPath } from 'node:url';
import { routeArgv, type CommandTable } from './argv.js';
import { BaseCommand, reportError } from './base-command.js';
import type { FlagShape } from './pflag.js';
import { exitWhenFlushed } from './exit.js';

/** Entry point used by bin/run.js. */
export async function main(argv: readonly string[], binUrl: string): Promise<void> {
  try {
    // The manifest gives every command id without loading any command module.
    const config = await Config.load(fileURLToPath(binUrl));
    await run(routeArgv(argv, commandTable(config)), config);
    await flush();
  } catch (error) {
    process.exitCode = reportError(error);
  }
  await exitWhenFlushed(Number(process.exitCode ?? 0));
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
