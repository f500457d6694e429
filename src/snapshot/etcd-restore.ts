/**
 * `snapshot restore --format etcd`. etcdutl writes the snapshot into a new data directory, which
 * replaces etcd's only once it is complete (a bad snapshot leaves the cluster untouched). Then one
 * of two ways:
 *
 * - Live (etcdutl knows --bump-revision, and etcd and kube-apiserver run): the restored data gets a
 *   revision above every revision the running cluster has handed out, with everything before it
 *   marked compacted (etcd's procedure for restoring under running Kubernetes apiservers). etcd is
 *   restarted, and once the apiserver serves the restored data, kube-controller-manager and the
 *   scheduler (RESTARTED_AFTER_RESTORE says why). Every watch on the old data fails as
 *   "compacted": the apiserver's watch cache re-lists from etcd, and every client's watch (the
 *   kwok controller, `kubectl get -w`) ends with 410 Gone, so informers re-list and see the
 *   restored objects. Nothing keeps serving the old data. Leases the running etcd has and the
 *   snapshot lacks are granted again with their IDs, for the apiserver keeps attaching new Events
 *   to a lease it granted earlier.
 * - Full restart (an etcdutl that refuses those flags, or a cluster not running): every component
 *   is killed, the data swapped, and the cluster started again.
 *
 * Either way the command returns once the apiserver serves the restored data and every component
 * is ready; if etcd does not start on the snapshot (or the apiserver never serves it), the
 * previous data is put back, the whole cluster restarted on it, and the restore fails.
 */
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Executor } from '../exec/executor.js';
import { ExternalCommandError, OperationError, UsageError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { mark, span } from '../util/timeline.js';
import { summarizeOutput } from '../util/output-tail.js';
import { loadRuntime } from '../../runtimes/load.js';
import type { Runtime, RuntimeContext } from '../../runtimes/runtime.js';
import type { Component, ReadinessProbe } from '../components/index.js';
import { lockCluster } from '../cluster/lock.js';
import { waitForPortsFree } from '../cluster/ports.js';
import { getOnce, summarizeBody } from '../cluster/probe.js';
import type { LoadedCluster } from '../cluster/record.js';
import { DEFAULT_READY_TIMEOUT_MS, runtimeState, startComponents } from '../cluster/start-components.js';
import { waitForComponents } from '../cluster/wait.js';
import { explained } from './explained.js';
import { currentRevision, etcdGateway, grantMissing, leaseTtls, type EtcdGateway } from './etcd-gateway.js';

export interface EtcdRestoreOptions {
  name: string;
  workdir: string;
  path: string;
  executor: Executor;
  logger: Logger;
  signal: AbortSignal;
}

/**
 * How far above the running cluster's revision the restored data starts. It must exceed the
 * writes etcd accepts between reading its revision and being stopped (well under a second of
 * writes, a few thousand even at the apiserver's peak); revisions are 64-bit, so a million per
 * restore costs nothing.
 */
export const REVISION_MARGIN = 1_000_000n;

/**
 * Restarted once the apiserver serves the restored data, as kwokctl restarts them: what they hold
 * in memory belongs to the data before. kube-controller-manager's controllers wait until an object
 * they wrote reads back at least as new as their write, and a restored object is older, so they
 * stall on it ("read version ... is not as new as written version"); its ReplicaSet controller,
 * kept running, made three more pods for a ReplicaSet the restore had brought back with its own
 * (a CI run: seven pods for a ReplicaSet of four). The apiserver re-lists from etcd and the kwok
 * controller from the apiserver once their watches end; they keep running.
 */
const RESTARTED_AFTER_RESTORE: ReadonlySet<string> = new Set(['kube-controller-manager', 'kube-scheduler']);

/** How long the components may take to be ready once the apiserver serves the restored data, at the least. */
const READY_AFTER_SERVED_MS = 60_000;

/** How often the apiserver is asked whether it serves the restored data yet. */
const SERVED_POLL_MS = 50;

/**
 * How long one such question may take. A request that reaches the apiserver while its etcd client
 * is still reconnecting (gRPC's backoff: about a second, sometimes two) can hang past the moment
 * it serves again, while a new one is answered at once; so each try is short, a little longer
 * after each that timed out (a busy machine answers slowly, and must still get an answer).
 */
const SERVED_TRY_MS = { first: 300, step: 100, max: 2000 };

/** The --bump-revision for a cluster whose etcd is at `revision`: the restored data then starts above every revision handed out. */
export function bumpFor(revision: bigint): bigint {
  return revision + REVISION_MARGIN;
}

/** Whether etcdutl refused the flags of a restore under running apiservers (older than etcd 3.5.10). */
export function lacksBump(output: string): boolean {
  return /unknown flag: --(bump-revision|mark-compacted)\b/.test(output);
}

/** Whether a list answer carries a resourceVersion of the restored data (at or above the bump). */
export function servesRestored(list: unknown, bump: bigint): boolean {
  const rv = (list as { metadata?: { resourceVersion?: unknown } } | undefined)?.metadata?.resourceVersion;
  return typeof rv === 'string' && /^\d+$/.test(rv) && BigInt(rv) >= bump;
}

/** The member flags of the running etcd, so the restored data belongs to the same member. */
function memberArgs(etcd: Component): string[] {
  return etcd.args.filter((a) => /^--(name|initial-cluster|initial-advertise-peer-urls|initial-cluster-token)=/.test(a));
}

interface Restore {
  cluster: LoadedCluster;
  options: EtcdRestoreOptions;
  runtime: Runtime;
  ctx: RuntimeContext;
  etcd: Component;
  restored: string;
  previous: string;
}

/** The restore, under the cluster's lock (none under --dry-run, as every verb). */
export async function restoreEtcd(cluster: LoadedCluster, options: EtcdRestoreOptions): Promise<void> {
  const release = options.executor.dryRun ? async () => undefined : await lockCluster(options.workdir, options.name);
  try {
    await restoreEtcdLocked(cluster, options);
  } finally {
    await release();
  }
}

async function restoreEtcdLocked(cluster: LoadedCluster, options: EtcdRestoreOptions): Promise<void> {
  const { record, paths } = cluster;
  const etcd = record.components.find((c) => c.name === 'etcd');
  if (!etcd) throw new OperationError(`cluster ${record.name} has no etcd`);
  const runtime = await loadRuntime(record.runtime);
  const ctx: RuntimeContext = { cluster: options.name, paths, executor: options.executor, logger: options.logger, programs: new Map(Object.entries(record.programs)), clusterComponents: record.components, signal: options.signal };
  const r: Restore = { cluster, options, runtime, ctx, etcd, restored: join(paths.root, 'etcd-restore'), previous: join(paths.root, 'etcd-previous') };
  // The artifact code (programs.ts) is loaded only when the record does not name etcdutl.
  const [etcdutl, live0] = await Promise.all([record.programs.etcdutl ?? import('../cluster/programs.js').then((p) => p.resolveTool('etcdutl', record, options)), span('restore: live revision', () => live(r))]);
  let running = live0;
  // Data in a stopped kind node cannot be swapped (nothing runs in it to do so), and a kind
  // cluster cannot be started again without its apiserver: only a live restore is possible there.
  if (runtime.etcdData && running === undefined) {
    throw new UsageError(`cluster ${record.name} is not running: an etcd snapshot is restored into a ${record.runtime} cluster while it runs`, { hint: `start it first (\`kwokts --name ${record.name} start cluster\`)` });
  }
  const member = runtime.etcdData ? await runtime.etcdData.memberArgs(ctx) : memberArgs(etcd);
  // Into a new directory first: if the snapshot is bad, the cluster's data is untouched.
  const restoreInto = async (bump: bigint | undefined): Promise<void> => {
    await options.executor.remove(r.restored);
    await span('restore: etcdutl snapshot restore', () =>
      explained(`cannot restore ${options.path}`, 'give the --path of an etcd snapshot made by `kwokts snapshot save` (or use --format k8s for a YAML one)', () =>
        options.executor.run({ command: etcdutl, args: ['snapshot', 'restore', options.path, `--data-dir=${r.restored}`, ...member, ...(bump === undefined ? [] : [`--bump-revision=${bump}`, '--mark-compacted'])] }),
      ),
    );
  };
  try {
    try {
      await restoreInto(running?.bump);
    } catch (error) {
      // Tried rather than asked beforehand: starting etcdutl once more costs the common case time.
      if (!running || runtime.etcdData || !(error instanceof ExternalCommandError) || !lacksBump(error.output)) throw error;
      options.logger.info(`${etcdutl} has no --bump-revision: the whole cluster is restarted on the restored data`);
      running = undefined;
      await restoreInto(undefined);
    }
  } catch (error) {
    // Nothing of a failed restore stays behind.
    await options.executor.remove(r.restored);
    throw error;
  }
  if (running === undefined) await restoreWithRestart(r);
  else await restoreLive(r, running);
  await options.executor.remove(r.previous);
  await runtime.etcdData?.dropKept(ctx);
}

/** What a live restore needs from the running etcd, read before it stops. */
interface Live {
  bump: bigint;
  gateway: EtcdGateway;
  /** Its leases' remaining TTLs, granted again if the snapshot lacks them (see grantMissing). */
  leases: Map<string, number>;
}

/**
 * What a live restore needs, or undefined when the cluster must be restarted instead: etcdutl
 * without --bump-revision, etcd or the apiserver not running, or etcd not answering.
 */
async function live(r: Restore): Promise<Live | undefined> {
  const { cluster, options, runtime, ctx } = r;
  const apiserver = cluster.record.components.find((c) => c.name === 'kube-apiserver');
  if (!apiserver) return undefined;
  if (options.executor.dryRun) {
    await options.executor.note(`when etcd and kube-apiserver run: etcd restarts, then kube-controller-manager and kube-scheduler, and --bump-revision is etcd's revision plus ${REVISION_MARGIN}`);
    return { bump: REVISION_MARGIN, gateway: { call: async () => ({}) }, leases: new Map() };
  }
  const gateway = await etcdGateway(cluster.record, cluster.paths);
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(10_000)]);
  const [states, revision, leases] = await Promise.all([
    runtime.status([r.etcd, apiserver], ctx),
    currentRevision(gateway, signal).catch((error: unknown) => error as Error),
    leaseTtls(gateway, signal).catch(() => new Map<string, number>()),
  ]);
  if (states.some((s) => s.state !== 'running')) return undefined;
  if (revision instanceof Error) {
    options.logger.debug(`etcd did not say its revision (${revision.message}): the whole cluster is restarted on the restored data`);
    return undefined;
  }
  return { bump: bumpFor(revision), gateway, leases };
}

