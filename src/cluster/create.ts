/**
 * `create cluster`: refuse bad input, take the cluster's lock, then plan (create-plan.ts) and
 * apply (apply-plan.ts). A cluster that exists and is ready is left as it is; one that exists
 * and is not ready is continued (started and waited for), as kwokctl does.
 */
import { existsSync } from 'node:fs';
import { checkMergeable, mergeContext, resolveUserKubeconfigPath } from '../kube/index.js';
import { COMPONENT_NAMES, DEFAULT_COMPONENTS, KWOKCTL_COMPONENTS_NOT_RUN, REQUIRED_COMPONENTS, type ComponentName } from '../components/index.js';
import { resolveImages } from '../artifacts/images.js';
import type { LoadedConfig } from '../config/load.js';
import { applyHeartbeatFactor, componentSelection } from '../config/resolve.js';
import type { ClusterOptionValues } from '../config/options.js';
import { clusterVersions } from '../config/versions.js';
import type { Executor } from '../exec/executor.js';
import { KwoktsError, UsageError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { loadRuntime } from '../../runtimes/load.js';
import type { Runtime } from '../../runtimes/runtime.js';
import { applyPlan } from './apply-plan.js';
import { checkCrdKinds, initClusterObjects } from './crds.js';
import { componentsOfMode, planCreate } from './create-plan.js';
import { clusterEntryOf } from './create-steps.js';
import { lockCluster } from './lock.js';
import { clusterPaths, contextName, type ClusterPaths } from '../naming/naming.js';
import { loadCluster } from './record.js';
import type { PhaseRunner } from './phases.js';
import type { WaitFor } from './start-components.js';
import { isClusterReady } from './status.js';
import { optionSource, validateClusterValues } from './validate.js';
import { mark } from '../util/timeline.js';

export interface CreateClusterOptions {
  name: string;
  workdir: string;
  config: LoadedConfig;
  /** Every option, resolved (flags, KWOK_* variables, config files, defaults): see src/config/resolve.ts. */
  values: ClusterOptionValues;
  /** What the flags and environment gave, so a bad value's error names the flag or variable it came from. */
  sources?: { flags: Partial<Record<keyof ClusterOptionValues, unknown>>; env: NodeJS.ProcessEnv };
  /** The user's kubeconfig to add the context to; empty string skips it. */
  userKubeconfig: string;
  /** How long to wait for readiness; 0 means the default. */
  waitMs: number;
  /** Wait for every component (default) or only until kube-apiserver serves (kwokctl's --wait 0). */
  waitFor?: WaitFor;
  /** Keep a failed cluster for debugging instead of rolling it back. */
  retain: boolean;
  logLevel: number;
  executor: Executor;
  logger: Logger;
  signal: AbortSignal;
  runPhases?: PhaseRunner;
  /**
   * Called at the commit point, synchronously: the cluster is complete and will not be rolled
   * back, so an interrupt from now on must not turn a finished create into a failure.
   */
  onCommit?: () => void;
}

export interface CreateClusterResult {
  name: string;
  alreadyExisted: boolean;
  apiserver: string;
  kubeconfig: string;
  context: string;
  elapsedMs: number;
}

/** The user's kubeconfig a create adds its context to, from --kubeconfig: "" skips it, absent is $KUBECONFIG or ~/.kube/config. */
export function userKubeconfigFor(flag: string | undefined): string {
  return flag === '' ? '' : resolveUserKubeconfigPath(flag);
}

export async function createCluster(options: CreateClusterOptions): Promise<CreateClusterResult> {
  const started = Date.now();
  mark('create: command parsed');
  const { name, workdir, executor } = options;
  const paths = clusterPaths(workdir, name);
  // kwokctl applies the heartbeat factor once, here; the record keeps the multiplied values.
  const values = applyHeartbeatFactor(options.values);
  const selection = componentSelection(values);
  const chosen = chooseComponents(selection.enable, selection.disable, selection.base);
  validateClusterValues(values, options.sources?.flags ?? {}, options.sources?.env ?? {});
  // A kubeconfig we could not add the context to is found now, not after every component started.
  if (options.userKubeconfig && !executor.dryRun) await checkMergeable(options.userKubeconfig, clusterEntryOf(name, paths, 'https://127.0.0.1:1'));
  if (existsSync(paths.config)) return existing(options, paths, started);

  const runtimeName = values.runtime || (await detectRuntimeFor(values, chosen, options.logger));
  // The binary runtime alone (the usual case) loads no container engine, kind or artifact code.
  const runtime = await loadRuntime(runtimeName).catch((error: unknown) => {
    // An unknown runtime the user named: said with the flag, variable or field that named it.
    if (values.runtime !== '' && KwoktsError.is(error) && error.code === 'USAGE') {
      throw new UsageError(`${optionSource('runtime', options.sources?.flags ?? {}, options.sources?.env ?? {})}: ${error.message}`, { ...(error.hint ? { hint: error.hint } : {}), cause: error });
    }
    throw error;
  });
  // kwokctl makes scheduler-plugins a container of its compose runtimes only (binary and kind leave it out without a word).
  if (chosen.includes('scheduler-plugins') && runtime.info().mode !== 'container') {
    throw new UsageError(`scheduler-plugins runs only on the docker, podman and nerdctl runtimes, not on ${runtimeName}`, { hint: 'pass --runtime docker (or podman, nerdctl), or leave scheduler-plugins out' });
  }
  const components = componentsOfMode(runtime.info().mode, chosen);
  // Dry-run takes no lock: it changes nothing, so it cannot race.
  const release = executor.dryRun ? async () => undefined : await lockCluster(workdir, name);
  try {
    if (!existsSync(paths.config)) return await createLocked(options, { values: { ...values, runtime: runtimeName }, runtime, components, started });
  } finally {
    await release();
  }
  // Made by another create while this one waited for the lock; continued without it (start takes it).
  return existing(options, paths, started);
}

async function createLocked(options: CreateClusterOptions, input: { values: ClusterOptionValues; runtime: Runtime; components: ComponentName[]; started: number }): Promise<CreateClusterResult> {
  const plan = await planCreate({
    name: options.name,
    workdir: options.workdir,
    config: options.config,
    values: input.values,
    runtime: input.runtime,
    components: input.components,
    userKubeconfig: options.userKubeconfig,
    waitMs: options.waitMs,
    ...(options.waitFor ? { waitFor: options.waitFor } : {}),
    logLevel: options.logLevel,
  });
  await applyPlan(plan, {
    executor: options.executor,
    logger: options.logger,
    signal: options.signal,
    retain: options.retain,
    ...(options.runPhases ? { runPhases: options.runPhases } : {}),
    ...(options.onCommit ? { onCommit: options.onCommit } : {}),
  });
  return {
    name: options.name,
    alreadyExisted: false,
    apiserver: plan.server,
    kubeconfig: plan.paths.kubeconfig,
    context: contextName(options.name),
    elapsedMs: Date.now() - input.started,
  };
}

async function existing(options: CreateClusterOptions, paths: ClusterPaths, started: number): Promise<CreateClusterResult> {
  const { record } = await loadCluster(options.workdir, options.name);
  if (!(await isClusterReady(record, paths, options.logger))) {
    // kwokctl continues a cluster that is not ready: what is not running is started, and the
    // create waits (its --wait) for every component, as `start cluster` does. One answer that
    // came late (a loaded machine, a create killed while components started) is no failure.
    options.logger.info(`cluster ${options.name} already exists and is not ready yet; continuing it`);
    const { startCluster } = await import('./lifecycle.js');
    await startCluster({
      name: options.name, workdir: options.workdir, executor: options.executor, logger: options.logger, signal: options.signal, waitMs: options.waitMs,
      ...(options.waitFor ? { waitFor: options.waitFor } : {}),
    });
    // Then, as kwokctl's continue does, what the first create puts into a serving cluster
    // (its CRDs, their objects, metrics-server's APIService). Every create records kubectl.
    const kubectl = record.programs.kubectl;
    if (kubectl) {
      await initClusterObjects({
        kinds: checkCrdKinds(record.options.enableCRDs ?? []), metricsServer: record.components.some((c) => c.name === 'metrics-server'),
        schedulerPlugins: record.components.some((c) => c.name === 'scheduler-plugins'), kubectl, paths, executor: options.executor,
      });
    }
  }
  const apiserver = record.components.find((c) => c.name === 'kube-apiserver');
  const server = `https://127.0.0.1:${apiserver?.probe?.port ?? 0}`;
  // A create that was killed before it added the context left a ready cluster the user cannot
  // reach by context: add it now (made current only if it was missing, as a first create would).
  if (options.userKubeconfig && !options.executor.dryRun && apiserver?.probe?.port) {
    const entry = clusterEntryOf(options.name, paths, server);
    const added = await mergeContext(options.userKubeconfig, entry, { makeCurrent: false });
    if (added.written !== undefined) {
      await mergeContext(options.userKubeconfig, entry, { makeCurrent: true });
      options.logger.info(`added context ${contextName(options.name)} to ${options.userKubeconfig}`);
    }
  }
  return {
    name: options.name,
    alreadyExisted: true,
    apiserver: server,
    kubeconfig: paths.kubeconfig,
    context: contextName(options.name),
    elapsedMs: Date.now() - started,
  };
}

export function chooseComponents(enable: readonly string[], disable: readonly string[], base: readonly string[] = []): ComponentName[] {
  const known = new Set<string>(COMPONENT_NAMES);
  const notRun = new Set<string>(KWOKCTL_COMPONENTS_NOT_RUN);
  // Disabling one of them asks for what is so anyway.
  const removed = disable.filter((n) => !notRun.has(n));
  for (const n of [...base, ...enable, ...removed]) {
    if (notRun.has(n)) {
      throw new UsageError(`component ${n} is one of kwokctl's extras that kwokts does not run yet`, { hint: `leave it out (the components kwokts runs: ${COMPONENT_NAMES.join(', ')}), or use kwokctl for it` });
    }
    if (!known.has(n)) throw new UsageError(`unknown component ${JSON.stringify(n)}`, { hint: `components: ${COMPONENT_NAMES.join(', ')}` });
  }
  for (const n of removed) {
    if ((REQUIRED_COMPONENTS as readonly string[]).includes(n)) throw new UsageError(`component ${n} cannot be disabled`, { hint: 'a cluster always runs etcd and kube-apiserver' });
  }
  const set = new Set<string>([...(base.length > 0 ? base : DEFAULT_COMPONENTS), ...enable]);
  for (const n of removed) set.delete(n);
  const missing = REQUIRED_COMPONENTS.filter((n) => !set.has(n));
  if (missing.length > 0) throw new UsageError(`--components leaves out ${missing.join(' and ')}`, { hint: 'a cluster always runs etcd and kube-apiserver' });
  return COMPONENT_NAMES.filter((n) => set.has(n));
}

/** Auto-detection (no --runtime): an engine counts only if it can get this cluster's images. */
async function detectRuntimeFor(values: ClusterOptionValues, components: readonly ComponentName[], logger: Logger): Promise<string> {
  const { kubeVersion, etcdVersion } = clusterVersions(values);
  const images = resolveImages(values, kubeVersion, etcdVersion, components);
  const { detectRuntime } = await import('../../runtimes/registry.js');
  const name = await detectRuntime({
    images: components.map((c) => images[c]).filter((i): i is string => i !== undefined),
    onSkip: (runtime, reason) => logger.info(`not using ${runtime}: ${reason} (pass --runtime ${runtime} to use it anyway)`),
    ...(values.runtimes.length > 0 ? { order: values.runtimes } : {}),
  });
  logger.debug(`runtime: ${name} (detected)`);
  return name;
}
