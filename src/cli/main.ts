import { Config, flush, run } from '@oclif/core';
import { fileURLToPath } from 'node:url';
import { routeArgv, type CommandTable } from './argv.js';
import { BaseCommand, reportError } from './base-command.js';
import type { FlagShape } from './pflag.js';

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
  // Exit now instead of when the event loop drains: while Node tears an environment down it
  // puts back the default signal handling, so a Ctrl-C in that window killed a command that had
  // already finished ("ready", then exit 130). The command's work is done when run() returns.
  await Promise.all([drain(process.stdout), drain(process.stderr)]);
  process.exit(Number(process.exitCode ?? 0));
}

function drain(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.writableLength === 0) resolve();
    else stream.write('', () => resolve());
  });
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
