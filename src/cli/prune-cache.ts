import { formatBytes, planCachePrune, pruneCache, type PruneEntry } from '../cluster/programs-in-use.js';
import { cacheDirOf } from '../cluster/artifact-request.js';
import type { ClusterOptionValues } from '../config/options.js';
import type { Executor } from '../exec/executor.js';
import type { Logger } from '../util/log.js';

/**
 * `artifacts prune`: free what no cluster needs in the cache and say how much, or with --dry-run
 * say what it would free; then what it kept and why. The lines go to `log` (stdout: the result).
 * `all`: the binaries the next create would use go too.
 */
export async function pruneAndReport(options: { workdir: string; values: ClusterOptionValues; all: boolean; executor: Executor; logger: Logger; log: (line: string) => void }): Promise<void> {
  const { log } = options;
  const dryRun = options.executor.dryRun;
  const cacheDir = cacheDirOf(options.values, options.workdir);
  const { plan, warnings } = await planCachePrune(options.workdir, options.values, { all: options.all });
  for (const warning of warnings) options.logger.warn(warning);
  const line = (e: PruneEntry): string => `  ${formatBytes(e.bytes).padStart(7)}  ${e.what}: ${e.path}`;
  if (plan.remove.length === 0) log(`nothing to free in ${cacheDir}`);
  else {
    if (!dryRun) await pruneCache(plan, cacheDir);
    const total = plan.remove.reduce((sum, e) => sum + e.bytes, 0);
    log(`${dryRun ? 'would free' : 'freed'} ${formatBytes(total)} in ${cacheDir}:`);
    for (const e of plan.remove) log(line(e));
  }
  if (plan.kept.length > 0) {
    log(`kept, as clusters run them${options.all ? '' : ' or the next create would'}:`);
    for (const e of plan.kept) log(`${line(e)} (${e.clusters.join(', ')})`);
  }
  if (plan.userGoCaches.length > 0) log(`left alone, as yours: ${plan.userGoCaches.join(', ')}`);
  for (const lock of plan.busy) log(`left alone, in use: ${lock} (a build or download under way)`);
}
