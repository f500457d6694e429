/**
 * `snapshot save|restore|export`. etcd format: etcdctl's snapshot of the cluster's etcd, restored
 * with etcdutl into a new data directory that replaces the old one only once it is complete.
 * k8s format: the API objects as YAML (see k8s-format.ts), restored through the API.
 */
import { existsSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Executor } from '../exec/executor.js';
import { KubeApiError, type KubeObject } from '../kube/index.js';
import { parseYamlDocuments, renderYamlDocuments } from '../gocompat/yaml/index.js';
import { KwoktsError, NotFoundError, OperationError, UsageError } from '../util/errors.js';
import { commandFailed } from '../util/output-tail.js';
import type { Logger } from '../util/log.js';
import { loadRuntime } from '../../runtimes/load.js';
import type { Runtime, RuntimeContext } from '../../runtimes/runtime.js';
import { lockCluster } from '../cluster/lock.js';
import { resolveTool } from '../cluster/programs.js';
import { etcdClientArgs } from '../cluster/etcd-client.js';
import { loadCluster, type LoadedCluster } from '../cluster/record.js';
import { startComponents } from '../cluster/start-components.js';
import { ApiGuard, describeDown, downHint, findDownComponent } from '../cluster/api-guard.js';
import { componentFailure } from '../cluster/log-tail.js';
import { readContext } from '../cluster/logs.js';
import { ComponentExitedError } from '../cluster/wait.js';
import { summarizeCluster } from '../cluster/summary.js';
import type { ComponentName } from '../components/index.js';
import { clientForKubeconfig } from '../scale/scale.js';
import { cleanForSnapshot, DEFAULT_FILTER } from './k8s-format.js';
import { createObjects } from './create-objects.js';
import { loadExeca } from '../exec/load-execa.js';
import { buildConnection, HttpKubeClient, loadKubeConfig } from '../kube/index.js';
import { silentLogger } from '../util/log.js';
import { mapFilters, openApiSchemas } from './api-map.js';
import { record, type RecordResult } from './recorder.js';
import { nowNs, timesFromRelative } from './relative-time.js';
import { resourcePatchProblem, splitRecording, type ResourcePatch } from './resource-patch.js';
import { replay, type ReplayResult } from './replay.js';
export { restoreSnapshot } from './restore.js';
import { explained } from './explained.js';

export type SnapshotFormat = 'etcd' | 'k8s';

export interface SnapshotOptions {
  name: string;
  workdir: string;
  path: string;
  format: SnapshotFormat;
  filter: readonly string[];
  executor: Executor;
  logger: Logger;
  signal: AbortSignal;
  /** k8s format: restore, then replay the file's recorded changes at their recorded moments. */
  replay?: boolean;
}

export function checkSavePath(path: string): void {
  if (existsSync(path)) throw new UsageError(`${path} already exists`, { hint: 'snapshots never overwrite: choose a new path or remove the old file' });
  if (!existsSync(dirname(path))) throw new UsageError(`directory ${dirname(path)} does not exist`, { hint: 'create it first' });
}

/** How long the readiness check gives each health endpoint to answer. */
const READY_CHECK_TIMEOUT_MS = 5000;

/**
 * What a save or restore talks to must be ready, so a stopped cluster is refused in one line before
 * anything is written. Only that: a controller slow to answer its health check on a loaded machine
 * does not stop a save through the apiserver (nor a restore, which restarts the controllers). When
 * it is not, the line names what is down behind it (an apiserver is not ready without its etcd).
 */
async function requireReady(cluster: LoadedCluster, workdir: string, what: string, needed: ComponentName): Promise<void> {
  const name = cluster.record.name;
  const summary = await summarizeCluster(workdir, name, READY_CHECK_TIMEOUT_MS);
  const notReady = summary.components.filter((c) => c.name === needed && !c.ready).map((c) => c.name);
  if (notReady.length === 0) return;
  const down = await findDownComponent(cluster, await loadRuntime(cluster.record.runtime), readContext(cluster));
  if (down) throw new OperationError(`${what}: ${describeDown(name, cluster.paths.root, down)}`, { hint: downHint(cluster, down) });
  throw new OperationError(`cluster ${name} is not ready (${notReady.join(', ')} not ready)`, { hint: `start it with \`kwokts --name ${name} start cluster\`` });
}

