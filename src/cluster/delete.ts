import { existsSync } from 'node:fs';
import type { Executor } from '../exec/executor.js';
import { describeUnknown, OperationError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { loadRuntime } from '../../runtimes/load.js';
import { lockCluster } from './lock.js';
import { clusterPaths, contextName } from '../naming/naming.js';
import { assertManageable } from './record-docs.js';
import { mark, span } from '../util/timeline.js';

export interface DeleteClusterOptions {
  name: string;
  workdir: string;
  /** --kubeconfig: the user's kubeconfig to remove the context from; '' skips it; undefined is $KUBECONFIG or ~/.kube/config. */
  kubeconfig: string | undefined;
  executor: Executor;
  logger: Logger;
  /**
   * kwokctl's --force: when the runtime cannot stop or remove the components (its engine is
   * gone, say), warn and remove the directory and kubeconfig entries anyway.
   */
  force?: boolean;
}

export type DeleteClusterResult = 'deleted' | 'absent';

/**
 * Stop every component, remove the cluster directory and the kubeconfig entries. A cluster that
 * does not exist is not an error ('absent'), as in kwokctl and kind: cleanup under `set -e` must
 * not fail because an earlier step never created the cluster.
 */
export async function deleteCluster(options: DeleteClusterOptions): Promise<DeleteClusterResult> {
  const { name, workdir, executor, logger } = options;
  mark('delete: command parsed');
  const paths = clusterPaths(workdir, name);
  if (!existsSync(paths.root)) return 'absent';
  const release = executor.dryRun ? async () => undefined : await lockCluster(workdir, name);
  try {
    // A directory without a readable record is the remains of a broken create: remove it anyway.
    if (existsSync(paths.config)) {
      // Loaded here, not at the top: a delete of a cluster that does not exist (a cleanup step) needs no YAML parser.
      const { loadRecordQuickly } = await import('./record-quick.js');
      const { record } = await span('delete: read record', () => loadRecordQuickly(workdir, name));
      assertManageable(record);
      const runtime = await loadRuntime(record.runtime);
      const ctx = { cluster: name, paths, executor, logger, programs: new Map(Object.entries(record.programs)), clusterComponents: record.components };
      try {
        // The data goes with the directory, so there is nothing to shut down gracefully for.
        await span('delete: stop components', () => runtime.stop(record.components, ctx, { graceMs: 0 }));
        await runtime.remove(ctx);
      } catch (error) {
        if (!options.force) throw error;
        logger.warn(`could not stop or remove the ${record.runtime} components of cluster ${name} (${error instanceof Error ? error.message : String(error)}); --force: removing its files and kubeconfig context anyway, anything left in ${record.runtime} stays`);
      }
    }
    let kubeconfigError: unknown;
    // Loaded here, not at the top: a delete of a cluster that does not exist needs none of src/kube.
    const kube = options.kubeconfig === '' ? undefined : await import('../kube/user-kubeconfig.js');
    const userKubeconfig = kube ? kube.resolveUserKubeconfigPath(options.kubeconfig) : '';
    if (kube && userKubeconfig) {
      if (executor.dryRun) await executor.note(`Remove context ${contextName(name)} from ${userKubeconfig}`);
      else {
        // A kubeconfig we cannot edit must not keep a stopped cluster around: delete it anyway,
        // then say what is left to clean (non-zero, so scripts notice).
        try {
          await kube.removeContext(userKubeconfig, contextName(name));
        } catch (error) {
          kubeconfigError = error;
        }
      }
    }
    await span('delete: remove cluster directory', () => executor.remove(paths.root));
    if (kubeconfigError !== undefined) {
      throw new OperationError(`cluster ${name} was deleted, but its context could not be removed from ${userKubeconfig}: ${describeUnknown(kubeconfigError)}`, {
        hint: `fix the file, then remove the context with \`kubectl config delete-context ${contextName(name)}\` (and its cluster and user entries)`,
        cause: kubeconfigError,
      });
    }
    return 'deleted';
  } finally {
    await release();
  }
}
