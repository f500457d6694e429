import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { buildClusterEntry, buildClusterKubeconfig, checkMergeable, mergeContext, renderKubeconfig, restoreKubeconfig, type KubeconfigSnapshot } from '../kube/index.js';
import { buildComponents, COMPONENT_NAMES, DEFAULT_COMPONENTS, HOST_PLACEMENT, networkPlacement, REQUIRED_COMPONENTS, type ClusterSpec, type Component, type ComponentName, CONTAINER_PORTS, METRICS_API_SERVICE, metricsServerManifests } from '../components/index.js';
import { resolveImages, resolveKindNodeImage } from '../artifacts/images.js';
import type { LoadedConfig } from '../config/load.js';
import { applyHeartbeatFactor, componentSelection } from '../config/resolve.js';
import type { ClusterOptionValues } from '../config/options.js';
import { clusterVersions } from '../config/versions.js';
import type { Executor } from '../exec/executor.js';
import { ConflictError, InterruptedError, KwoktsError, OperationError, PreflightError, UsageError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { createRuntime, detectRuntime } from '../../runtimes/registry.js';
import type { Runtime, RuntimeContext } from '../../runtimes/runtime.js';
import { resolveKindBinary } from '../artifacts/kind.js';
import { applyManifests, checkCrdKinds, installCrds } from './crds.js';
import { lockCluster } from './lock.js';
import { clusterPaths, contextName, runtimeObjectName, type ClusterPaths } from '../naming/naming.js';
import { allocatePorts, isPortInUse } from './ports.js';
import { KWOKTS_VERSION, loadCluster, portsOfOtherClusters, renderRecord, type ClusterRecord } from './record.js';
import { Journal } from './transaction.js';
import { runPhasesQuietly, type Phase, type PhaseRunner } from './phases.js';
import { ComponentExitedError } from './wait.js';
import { logTail } from './log-tail.js';
import { startComponents, type WaitFor } from './start-components.js';
import { cacheDirOf, resolvePrograms } from './programs.js';
import { packageRoot } from '../util/package-root.js';
import { defaultStageDocuments, withDefaultMetrics } from './default-stages.js';
import { isClusterReady } from './status.js';
import { validateClusterValues } from './validate.js';
import { unrunnableReason } from '../exec/process.js';
import { writePki } from './write-pki.js';

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

export async function createCluster(options: CreateClusterOptions): Promise<CreateClusterResult> {
  const started = Date.now();
  const { name, workdir, executor } = options;
  const paths = clusterPaths(workdir, name);
  // kwokctl applies the heartbeat factor once, here; the record keeps the multiplied values.
  const values = applyHeartbeatFactor(options.values);
  const selection = componentSelection(values);
  const chosen = chooseComponents(selection.enable, selection.disable, selection.base);
  validateClusterValues(values, options.sources?.flags ?? {}, options.sources?.env ?? {});
  // A kubeconfig we could not add the context to is found now, not after every component started.
  if (options.userKubeconfig && !executor.dryRun) await checkMergeable(options.userKubeconfig, clusterEntry(name, paths, 'https://127.0.0.1:1'));
  if (existsSync(paths.config)) return existing(options, paths, started);

  const runtimeName = values.runtime || (await detectRuntimeFor(values, chosen, options.logger));
  const runtime = createRuntime(runtimeName);
  // A real cluster (kind) brings its own control plane; only the controller is ours to deploy.
  const components = runtime.info().mode === 'cluster' ? chosen.filter((c) => c === 'kube-apiserver' || c === 'kwok-controller') : chosen;

  // Dry-run takes no lock: it changes nothing, so it cannot race.
  const release = executor.dryRun ? async () => undefined : await lockCluster(workdir, name);
  try {
    if (existsSync(paths.config)) return await existing(options, paths, started);
    return await createLocked(options, { paths, values: { ...values, runtime: runtimeName }, runtime, components, started });
  } finally {
    await release();
  }
}

interface Plan {
  paths: ClusterPaths;
  values: ClusterOptionValues;
  runtime: Runtime;
  components: ComponentName[];
  started: number;
}

async function createLocked(options: CreateClusterOptions, plan: Plan): Promise<CreateClusterResult> {
  const { executor, logger, name, signal } = options;
  const { paths, values, runtime } = plan;
  const { kubeVersion, etcdVersion } = clusterVersions(values);
  const journal = new Journal(logger);
  const runPhases = options.runPhases ?? runPhasesQuietly;
  let userSnapshot: KubeconfigSnapshot | undefined;

  const avoid = await portsOfOtherClusters(options.workdir, name);
  const enabled = new Set(plan.components);
  await checkExplicitPorts(values, enabled, avoid);
  const ports = await allocatePorts(
    {
      etcdPeer: values.etcdPeerPort,
      etcd: values.etcdPort,
      etcdMetrics: 0,
      kubeApiserver: values.kubeApiserverPort,
      kwokController: enabled.has('kwok-controller') ? values.kwokControllerPort : -1,
      kubeControllerManager: enabled.has('kube-controller-manager') ? values.kubeControllerManagerPort : -1,
      kubeScheduler: enabled.has('kube-scheduler') ? values.kubeSchedulerPort : -1,
      prometheus: enabled.has('prometheus') ? values.prometheusPort : -1,
      metricsServer: enabled.has('metrics-server') ? values.metricsServerPort : -1,
      jaeger: enabled.has('jaeger') ? values.jaegerPort : -1,
      jaegerOtlpGrpc: enabled.has('jaeger') ? values.jaegerOtlpGrpcPort : -1,
    },
    avoid,
  );
  // Containers reach each other by name on the cluster network; host processes on loopback.
  const mode = runtime.info().mode;
  const inContainers = mode === 'container';
  const crdKinds = checkCrdKinds(values.enableCRDs);
  const spec: ClusterSpec = {
    name,
    paths,
    options: values,
    kubeVersion,
    etcdVersion,
    ports,
    components: plan.components,
    logLevel: options.logLevel,
    kwokControllerEntry: kwokControllerExecutable(),
    enableCrds: crdKinds,
    logDirs: directoriesOf(options.config.logFiles),
    placement: inContainers ? networkPlacement(name) : HOST_PLACEMENT,
    ...(mode !== 'native' ? { images: componentImages(mode, values, kubeVersion, etcdVersion) } : {}),
  };
  const stageDocuments = withDefaultStages(options.config.kwokDocuments).filter((d) => d.kind === 'Stage');
  // A broken Stage of the user's is bad input: say so before anything is made, naming file and
  // stage. Loaded lazily: the stage engine is heavy and the default stages are tested already.
  const userStages = options.config.kwokDocuments.filter((d) => d.kind === 'Stage');
  if (userStages.length > 0) {
    const { parseStages } = await import('../kwok/api/index.js');
    const [invalidStage] = parseStages(userStages, options.config.sources.join(', ') || 'config').errors;
    if (invalidStage) throw invalidStage;
  }
  // The controller's own config (KwokConfiguration options, Logs) is checked now, not when it starts.
  if (options.config.kwokDocuments.length > 0) {
    const { checkConfigDocuments } = await import('../kwok/index.js');
    const problem = checkConfigDocuments(options.config.kwokDocuments.filter((d) => d.kind !== 'Stage'), options.config.sources.join(', ') || 'config');
    if (problem) throw new UsageError(problem, { hint: 'fix the file named above; `kwokts config view` shows what is read' });
  }
  const stagesAsCrs = crdKinds.includes('Stage');
  const servedAsCrs = new Set<string>(crdKinds);
  // Objects of a kind served as a custom resource are created in the cluster instead of being
  // written into the controller's config (kwokctl leaves them out of kwok.yaml too).
  const crObjects = [...(stagesAsCrs ? stageDocuments : []), ...options.config.kwokDocuments.filter((d) => d.kind !== 'Stage' && servedAsCrs.has(String(d.kind)))];
  const components = buildComponents(spec, options.config.componentsPatches, options.config.components);
  // kwokctl with metrics-server: the kubelet's /metrics/resource and usage from annotations, unless given.
  const withMetricsDefaults = (docs: Array<Record<string, unknown>>): Array<Record<string, unknown>> => (enabled.has('metrics-server') ? withDefaultMetrics(docs, servedAsCrs) : docs);
  const server = `https://127.0.0.1:${ports.kubeApiserver}`;
  // kind: the one given, else on PATH, else built from its Go module (its releases are GitHub downloads).
  const cacheDir = cacheDirOf(values, options.workdir);
  const hostPrograms: Array<[string, string]> = mode === 'cluster' ? [['kind', executor.dryRun ? values.kindBinary || 'kind' : await resolveKindBinary(values, { cacheDir, logger, signal })]] : [];
  let programs: Map<string, string> = new Map(hostPrograms);
  const ctx = (): RuntimeContext => ({ cluster: name, paths, executor, logger, programs, signal, quietPull: values.quietPull, clusterComponents: components, cacheDir });
  // Undos run after an interrupt too: they get a signal of their own, never the aborted one.
  const undoCtx = (): RuntimeContext => ({ ...ctx(), signal: new AbortController().signal });
  // The engine must answer (and the cluster's names be free) before anything is made.
  await runtime.check(ctx());

  const phases: Phase[] = [
    {
      title: 'Resolve binaries',
      run: async (update) => {
        // Container images bring their own binaries; the host still needs kubectl and etcdctl.
        const resolved = await resolvePrograms(mode === 'native' ? components : [], { values, kubeVersion, etcdVersion, workdir: options.workdir, executor, logger, signal, onProgress: update });
        programs = new Map([...hostPrograms, ...resolved]);
        if (!executor.dryRun) await checkPrograms(mode === 'native' ? components : [], programs);
      },
    },
    {
      title: 'Write cluster files',
      run: async () => {
        await journal.step('remove cluster directory', () => executor.remove(paths.root), async () => {
          // Private: keys, kubeconfigs, etcd's data and logs are the cluster owner's alone.
          await executor.mkdirp(paths.root, { mode: 0o700 });
          await executor.mkdirp(paths.pids);
          await executor.mkdirp(paths.logs);
          await executor.mkdirp(paths.etcdData, { mode: 0o700 });
        });
        // Containers name the apiserver (and the controller) by container name: their certificate must too.
        await writePki(executor, paths, {
          apiserverSans: [...(inContainers ? ['kube-apiserver', 'kwok-controller'].map((c) => runtimeObjectName(name, c)) : []), ...values.kubeApiserverCertSANs],
          etcdDnsSans: inContainers ? [runtimeObjectName(name, 'etcd')] : [],
          rbac: values.kubeAuthorization,
        });
        await copyUserFiles(executor, values, paths, inContainers ? paths.networkKubeconfig : paths.kubeconfig);
        for (const component of components) for (const file of component.files ?? []) await executor.writeFile(file.path, file.content);
        const kubeconfig = buildClusterKubeconfig({ name: contextName(name), server, caFile: paths.caCert, certFile: paths.adminCert, keyFile: paths.adminKey });
        await executor.writeFile(paths.kubeconfig, renderKubeconfig(kubeconfig), { mode: 0o600 });
        if (inContainers) {
          const inNetwork = buildClusterKubeconfig({ name: contextName(name), server: `https://${runtimeObjectName(name, 'kube-apiserver')}:${CONTAINER_PORTS.kubeApiserver}`, caFile: paths.caCert, certFile: paths.adminCert, keyFile: paths.adminKey });
          await executor.writeFile(paths.networkKubeconfig, renderKubeconfig(inNetwork), { mode: 0o600 });
        }
        const record: ClusterRecord = {
          name,
          runtime: runtime.info().name,
          options: { ...values, kubeVersion, etcdVersion },
          componentsPatches: options.config.componentsPatches,
          components,
          programs: Object.fromEntries(programs),
          kwokDocuments: withMetricsDefaults(stagesAsCrs ? options.config.kwokDocuments : withDefaultStages(options.config.kwokDocuments)).filter((d) => !servedAsCrs.has(String(d.kind))),
          version: KWOKTS_VERSION,
        };
        await executor.writeFile(paths.config, renderRecord(record, paths.root), { mode: 0o600 });
      },
    },
    {
      title: `Start ${components.map((c) => c.name).join(', ')}`,
      run: async (update) => {
        // The undo also removes what the runtime made outside the directory (containers, network).
        const undo = async (): Promise<void> => {
          await runtime.stop(components, undoCtx(), { graceMs: 0 });
          await runtime.remove(undoCtx());
        };
        await journal.step('stop and remove components', undo, () =>
          startComponents(runtime, components, ctx(), {
            paths,
            waitMs: options.waitMs,
            ...(options.waitFor ? { waitFor: options.waitFor } : {}),
            signal,
            onReady: (n, ms) => update(`${n} ready in ${(ms / 1000).toFixed(1)}s`),
          }),
        );
      },
    },
  ];
  if (crdKinds.length > 0) {
    phases.push({
      title: `Install the ${crdKinds.join(', ')} CRD${crdKinds.length > 1 ? 's' : ''}${crObjects.length > 0 ? ' and objects' : ''}`,
      // Inside the cluster: removed with it on rollback, so no undo of its own.
      run: () => installCrds({ kinds: crdKinds, objects: crObjects, kubectl: programs.get('kubectl')!, paths, executor }),
    });
  }
  if (enabled.has('metrics-server')) {
    phases.push({
      title: `Register metrics-server as the APIService ${METRICS_API_SERVICE}`,
      // Inside the cluster: removed with it on rollback, so no undo of its own.
      run: () => applyManifests(metricsServerManifests(spec), join(paths.root, 'metrics-server.yaml'), programs.get('kubectl')!, paths, executor),
    });
  }
  if (options.userKubeconfig) {
    phases.push({
      title: `Add context ${contextName(name)} to ${options.userKubeconfig}`,
      run: async () => {
        if (executor.dryRun) {
          await executor.note(`Add context ${contextName(name)} to ${options.userKubeconfig}`);
          return;
        }
        await journal.step('restore user kubeconfig', async () => {
          if (userSnapshot) await restoreKubeconfig(options.userKubeconfig, userSnapshot);
        }, async () => {
          userSnapshot = await mergeContext(options.userKubeconfig, clusterEntry(name, paths, server), { makeCurrent: true });
        });
      },
    });
  }

  try {
    // An interrupt is honoured at every phase boundary, and once more right before the commit:
    // a create is either rolled back whole or finished whole, whenever the signal comes.
    await runPhases(phases.map((phase) => ({
      title: phase.title,
      run: async (update) => {
        signal.throwIfAborted();
        await phase.run(update);
        signal.throwIfAborted();
      },
    })));
    signal.throwIfAborted();
    journal.commit();
    options.onCommit?.();
  } catch (error) {
    const primary = await explainFailure(error, runtime, components, ctx(), signal);
    if (options.retain) {
      logger.warn(`keeping the failed cluster ${name} for debugging (--retain); delete it with \`kwokts --name ${name} delete cluster\``);
    } else {
      const failures = await journal.rollback();
      if (primary instanceof KwoktsError) primary.suppressed.push(...failures);
    }
    throw primary;
  }
  return {
    name,
    alreadyExisted: false,
    apiserver: server,
    kubeconfig: paths.kubeconfig,
    context: contextName(name),
    elapsedMs: Date.now() - plan.started,
  };
}

/** A port the user chose that is already taken fails before anything is changed. */
async function checkExplicitPorts(values: ClusterOptionValues, enabled: ReadonlySet<ComponentName>, recorded: ReadonlySet<number>): Promise<void> {
  const explicit: Array<[string, number, boolean]> = [
    ['--kube-apiserver-port', values.kubeApiserverPort, true],
    ['--etcd-port', values.etcdPort, true],
    ['--kube-controller-manager-port', values.kubeControllerManagerPort, enabled.has('kube-controller-manager')],
    ['--kube-scheduler-port', values.kubeSchedulerPort, enabled.has('kube-scheduler')],
    ['--controller-port', values.kwokControllerPort, enabled.has('kwok-controller')],
    ['--prometheus-port', values.prometheusPort, enabled.has('prometheus')],
    ['options.metricsServerPort', values.metricsServerPort, enabled.has('metrics-server')],
    ['--jaeger-port', values.jaegerPort, enabled.has('jaeger')],
  ];
  for (const [flag, port, used] of explicit) {
    if (!used || port <= 0) continue;
    if (recorded.has(port) || (await isPortInUse(port, values.bindAddress))) {
      throw new PreflightError(`port ${port} (${flag}) is already in use`, { hint: `choose another port, or leave ${flag} unset to pick a free one` });
    }
  }
}

async function existing(options: CreateClusterOptions, paths: ClusterPaths, started: number): Promise<CreateClusterResult> {
  const { record } = await loadCluster(options.workdir, options.name);
  const ready = await isClusterReady(record, paths, options.logger);
  if (!ready) {
    throw new ConflictError(`cluster ${options.name} already exists but is not ready`, {
      hint: `start it with \`kwokts --name ${options.name} start cluster\`, or delete it with \`kwokts --name ${options.name} delete cluster\``,
    });
  }
  const apiserver = record.components.find((c) => c.name === 'kube-apiserver');
  const server = `https://127.0.0.1:${apiserver?.probe?.port ?? 0}`;
  // A create that was killed before it added the context left a ready cluster the user cannot
  // reach by context: add it now (made current only if it was missing, as a first create would).
  if (options.userKubeconfig && !options.executor.dryRun && apiserver?.probe?.port) {
    const entry = clusterEntry(options.name, paths, server);
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

/** A binary that cannot run here (a download error page, another OS's build) is named before anything starts. */
async function checkPrograms(components: readonly Component[], programs: ReadonlyMap<string, string>): Promise<void> {
  for (const component of components) {
    const path = 'path' in component.program ? component.program.path : programs.get(component.program.artifact);
    if (!path || !isAbsolute(path)) continue;
    const reason = await unrunnableReason(path);
    if (reason) {
      const flag = 'artifact' in component.program ? `--${component.program.artifact}-binary` : 'the component\'s binary';
      throw new PreflightError(`${component.name}: ${path} is ${reason}`, { hint: `give ${flag} a ${process.platform}/${process.arch} build of ${component.name}` });
    }
  }
}

function clusterEntry(name: string, paths: ClusterPaths, server: string): ReturnType<typeof buildClusterEntry> {
  return buildClusterEntry({ name: contextName(name), server, caFile: paths.caCert, certFile: paths.adminCert, keyFile: paths.adminKey });
}

/** Turn what went wrong into one user-facing error, with the dead component's last log lines. */
async function explainFailure(error: unknown, runtime: Runtime, components: readonly Component[], ctx: RuntimeContext, signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    // The command's own deadline (--timeout) aborts with a TimeoutError.
    return KwoktsError.is(reason) ? reason : new InterruptedError('SIGINT');
  }
  if (error instanceof ComponentExitedError) {
    const tail = await logTail(runtime, error.component, ctx);
    return new OperationError(`create failed: ${error.component} exited during start-up${tail ? `; its log ends with:\n${tail}` : ''}`, {
      hint: 'the cluster was rolled back; rerun with --retain to keep it for debugging',
      cause: error,
    });
  }
  return error;
}

/** The directories of the log files, for container runtimes to mount into the controller. */
function directoriesOf(files: readonly string[]): string[] {
  return [...new Set(files.map((f) => dirname(f)))].sort();
}

export function chooseComponents(enable: readonly string[], disable: readonly string[], base: readonly string[] = []): ComponentName[] {
  const known = new Set<string>(COMPONENT_NAMES);
  for (const n of [...base, ...enable, ...disable]) {
    if (!known.has(n)) throw new UsageError(`unknown component ${JSON.stringify(n)}`, { hint: `components: ${COMPONENT_NAMES.join(', ')}` });
  }
  for (const n of disable) {
    if ((REQUIRED_COMPONENTS as readonly string[]).includes(n)) throw new UsageError(`component ${n} cannot be disabled`, { hint: 'a cluster always runs etcd and kube-apiserver' });
  }
  const set = new Set<string>([...(base.length > 0 ? base : DEFAULT_COMPONENTS), ...enable]);
  for (const n of disable) set.delete(n);
  const missing = REQUIRED_COMPONENTS.filter((n) => !set.has(n));
  if (missing.length > 0) throw new UsageError(`--components leaves out ${missing.join(' and ')}`, { hint: 'a cluster always runs etcd and kube-apiserver' });
  return COMPONENT_NAMES.filter((n) => set.has(n));
}

async function copyUserFiles(executor: Executor, values: ClusterOptionValues, paths: ClusterPaths, componentKubeconfig: string): Promise<void> {
  if (values.kubeAuditPolicy) {
    if (!existsSync(values.kubeAuditPolicy)) throw new UsageError(`audit policy ${values.kubeAuditPolicy} does not exist`);
    await executor.writeFile(paths.auditPolicy, await readFile(values.kubeAuditPolicy, 'utf8'));
  }
  if (values.kubeSchedulerConfig) {
    if (!existsSync(values.kubeSchedulerConfig)) throw new UsageError(`scheduler config ${values.kubeSchedulerConfig} does not exist`);
    const text = await readFile(values.kubeSchedulerConfig, 'utf8');
    // kwokctl points the scheduler at the cluster's kubeconfig whatever the file says.
    const rewritten = /clientConnection:/.test(text)
      ? text.replace(/kubeconfig:.*$/m, `kubeconfig: ${componentKubeconfig}`)
      : `${text.trimEnd()}\nclientConnection:\n  kubeconfig: ${componentKubeconfig}\n`;
    await executor.writeFile(paths.schedulerConfig, rewritten);
  }
}

/** kwokctl's rule: the user's Stages replace the default set wholesale. */
function withDefaultStages(docs: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  if (docs.some((d) => d.kind === 'Stage')) return docs;
  return [...docs, ...defaultStageDocuments()];
}

/** Images under container runtimes; under kind the apiserver's "image" is kind's node image. */
/** Auto-detection (no --runtime): an engine counts only if it can get this cluster's images. */
async function detectRuntimeFor(values: ClusterOptionValues, components: readonly ComponentName[], logger: Logger): Promise<string> {
  const { kubeVersion, etcdVersion } = clusterVersions(values);
  const images = resolveImages(values, kubeVersion, etcdVersion);
  const name = await detectRuntime({
    images: components.map((c) => images[c]).filter((i): i is string => i !== undefined),
    onSkip: (runtime, reason) => logger.info(`not using ${runtime}: ${reason} (pass --runtime ${runtime} to use it anyway)`),
    ...(values.runtimes.length > 0 ? { order: values.runtimes } : {}),
  });
  logger.debug(`runtime: ${name} (detected)`);
  return name;
}

function componentImages(mode: 'container' | 'cluster', values: ClusterOptionValues, kubeVersion: string, etcdVersion: string): Partial<Record<ComponentName, string>> {
  const images = resolveImages(values, kubeVersion, etcdVersion);
  return mode === 'cluster' ? { 'kube-apiserver': resolveKindNodeImage(values, kubeVersion), 'kwok-controller': images['kwok-controller'] } : images;
}

/**
 * The controller's executable, found from the package root (right under tsx and from dist). An
 * executable of its own, not `node main.js`: kwokctl starts, stops and finds components by their
 * executable's name.
 */
function kwokControllerExecutable(): string {
  return join(packageRoot(), 'bin', 'kwok-controller.js');
}