function ctxOf(cluster: LoadedCluster, options: SnapshotOptions): RuntimeContext {
  return { cluster: options.name, paths: cluster.paths, executor: options.executor, logger: options.logger, programs: new Map(Object.entries(cluster.record.programs)), clusterComponents: cluster.record.components, signal: options.signal };
}

export async function saveSnapshot(options: SnapshotOptions): Promise<string> {
  checkSavePath(options.path);
  const cluster = await loadCluster(options.workdir, options.name);
  await requireReady(cluster, options.workdir, 'snapshot save', options.format === 'etcd' ? 'etcd' : 'kube-apiserver');
  if (options.format === 'etcd') {
    const etcdctl = await resolveTool('etcdctl', cluster.record, options);
    const { endpoint, tlsArgs } = etcdClientArgs(cluster.record, cluster.paths);
    await saveBeside(options.path, { writesOwnPartial: true, dryRun: options.executor.dryRun }, (target) =>
      explained(`cannot save a snapshot of cluster ${options.name}`, 'check that the target directory is writable and has space, and that the cluster is ready', () =>
        options.executor.run({ command: etcdctl, args: [`--endpoints=${endpoint}`, ...tlsArgs, 'snapshot', 'save', target] }),
      ),
    );
  } else {
    const kubectl = await resolveTool('kubectl', cluster.record, options);
    // kubectl's requests, watched as a client's are: an etcd that dies under them ends the save naming it.
    const guard = await ApiGuard.open(cluster, { what: 'snapshot save', signal: options.signal });
    await guard.run(
      saveBeside(options.path, { writesOwnPartial: false, dryRun: options.executor.dryRun }, async (target) =>
        writeFile(target, await guard.track(exportObjects(kubectl, ['--kubeconfig', cluster.paths.kubeconfig], options.filter, 500, guard.signal)), { mode: 0o600 }),
      ),
    );
  }
  return options.path;
}

/**
 * Writes `path` through a file beside it and renames it into place, so that a failed save leaves
 * no partial snapshot behind: `write` is given the name to write. The file being written is
 * always `<path>.<pid>.part`, the one name errors show. etcdctl's `snapshot save X` already writes
 * X.part and renames it to X itself (writesOwnPartial), so it is given `<path>.<pid>`: given a
 * name that ended in .part, its own file and its errors were `….part.part`.
 */
export async function saveBeside(path: string, options: { writesOwnPartial: boolean; dryRun?: boolean }, write: (target: string) => Promise<unknown>): Promise<void> {
  const partial = `${path}.${process.pid}.part`;
  const target = options.writesOwnPartial ? partial.slice(0, -'.part'.length) : partial;
  try {
    await write(target);
    if (options.dryRun) return;
    await rename(target, path);
  } finally {
    await rm(target, { force: true });
    await rm(partial, { force: true });
  }
}

/** The objects of `filter`, listed by kubectl in pages, as a YAML stream; `signal` stops kubectl and fails with its reason. */
export async function exportObjects(kubectl: string, kubeconfigArgs: readonly string[], filter: readonly string[], pageSize = 500, signal?: AbortSignal): Promise<string> {
  const execa = await loadExeca();
  const result = await execa(kubectl, [...kubeconfigArgs, 'get', filter.join(','), '--all-namespaces', `--chunk-size=${pageSize}`, '-o', 'json'], {
    reject: false,
    maxBuffer: 1 << 30,
    ...(signal ? { cancelSignal: signal } : {}),
  });
  if (signal?.aborted) throw signal.reason;
  if (result.exitCode !== 0) {
    throw commandFailed([kubectl, ...kubeconfigArgs, 'get', filter.join(',')], `listing objects failed: ${String(result.stderr).trim().split('\n')[0]}`, String(result.stderr), { hint: 'check --filter names the resources of this cluster (name, name.group or name.version.group)' });
  }
  const list = JSON.parse(String(result.stdout)) as { items: KubeObject[] };
  return renderYamlDocuments(list.items.map(cleanForSnapshot));
}

export interface ExportSnapshotOptions {
  kubeconfig: string;
  path: string;
  filter: readonly string[];
  kubectl: string;
  /** Impersonation, as kubectl's --as and --as-group. */
  as?: string;
  asGroups?: readonly string[];
  /** Objects per list request (kubectl's --chunk-size; kwokctl's --page-size). */
  pageSize?: number;
}

