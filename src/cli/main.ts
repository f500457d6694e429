import { flush, run } from '@oclif/core';
import { normalizeArgv } from './argv.js';
import { reportError } from './base-command.js';

/** Entry point used by bin/run.js. */
export async function main(argv: readonly string[], binUrl: string): Promise<void> {
  try {
    await run(normalizeArgv(argv), binUrl);
    await flush();
  } catch (error) {
    process.exitCode = reportError(error);
  }
}
