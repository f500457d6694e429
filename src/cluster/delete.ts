import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Executor } from '../exec/executor.js';
import { describeUnknown, OperationError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { loadRuntime } from '../../runtimes/load.js';
import { lockCluster } from './lock.js';
import { clusterPaths, contextName, ownerMarkerPrefix, type ClusterPaths } from '../naming/naming.js';
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
 *
 * Whatever state the record and the directory are in, what kwokts started goes: the components
 * the record lists are stopped through their runtime, and then every host process still carrying
 * the cluster's owner mark (ownerMarkerPrefix), which a truncated, replaced or unreadable record,
 * or a create killed between starting a component and writing its pid file, leaves unlisted. A
 * directory removed by hand leaves the marked processes and the kubeconfig context to find.
 */
export async function deleteCluster(options: DeleteClusterOptions): Promise<DeleteClusterResult> {
  const { name, workdir, executor, logger } = options;
  mark('delete: command parsed');
  const paths = clusterPaths(workdir, name);
  if (!existsSync(paths.root)) return deleteRemains(options, paths);
  const release = executor.dryRun ? async () => undefined : await lockCluster(workdir, name);
  // Its modules load while the components are stopped: the edit comes after them.
  if (options.kubeconfig !== '') userKubeconfigModule().then((kube) => kube.contextRemoval()).catch(() => undefined);
  try {
    // A directory without a record is the remains of a broken create: remove it anyway.
    if (existsSync(paths.config)) await stopRecordedComponents(options, paths);
    const unlisted = await span('delete: stop unlisted processes', () => executor.killMarked({ markerPrefix: ownerMarkerPrefix(paths) }));
    if (unlisted.length > 0) logger.warn(`stopped ${processes(unlisted)} of cluster ${name} that its record did not list`);
    // A kubeconfig we cannot edit must not keep a stopped cluster around: the directory goes
    // anyway, then the error says what is left to clean.
    let contextError: unknown;
    await span('delete: remove kubeconfig context', () =>
      removeContext(options).catch((error: unknown) => {
        contextError = error;
      }),
    );
    await span('delete: remove cluster directory', () => executor.remove(paths.root));
    if (contextError !== undefined) throw contextError;
    return 'deleted';
  } finally {
    await release();
  }
}

/** The components the record lists, stopped and removed through their runtime. */
async function stopRecordedComponents(options: DeleteClusterOptions, paths: ClusterPaths): Promise<void> {
  const { name, executor, logger } = options;
  let record;
  try {
    // Loaded here, not at the top: a delete of a cluster that does not exist (a cleanup step) needs no YAML parser.
    const { loadRecordQuickly } = await import('./record-quick.js');
    record = (await span('delete: read record', () => loadRecordQuickly(options.workdir, name))).record;
  } catch (error) {
    // The components cannot be listed; containers are found by the cluster's label instead, when
    // the text still names their runtime, and host processes by their mark (in deleteCluster).
    const runtime = await runtimeNamedIn(paths.config);
    logger.warn(`the record of cluster ${name} (${paths.config}) cannot be read (${describeUnknown(error)}); stopping what carries the cluster's name instead`);
    if (runtime !== undefined && runtime !== 'binary') await removeWithoutRecord(runtime, options, paths);
    return;
  }
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

/** A container or kind runtime's objects of the cluster, by its label, without the record. */
async function removeWithoutRecord(runtimeName: string, options: DeleteClusterOptions, paths: ClusterPaths): Promise<void> {
  const { name, executor, logger } = options;
  try {
    const runtime = await loadRuntime(runtimeName);
    await runtime.remove({ cluster: name, paths, executor, logger, programs: new Map() });
  } catch (error) {
    if (!options.force) {
      throw new OperationError(`could not remove the ${runtimeName} objects of cluster ${name}: ${describeUnknown(error)}`, {
        hint: `make ${runtimeName} answer and run the delete again, or add --force to remove the cluster's files and kubeconfig context and leave them`,
        cause: error,
      });
    }
    logger.warn(`could not remove the ${runtimeName} objects of cluster ${name} (${describeUnknown(error)}); --force: removing its files and kubeconfig context anyway`);
  }
}

/** The runtime a record's text names, even when it is no longer YAML (read line by line). */
async function runtimeNamedIn(file: string): Promise<string | undefined> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return /^\s*runtime:\s*["']?([a-z]+)/m.exec(text)?.[1];
}

/**
 * A cluster whose directory is gone: what it left behind, stopped and removed. 'absent' when
 * there was nothing, so that a cleanup of a cluster never made stays quiet.
 */
async function deleteRemains(options: DeleteClusterOptions, paths: ClusterPaths): Promise<DeleteClusterResult> {
  const { name, executor, logger } = options;
  const stopped = await executor.killMarked({ markerPrefix: ownerMarkerPrefix(paths) });
  const context = await removeContext(options, { onlyIfPresent: true });
  if (stopped.length === 0 && !context) return 'absent';
  const found = [stopped.length > 0 ? `stopped ${processes(stopped)}` : '', context ? `removed context ${contextName(name)} from ${context}` : ''].filter(Boolean).join(' and ');
  logger.warn(`cluster ${name} has no directory (${paths.root}) any more; ${found}`);
  return 'deleted';
}

/**
 * The cluster's context, cluster and user entries removed from the user's kubeconfig; the file's
 * path when something was removed (or, under dry-run, would be). With `onlyIfPresent`, a
 * kubeconfig whose text does not mention the context is not parsed: a delete of a cluster that
 * never existed must stay cheap.
 */
async function removeContext(options: DeleteClusterOptions, { onlyIfPresent = false } = {}): Promise<string | undefined> {
  const { name, executor } = options;
  if (options.kubeconfig === '') return undefined;
  const kube = await userKubeconfigModule();
  const userKubeconfig = kube.resolveUserKubeconfigPath(options.kubeconfig);
  if (!userKubeconfig) return undefined;
  if (onlyIfPresent && !(await readFile(userKubeconfig, 'utf8').catch(() => '')).includes(contextName(name))) return undefined;
  if (executor.dryRun) {
    await executor.note(`Remove context ${contextName(name)} from ${userKubeconfig}`);
    return userKubeconfig;
  }
  try {
    return (await (await kube.contextRemoval()).removeContext(userKubeconfig, contextName(name))) ? userKubeconfig : undefined;
  } catch (error) {
    // Non-zero, so that scripts notice what is left to clean.
    throw new OperationError(`cluster ${name} was deleted, but its context could not be removed from ${userKubeconfig}: ${describeUnknown(error)}`, {
      hint: `fix the file, then remove the context with \`kubectl config delete-context ${contextName(name)}\` (and its cluster and user entries)`,
      cause: error,
    });
  }
}

/** Loaded when needed, not at the top: of src/kube only the kubeconfig's path and edit (a light entry). */
function userKubeconfigModule(): Promise<typeof import('../kube/user-kubeconfig.js')> {
  return import('../kube/user-kubeconfig.js');
}

function processes(pids: readonly number[]): string {
  return `${pids.length === 1 ? 'process' : `${pids.length} processes`} (pid ${pids.join(', ')})`;
}