export async function exportSnapshot(options: ExportSnapshotOptions): Promise<number> {
  checkSavePath(options.path);
  if (!existsSync(options.kubeconfig)) throw new NotFoundError(`kubeconfig ${options.kubeconfig} does not exist`);
  const identity = [...(options.as ? ['--as', options.as] : []), ...(options.asGroups ?? []).flatMap((g) => ['--as-group', g])];
  const text = await exportObjects(options.kubectl, ['--kubeconfig', options.kubeconfig, ...identity], options.filter, options.pageSize);
  await saveBeside(options.path, { writesOwnPartial: false }, (target) => writeFile(target, text, { mode: 0o600 }));
  return parseYamlDocuments(text).length;
}

export interface RestoreResult {
  created: number;
  existed: number;
  /** Recorded changes in the file (k8s format), and what their replay did (with --replay). */
  recorded: number;
  replayed?: ReplayResult;
}

/** The k8s format's restore (restore.ts's restoreSnapshot loads this module only for it). */
export async function restoreK8sSnapshot(options: SnapshotOptions): Promise<RestoreResult> {
  // A file that is not a k8s snapshot is bad input: said before the cluster is even looked at.
  // Recorded timestamps are relative to the start of recording; they become relative to now.
  const { objects, patches } = await readK8sSnapshot(options.path, nowNs());
  const cluster = await loadCluster(options.workdir, options.name);
  const release = options.executor.dryRun ? async () => undefined : await lockCluster(options.workdir, options.name);
  try {
    return await restoreK8s(cluster, objects, patches, options);
  } finally {
    await release();
  }
}

async function readK8sSnapshot(path: string, baseNs: bigint): Promise<{ objects: KubeObject[]; patches: ResourcePatch[] }> {
  let docs: unknown[];
  try {
    docs = parseYamlDocuments(timesFromRelative(await readFile(path, 'utf8'), baseNs));
  } catch (error) {
    if (KwoktsError.is(error) || (error as NodeJS.ErrnoException).syscall !== undefined) throw error;
    throw new UsageError(`${path} is not a YAML stream of Kubernetes objects: ${(error as Error).message.split('\n')[0]}`, {
      hint: 'k8s snapshots are YAML streams written by `kwokts snapshot save --format k8s`; an etcd snapshot needs --format etcd',
      cause: error,
    });
  }
  const { objects, patches, strays } = splitRecording(docs);
  for (const [i, o] of objects.entries()) {
    if (typeof o?.kind !== 'string' || typeof o.apiVersion !== 'string' || typeof o.metadata?.name !== 'string') {
      throw new UsageError(`${path}: document ${i + 1} is not a Kubernetes object`, { hint: 'k8s snapshots are YAML streams written by `kwokts snapshot save --format k8s`' });
    }
  }
  if (strays.length > 0) {
    throw new UsageError(`${path}: document ${strays[0]} follows the recorded changes but is not a ResourcePatch`, { hint: 'a recording is the objects first, then only ResourcePatch documents (as `snapshot export --record` writes it)' });
  }
  for (const [i, p] of patches.entries()) {
    const problem = resourcePatchProblem(p);
    if (problem) throw new UsageError(`${path}: recorded change ${i + 1} (document ${objects.length + i + 1}): ${problem}`, { hint: 'a recording is written by `snapshot export --record` or `snapshot save --format k8s --record`' });
  }
  return { objects, patches };
}

/** Components that would act on objects while they are restored: stopped, then started again. */
const PAUSED = new Set(['kube-controller-manager', 'kube-scheduler', 'kwok-controller']);

async function restoreK8s(cluster: LoadedCluster, objects: readonly KubeObject[], patches: readonly ResourcePatch[], options: SnapshotOptions): Promise<RestoreResult> {
  await requireReady(cluster, options.workdir, 'snapshot restore', 'kube-apiserver');
  const { record, paths } = cluster;
  const runtime = await loadRuntime(record.runtime);
  const ctx = ctxOf(cluster, options);
  const paused = record.components.filter((c) => PAUSED.has(c.name));
  // The runtime's own objects (kind: our Deployments' pods) are its to make, not the snapshot's.
  const restored = objects.filter((o) => !runtime.ownsObject?.(o));
  // A component the apiserver needs that dies during the restore ends it naming that component.
  const guard = await ApiGuard.open(cluster, { what: 'snapshot restore', signal: options.signal });
  const client = guard.watch(await clientForKubeconfig(paths.kubeconfig, 16));
  const result: RestoreResult = { created: 0, existed: 0, recorded: patches.length };
  const uidMap = new Map<string, string>();
  await runtime.stop(paused, ctx, { graceMs: 10_000 });
  let failure: unknown;
  try {
    await guard.run(
      (async () => {
        const counts = await createObjects(client, restored, uidMap, { ...options, signal: guard.signal });
        result.created = counts.created;
        result.existed = counts.existed;
        // The controllers stay stopped during the replay: the recording already holds what they did.
        if (options.replay && patches.length > 0) {
          options.logger.info(`Replaying ${patches.length} recorded changes (over ${formatSeconds(Math.max(...patches.map((p) => p.durationNanosecond)) / 1e9)})`);
          result.replayed = await replay({ client, patches, uidMap, logger: options.logger, signal: guard.signal });
        }
      })(),
    );
  } catch (error) {
    failure = error;
    throw error;
  } finally {
    await restartPaused(runtime, cluster, ctx, options, failure);
  }
  return result;
}