/** Swaps the restored data in for etcd's (which becomes `previous`), or back. */
async function swapIn(r: Restore, from: string, keep: string | undefined): Promise<void> {
  const store = r.runtime.etcdData;
  if (store) {
    // The data lives where the runtime keeps it; the restored copy on the host is then spent.
    if (keep) await store.replace(from, r.ctx);
    else await store.putBack(r.ctx);
    await r.options.executor.remove(from);
    return;
  }
  if (r.options.executor.dryRun) return;
  const data = r.cluster.paths.etcdData;
  if (keep) {
    await rm(keep, { recursive: true, force: true });
    await rename(data, keep);
  } else {
    await rm(data, { recursive: true, force: true });
  }
  await rename(from, data);
}

async function portsFree(r: Restore, components: readonly Component[]): Promise<void> {
  if (r.runtime.info().mode === 'native' && !r.options.executor.dryRun) await waitForPortsFree(components, r.cluster.record.options.bindAddress || '127.0.0.1');
}

/** etcd restarts on the restored data, then kcm and the scheduler; done once the apiserver serves it and all is ready. */
async function restoreLive(r: Restore, { bump, gateway, leases }: Live): Promise<void> {
  const { cluster, options, runtime, ctx, etcd } = r;
  const { paths, record } = cluster;
  // Asked as its readiness probe asks it: no kubeconfig to parse, no client code to load.
  const apiserver = record.components.find((c) => c.name === 'kube-apiserver')?.probe;
  // A runtime that keeps etcd's data itself (kind) restarts etcd as it swaps it: inside the try, so
  // a swap that fails half-way is rolled back.
  const inRuntime = runtime.etcdData !== undefined;
  if (!inRuntime) {
    // Killed: its data is replaced, so nothing a graceful shutdown would save is wanted.
    await span('restore: stop etcd', () => runtime.stop([etcd], ctx, { graceMs: 0 }));
    await portsFree(r, [etcd]);
    await swapIn(r, r.restored, r.previous);
  }
  const deadline = Date.now() + DEFAULT_READY_TIMEOUT_MS;
  try {
    if (inRuntime) await span('restore: etcd restarted on the restored data', () => swapIn(r, r.restored, r.previous));
    else await span('restore: start etcd', () => startComponents(runtime, [etcd], ctx, { paths, waitMs: DEFAULT_READY_TIMEOUT_MS, signal: options.signal }));
    // The apiserver attaches new Events to a lease it granted earlier and keeps reusing for up
    // to a minute; one granted after the snapshot is missing from it, and every Event write
    // would fail ("requested lease not found") until the apiserver grants the next.
    if (!options.executor.dryRun) {
      const granted = await grantMissing(gateway, leases, options.signal).catch((error: unknown) => (options.logger.warn(`could not grant etcd's leases again (${(error as Error).message}); Events may fail to be written for up to a minute`), 0));
      mark(`restore: ${granted} leases granted again`);
    }
    if (apiserver && !options.executor.dryRun) await span('restore: apiserver serves the restored data', () => waitServed(apiserver, paths, bump, deadline, options.signal));
    const stale = record.components.filter((c) => RESTARTED_AFTER_RESTORE.has(c.name));
    if (stale.length > 0) {
      await span('restore: kube-controller-manager and kube-scheduler restarted', async () => {
        await runtime.stop(stale, ctx, { graceMs: 0 });
        await portsFree(r, stale);
        await startComponents(runtime, stale, ctx, { paths, waitMs: 0, signal: options.signal });
      });
    }
    // Served is the apiserver's main etcd client reconnected; its readiness check has clients of
    // its own, which after a long etcd outage (kind may stop etcd through its kubelet: about 10 s)
    // may still be backing off. So readiness gets a minute of its own after serving, whatever is
    // left of the deadline.
    const readyBy = Math.max(deadline, Date.now() + READY_AFTER_SERVED_MS);
    await span('restore: components ready', () => waitForComponents(record.components, paths, { deadline: readyBy, signal: options.signal, state: runtimeState(runtime, record.components, ctx) }));
  } catch (error) {
    if (options.signal.aborted) throw error;
    await rollBack(r, error);
  }
}

