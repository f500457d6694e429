/**
 * `stop cluster` and `start cluster`: the same cluster, its data kept, its processes gone or back.
 * Start is also how a crashed component comes back: everything not running is started again,
 * in dependency order, and the cluster is only reported ready once every component is.
 */
import type { Executor } from '../exec/executor.js';
import { OperationError, PreflightError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { loadRuntime } from '../../runtimes/load.js';
import type { ComponentStatus, Runtime, RuntimeContext } from '../../runtimes/runtime.js';
import { startGroups, type Component, type ComponentName } from '../components/index.js';
import { probeOnce } from './probe.js';
import { lockCluster } from './lock.js';
import { isPortInUse, waitForPortsFree } from './ports.js';
import { assertManageable, loadCluster, type LoadedCluster } from './record.js';
import { startComponents, type WaitFor } from './start-components.js';
import { ComponentExitedError, NotReadyError } from './wait.js';
import { componentFailure, notReadyFailure } from './log-tail.js';
import { ownerMarker } from '../naming/naming.js';
import { freeSpaceHint } from '../util/disk-full.js';

export interface LifecycleOptions {
  name: string;
  workdir: string;
  executor: Executor;
  logger: Logger;
  signal?: AbortSignal;
}

export interface StopResult {
  /** Components that were running and have been stopped. */
  stopped: ComponentName[];
}

export async function stopCluster(options: LifecycleOptions): Promise<StopResult> {
  return withCluster(options, async ({ record }, runtime, ctx) => {
    const running = (await runtime.status(record.components, ctx)).filter((s) => s.state === 'running').map((s) => s.name);
    // Crashed components leave pid files behind; stopping clears them too, so a later start is clean.
    // Each runtime's own grace: processes get 10s to shut down cleanly, containers are stopped
    // at once, as kwokctl stops them.
    await runtime.stop(record.components, ctx);
    return { stopped: running };
  });
}

export interface StartOptions extends LifecycleOptions {
  /** How long to wait for readiness; 0 means the default (2m). */
  waitMs: number;
  /** Wait for every component (default) or only until kube-apiserver serves (kwokctl's --wait 0). */
  waitFor?: WaitFor;
  onReady?: (name: ComponentName, elapsedMs: number) => void;
}

export interface StartResult {
  /** Components that were not running (stopped or crashed) and have been started. */
  started: ComponentName[];
  /** Of those, the ones that had crashed (their process had exited on its own). */
  restarted: ComponentName[];
}

export async function startCluster(options: StartOptions): Promise<StartResult> {
  return withCluster(options, async ({ record, paths }, runtime, ctx) => {
    const statuses = await runtime.status(record.components, ctx);
    const notRunning = statuses.filter((s) => s.state !== 'running');
    const restarted = notRunning.filter((s) => s.state === 'exited').map((s) => s.name);
    await stopOrphans(record.components, notRunning, ctx, record.options.bindAddress);
    await checkPortsFree(record.components, notRunning, record.options.bindAddress);
    // A crashed component's stale pid file must not be mistaken for a running process.
    const crashed = record.components.filter((c) => restarted.includes(c.name));
    if (crashed.length > 0) await runtime.stop(crashed, ctx, { graceMs: 0 });
    // A running component that depends on one that is down and is not ready itself has been
    // failing to reach it and may have backed off for minutes (the apiserver after an etcd
    // crash): restart it with what it depends on.
    const dependents = await staleDependents(record.components, new Set(notRunning.map((s) => s.name)), paths);
    if (dependents.length > 0) {
      options.logger.info(`restarting ${dependents.map((c) => c.name).join(', ')}: not ready while ${notRunning.map((s) => s.name).join(', ')} ${notRunning.length > 1 ? 'are' : 'is'} down`);
      await runtime.stop(dependents, ctx, { graceMs: 0 });
      // A killed multi-threaded process is reported gone (its main thread a zombie) while its
      // other threads still hold its listening sockets: wait for the ports before starting again.
      await waitForPortsFree(dependents, record.options.bindAddress || '127.0.0.1');
    }
    try {
      await startComponents(runtime, record.components, ctx, {
        paths,
        waitMs: options.waitMs,
        ...(options.waitFor ? { waitFor: options.waitFor } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onReady ? { onReady: options.onReady } : {}),
      });
    } catch (error) {
      if (error instanceof ComponentExitedError) {
        const failure = await componentFailure(`start failed: ${error.component} exited during start-up`, runtime, error.component, ctx);
        throw new OperationError(failure.message, {
          hint: failure.diskFull ? freeSpaceHint(paths.root) : `look at \`kwokts --name ${options.name} logs ${error.component}\`; the cluster's data is untouched`,
          cause: error,
        });
      }
      if (error instanceof NotReadyError) {
        throw await notReadyFailure(error, runtime, ctx, `look at \`kwokts --name ${options.name} logs <component>\`, or give it longer with --wait; the cluster's data is untouched`);
      }
      throw error;
    }
    return { started: [...notRunning.map((s) => s.name), ...dependents.map((c) => c.name)], restarted };
  });
}

/** Running components that (transitively) link to a down one and do not answer their probe now. */
async function staleDependents(components: readonly Component[], down: ReadonlySet<ComponentName>, paths: LoadedCluster['paths']): Promise<Component[]> {
  if (down.size === 0) return [];
  const candidates = components.filter((c) => !down.has(c.name));
  const ready = new Map(await Promise.all(candidates.map(async (c) => [c.name, (await probeOnce(c.probe, paths, 1500)).ok] as const)));
  const restart = new Set<ComponentName>(down);
  const stale: Component[] = [];
  // Links point down the start order, so one pass in that order sees every transitive link.
  for (const c of startGroups(components).flat()) {
    if (restart.has(c.name) || ready.get(c.name) !== false) continue;
    if (c.links.some((l) => restart.has(l))) {
      restart.add(c.name);
      stale.push(c);
    }
  }
  return stale;
}

/**
 * A component down by its pid file may still run without it: a create or start killed between
 * starting it and writing the file leaves it holding its ports. Its owner mark finds it; it is
 * stopped, so that the start brings up the cluster instead of failing on its own ports.
 */
async function stopOrphans(components: readonly Component[], notRunning: readonly ComponentStatus[], ctx: RuntimeContext, bindAddress: string): Promise<void> {
  const down = components.filter((c) => notRunning.some((s) => s.name === c.name));
  const killed = await Promise.all(down.map(async (c) => ({ component: c, pids: await ctx.executor.killMarked({ marker: ownerMarker(ctx.paths, c.name) }) })));
  const orphans = killed.filter((k) => k.pids.length > 0);
  if (orphans.length === 0) return;
  ctx.logger.warn(`stopped ${orphans.map((o) => `${o.component.name} (pid ${o.pids.join(', ')})`).join(', ')} of cluster ${ctx.cluster}, left running without ${orphans.length === 1 ? 'its pid file' : 'their pid files'} by an earlier create or start`);
  await waitForPortsFree(orphans.map((o) => o.component), bindAddress || '127.0.0.1');
}

/** A recorded port now held by something else would make a component crash-loop: say so first. */
async function checkPortsFree(components: readonly Component[], notRunning: readonly ComponentStatus[], bindAddress: string): Promise<void> {
  const names = new Set(notRunning.map((s) => s.name));
  for (const component of components) {
    if (!names.has(component.name)) continue;
    for (const port of component.ports) {
      if (await isPortInUse(port.port, bindAddress || '127.0.0.1')) {
        throw new PreflightError(`port ${port.port} of ${component.name} (${port.name}) is in use by another process`, {
          hint: 'stop whatever holds it (e.g. `ss -ltnp`), then start the cluster again',
        });
      }
    }
  }
}

async function withCluster<T>(
  options: LifecycleOptions,
  act: (cluster: LoadedCluster, runtime: Runtime, ctx: RuntimeContext) => Promise<T>,
): Promise<T> {
  const cluster = await loadCluster(options.workdir, options.name);
  assertManageable(cluster.record);
  const release = options.executor.dryRun ? async () => undefined : await lockCluster(options.workdir, options.name);
  try {
    const runtime = await loadRuntime(cluster.record.runtime);
    const ctx: RuntimeContext = {
      cluster: options.name,
      paths: cluster.paths,
      executor: options.executor,
      logger: options.logger,
      programs: new Map(Object.entries(cluster.record.programs)),
      clusterComponents: cluster.record.components,
      ...(options.signal ? { signal: options.signal } : {}),
    };
    return await act(cluster, runtime, ctx);
  } finally {
    await release();
  }
}