/**
 * The controllers the restore paused, started again. When the restore has failed already (etcd
 * gone, say), that error is what the user reads, and the restart's own failure goes under it as a
 * warning; after a restore that worked, a component that cannot start is the error.
 */
async function restartPaused(runtime: Runtime, cluster: LoadedCluster, ctx: RuntimeContext, options: SnapshotOptions, failure: unknown): Promise<void> {
  const { record, paths } = cluster;
  try {
    await startComponents(runtime, record.components, ctx, { paths, waitMs: 0, signal: options.signal });
  } catch (error) {
    const explained =
      error instanceof ComponentExitedError
        ? new OperationError((await componentFailure(`snapshot restore: restarting the controllers failed: ${error.component} exited`, runtime, error.component, ctx)).message, {
            hint: `read its log with \`kwokts --name ${record.name} logs ${error.component}\`, then start it again with \`kwokts --name ${record.name} start cluster\``,
            cause: error,
          })
        : error;
    if (failure === undefined) throw explained;
    if (KwoktsError.is(failure)) failure.suppressed.push(explained);
  }
}

function formatSeconds(s: number): string {
  return `${s.toFixed(1)}s`;
}

export { DEFAULT_FILTER };

export interface RecordSnapshotOptions {
  kubeconfig: string;
  path: string;
  filter: readonly string[];
  logger: Logger;
  /** Recording stops when it aborts (Ctrl-C). */
  signal: AbortSignal;
  onRecording?: (objects: number) => void;
}

/**
 * The objects of `filter` as a k8s snapshot, then every change to them as a ResourcePatch until
 * `signal` aborts. Timestamps are written relative to the start, as kwokctl writes them.
 */
export async function recordSnapshot(options: RecordSnapshotOptions): Promise<RecordResult> {
  checkSavePath(options.path);
  if (!existsSync(options.kubeconfig)) throw new NotFoundError(`kubeconfig ${options.kubeconfig} does not exist`);
  const { config } = loadKubeConfig({ kubeconfig: options.kubeconfig, logger: silentLogger });
  const client = new HttpKubeClient(await buildConnection(config), { maxSockets: 8, userAgent: 'kwokts-recorder' });
  try {
    return await recordWith(client, options);
  } catch (error) {
    // The cluster unreachable or refusing us is the user's to fix, not a bug: one line, exit 1.
    if (error instanceof KubeApiError) {
      throw new OperationError(`snapshot export --record: ${error.message}`, { hint: `check that the cluster of ${options.kubeconfig} is running and reachable, and that its user may list and watch what is recorded`, cause: error });
    }
    throw error;
  } finally {
    client.close();
  }
}

/** The recording itself, on a client the caller closes. */
async function recordWith(client: HttpKubeClient, options: RecordSnapshotOptions): Promise<RecordResult> {
  const get = (path: string): Promise<unknown> => client.getRaw(path, options.signal);
  const { refs, unknown } = await mapFilters(get, options.filter);
  for (const name of unknown) options.logger.warn(`--filter ${name}: the cluster has no such resource; not recorded`);
  if (refs.length === 0) throw new UsageError(`none of --filter ${options.filter.join(',')} is a resource of this cluster`, { hint: 'name resources as name, name.group or name.version.group (e.g. pod, deployment.apps)' });
  try {
    return await record({ client, refs, schemaFor: openApiSchemas(get), path: options.path, logger: options.logger, signal: options.signal, ...(options.onRecording ? { onRecording: options.onRecording } : {}) });
  } catch (error) {
    // A recording that failed before it began leaves nothing behind (unless the file was not ours).
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await rm(options.path, { force: true });
    throw error;
  }
}