/** Every component killed, the data swapped, everything started again and waited for. */
async function restoreWithRestart(r: Restore): Promise<void> {
  const { cluster, options, runtime, ctx } = r;
  const { paths, record } = cluster;
  // Killed, not shut down: etcd's data is replaced and every component starts afresh, so nothing
  // is kept that a graceful shutdown would save (the old data, kept for a rollback, recovers from
  // etcd's log as after any crash). A graceful apiserver shutdown alone takes seconds.
  await span('restore: stop components', () => runtime.stop(record.components, ctx, { graceMs: 0 }));
  await portsFree(r, record.components);
  await swapIn(r, r.restored, r.previous);
  try {
    await span('restore: start components', () => startComponents(runtime, record.components, ctx, { paths, waitMs: 0, signal: options.signal }));
  } catch (error) {
    await rollBack(r, error);
  }
}

/**
 * What a rollback says of the failure: its message and, for a failed command, its last lines of
 * output, which say why (the kind runtime's etcd wait prints what crictl and the kubelet saw).
 */
export function rollBackWarning(error: unknown): string {
  const said = error instanceof ExternalCommandError ? summarizeOutput(error.output, 16).map((l) => `\n  ${l}`).join('') : '';
  return `the restored cluster did not become ready (${error instanceof Error ? error.message : String(error)}); putting the previous data back${said}`;
}

