import { createCluster, userKubeconfigFor } from '../cluster/create.js';
import { parseExtraArgs } from '../config/extra-args.js';
import { resolveOptionValues, unsupportedOptionWarnings } from '../config/resolve.js';
import type { Executor } from '../exec/executor.js';
import type { Logger } from '../util/log.js';
import { loadCommandConfig } from './command-config.js';
import { armDeadline } from './deadline.js';
import { currentInvocation } from './invocation.js';
import { refreshPassthroughFacts } from './launcher-facts.js';
import { deprecatedFlagWarnings, givenOptionValues } from './option-values.js';
import { detectProgressMode, phaseRunner } from './progress.js';
import { waitPlan } from './wait-plan.js';

// No oclif import here: the fast create (create-cluster-fast.ts) runs this without oclif.

/** `create cluster`'s flags as oclif hands them to the command (and the fast create reads them). */
export interface CreateClusterFlags {
  name: string;
  config: string[];
  'dry-run': boolean;
  v: string;
  'extra-args': string[];
  kubeconfig?: string | undefined;
  wait?: number | undefined;
  timeout?: number | undefined;
  retain: boolean;
  /** The option flags (src/config/options.ts), by flag name; undefined when not given. */
  readonly [flag: string]: unknown;
}

/** What the command runs with, set up by BaseCommand or by the fast create. */
export interface CreateClusterContext {
  workdir: string;
  logger: Logger;
  logLevel: number;
  executor: Executor;
  abort: AbortController;
  /** The create has committed: from now on a signal changes nothing (called synchronously). */
  commit: () => void;
}

/**
 * `create cluster` and its messages, shared by the command (src/commands/create/cluster.ts) and
 * the fast path (create-cluster-fast.ts), so both do and say the same.
 */
export async function createAndReport(flags: CreateClusterFlags, context: CreateClusterContext): Promise<void> {
  const { workdir, logger, executor } = context;
  // Read before any program starts: the launcher's variable is not for them.
  const invocation = currentInvocation();
  const { waitMs, waitFor } = waitPlan(flags.wait);
  armDeadline(context.abort, flags.timeout, 'create cluster');
  const config = await loadCommandConfig(workdir, flags.config, logger);
  // Flags come after config files, so their arguments land last and win.
  config.componentsPatches = [...config.componentsPatches, ...parseExtraArgs(flags['extra-args'])];
  const given = givenOptionValues(flags);
  const values = resolveOptionValues(config.fileOptions, process.env, given);
  for (const line of [...deprecatedFlagWarnings(given), ...unsupportedOptionWarnings({ fileOptions: config.fileOptions, optionSources: config.optionSources, env: process.env, flags: given }, workdir)]) {
    logger.warn(line);
  }
  const result = await createCluster({
    name: flags.name,
    workdir,
    config,
    values,
    sources: { flags: given, env: process.env },
    userKubeconfig: userKubeconfigFor(flags.kubeconfig),
    waitMs,
    waitFor,
    retain: flags.retain,
    logLevel: context.logLevel,
    executor,
    logger,
    signal: context.abort.signal,
    runPhases: phaseRunner(detectProgressMode(context.logLevel > 4, flags['dry-run'])),
    onCommit: context.commit,
  });
  if (executor.dryRun) return;
  await refreshPassthroughFacts(workdir, result.name, logger);
  if (result.alreadyExisted) {
    logger.info(`Cluster ${result.name} already exists and is ready`);
    return;
  }
  const state = waitFor === 'apiserver' ? 'is started and kube-apiserver serves (--wait 0: the other components were not waited for)' : 'is ready';
  logger.info(`Cluster ${result.name} ${state} (${(result.elapsedMs / 1000).toFixed(1)}s); context ${result.context}`);
  logger.info(`You can now use it: ${invocation} --name ${result.name} kubectl get ns`);
}
