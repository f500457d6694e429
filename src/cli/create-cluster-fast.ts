import { RealExecutor } from '../exec/real-executor.js';
import { resolveWorkdir } from '../naming/naming.js';
import { LogLevel, parseLogLevel } from '../util/log.js';
import { createCliLogger } from './cli-logger.js';
import { createAndReport, type CreateClusterFlags } from './create-cluster.js';
import { installInterruptHandlers } from './interrupts.js';
import { reportError } from './report-error.js';
import { resumeExtraCaCerts } from '../util/extra-ca-certs.js';

export { readCreateClusterFlags } from './create-cluster-flags.js';

/**
 * `create cluster` on the fast path (src/cli/fast-path.ts), with the flags readCreateClusterFlags
 * read: set up as BaseCommand would (logger, workdir, Ctrl-C rolls back), run the command's own
 * body, report an error as BaseCommand would; returns the exit code. Loaded only for create, so
 * --version and the other fast commands never read the create code.
 */
export async function runCreateClusterFast(flags: CreateClusterFlags): Promise<number> {
  const logLevel = parseLogLevel(flags.v) ?? LogLevel.INFO;
  // A create reaches much (downloads, engines, the kube client): NODE_EXTRA_CA_CERTS trusted at once.
  await resumeExtraCaCerts();
  try {
    const logger = createCliLogger(logLevel);
    const workdir = resolveWorkdir();
    const abort = new AbortController();
    let settled = false;
    installInterruptHandlers({ logger, abort, settled: () => settled, announce: () => true, action: () => 'rolling back' });
    await createAndReport(flags, {
      workdir,
      logger,
      logLevel,
      executor: new RealExecutor(logger),
      abort,
      commit: () => {
        settled = true;
      },
    });
    return 0;
  } catch (error) {
    return reportError(error, logLevel);
  }
}