/**
 * The cluster back on its previous data, restarted whole (the apiserver may have seen the restored
 * revisions, which the previous data lacks, so its caches must start afresh), and the restore failed.
 */
async function rollBack(r: Restore, error: unknown): Promise<never> {
  const { cluster, options, runtime, ctx } = r;
  const { paths, record } = cluster;
  options.logger.warn(rollBackWarning(error));
  if (runtime.etcdData) {
    // The data is swapped back by what runs in the node (kind), etcd restarted on it, then the
    // whole cluster restarts so the apiserver's caches start afresh.
    await swapIn(r, r.previous, undefined);
    await runtime.stop(record.components, ctx);
  } else {
    await runtime.stop(record.components, ctx, { graceMs: 0 });
    await portsFree(r, record.components);
    await swapIn(r, r.previous, undefined);
  }
  await startComponents(runtime, record.components, ctx, { paths, waitMs: 0, signal: options.signal });
  throw new OperationError(`restore failed: the cluster did not start on the snapshot's data; it runs on its previous data again`, { cause: error });
}

/**
 * Until a list through the apiserver carries a revision of the restored data: from then on every
 * read (a consistent list is checked against etcd's current revision) answers from the snapshot.
 */
async function waitServed(apiserver: ReadinessProbe, paths: LoadedCluster['paths'], bump: bigint, deadline: number, signal: AbortSignal): Promise<void> {
  let last = 'no answer';
  let said = '';
  let tryMs = SERVED_TRY_MS.first;
  for (;;) {
    signal.throwIfAborted();
    // One listener on the command's signal per try, removed after it: AbortSignal.any() left one
    // behind per try until collected, and a restore that waits long tripped Node's leak warning.
    const attempt = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => ((timedOut = true), attempt.abort(new Error('timed out'))), tryMs);
    const onAbort = (): void => attempt.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const { status, body } = await getOnce(apiserver, '/api/v1/namespaces?limit=1', paths, attempt.signal);
      if (status !== 200) last = `HTTP ${status} ${summarizeBody(body)}`;
      else if (servesRestored(JSON.parse(body), bump)) return;
      else last = `still the old data (resourceVersion below ${bump})`;
    } catch (error) {
      last = (error as Error).message.split('\n')[0] ?? 'error';
      if (timedOut) tryMs = Math.min(tryMs + SERVED_TRY_MS.step, SERVED_TRY_MS.max);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
    if (last !== said) mark(`restore: apiserver: ${(said = last)}`);
    if (Date.now() >= deadline) throw new OperationError(`kube-apiserver did not serve the restored data (${last})`);
    await new Promise((resolve) => setTimeout(resolve, SERVED_POLL_MS));
  }
}
