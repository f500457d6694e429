import { resolveWorkdir } from '../naming/naming.js';
import type { Logger } from '../util/log.js';
import { createCliLogger } from './cli-logger.js';
import { installInterruptHandlers } from './interrupts.js';
import { reportError } from './report-error.js';
import { takeBackExtraCaCerts } from '../util/extra-ca-certs.js';

export interface FastContext {
  workdir: string;
  logger: Logger;
  signal: AbortSignal;
}

/**
 * What every fast-path command does around its work, as BaseCommand does for the command
 * classes: the same workdir, logger, Ctrl-C handling and error report; returns the exit code.
 * `announce`: whether Ctrl-C says what it interrupts (a passthrough ends silently, as the tool
 * does when bin/kwokts execs it).
 */
export async function runFastly(logLevel: number, announce: boolean, work: (context: FastContext) => Promise<number>): Promise<number> {
  // NODE_EXTRA_CA_CERTS back for the programs these start; trusting it waits for a connection
  // that needs it (extra-ca-certs.ts says which), which these commands almost never make.
  takeBackExtraCaCerts();
  try {
    const workdir = resolveWorkdir();
    const logger = createCliLogger(logLevel);
    const abort = new AbortController();
    installInterruptHandlers({ logger, abort, settled: () => false, announce: () => announce, action: () => 'stopping' });
    return await work({ workdir, logger, signal: abort.signal });
  } catch (error) {
    return reportError(error, logLevel);
  }
}
