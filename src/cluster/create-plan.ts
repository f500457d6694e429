/**
 * Create, first half: work out everything a new cluster is (ports, spec, components, files, the
 * record) and the ordered steps that make it, each with its undo. Planning reads (free ports,
 * other clusters' records, the user's files) but changes nothing; src/cluster/apply-plan.ts
 * performs the steps through the Executor, so a dry run prints exactly what a real run does.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { buildClusterKubeconfig, renderKubeconfig } from '../kube/index.js';
import { buildComponents, CONTAINER_PORTS, inClusterNode, HOST_PLACEMENT, metricsServerManifests, networkPlacement, schedulerPluginsManifestSources, portRequests, type ClusterPorts, type ClusterSpec, type Component, type ComponentName } from '../components/index.js';
import { resolveImages, resolveKindNodeImage } from '../artifacts/images.js';
import type { LoadedConfig } from '../config/load.js';
import type { ClusterOptionValues } from '../config/options.js';
import { clusterVersions } from '../config/versions.js';
import { renderYamlDocuments } from '../gocompat/yaml/index.js';
import { PreflightError, UsageError } from '../util/errors.js';
import { packageRoot } from '../util/package-root.js';
import type { Runtime, RuntimeInfo } from '../../runtimes/runtime.js';
import { checkCrdKinds } from './crds.js';
import { planSteps, type PlanStep } from './create-steps.js';
import { defaultStageDocuments, withDefaultMetrics } from './default-stages.js';
import { clusterPaths, contextName, runtimeObjectName, type ClusterPaths } from '../naming/naming.js';
import { allocatePorts, isPortInUse } from './ports.js';
import { KWOKTS_VERSION, portsOfOtherClusters, type ClusterRecord } from './record.js';
import type { WaitFor } from './start-components.js';
import { explicitPortChecks } from './validate.js';

export interface PlannedFile {
  readonly path: string;
  readonly content: string;
  readonly mode?: number;
}

export interface CreatePlan {
  readonly name: string;
  readonly workdir: string;
  readonly paths: ClusterPaths;
  readonly values: ClusterOptionValues;
  readonly runtime: Runtime;
  readonly mode: RuntimeInfo['mode'];
  readonly ports: Readonly<ClusterPorts>;
  readonly spec: ClusterSpec;
  readonly components: readonly Component[];
  /** Where the host reaches the apiserver. */
  readonly server: string;
  /** Programs the host needs that are not resolved as artifacts (kind). */
  readonly hostPrograms: ReadonlyMap<string, string>;
  /** The cluster's files, in the order they are written (the record comes last, in a step of its own). */
  readonly files: readonly PlannedFile[];
  /** The record (kwok.yaml) but for the programs, which the first step resolves. */
  readonly record: Omit<ClusterRecord, 'programs'>;
  readonly steps: readonly PlanStep[];
}

export interface PlanInput {
  name: string;
  workdir: string;
  config: LoadedConfig;
  /** Resolved, heartbeat factor applied, runtime named. */
  values: ClusterOptionValues;
  runtime: Runtime;
  components: readonly ComponentName[];
  userKubeconfig: string;
  waitMs: number;
  waitFor?: WaitFor;
  logLevel: number;
}

/** The reads planning makes about the machine; tests pin them. */
export interface PlanProbes {
  portsOfOtherClusters: (workdir: string, except: string) => Promise<ReadonlySet<number>>;
  isPortInUse: (port: number, host: string) => Promise<boolean>;
  /** Free ports on loopback and on `bindAddress`, the address the components will bind. */
  allocatePorts: (requested: ClusterPorts, avoid: ReadonlySet<number>, bindAddress: string) => Promise<ClusterPorts>;
  /** The embedded controller's executable. */
  kwokControllerEntry: string;
}

export const REAL_PROBES: PlanProbes = {
  portsOfOtherClusters,
  isPortInUse,
  allocatePorts,
  // An executable of its own, not `node main.js`: kwokctl starts, stops and finds components by their executable's name.
  get kwokControllerEntry() {
    return join(packageRoot(), 'bin', 'kwok-controller.js');
  },
};

/**
 * The chosen components a cluster of this runtime mode records. A real cluster (kind) brings its
 * own control plane; the controller, metrics-server, Prometheus and jaeger are ours to deploy. Its etcd,
 * apiserver, controller-manager and scheduler are kind's, recorded so that the host reaches them
 * (etcdctl, kectl, snapshots, logs) and Prometheus scrapes them.
 */
export function componentsOfMode(mode: RuntimeInfo['mode'], chosen: readonly ComponentName[]): ComponentName[] {
  return mode === 'cluster' ? chosen.filter((c) => IN_CLUSTER_COMPONENTS.has(c)) : [...chosen];
}

/** What a kind cluster records: kubeadm's control plane in kind's node, and what kwokts deploys into it. */
const IN_CLUSTER_COMPONENTS: ReadonlySet<ComponentName> = new Set<ComponentName>(['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'metrics-server', 'prometheus', 'jaeger']);

/** Decide everything about the new cluster; throws on bad input before anything is made. */
export async function planCreate(input: PlanInput, probes: PlanProbes = REAL_PROBES): Promise<CreatePlan> {
  const { name, values, runtime, config } = input;
  const paths = clusterPaths(input.workdir, name);
  const { kubeVersion, etcdVersion } = clusterVersions(values);
  const enabled = new Set(input.components);

  const avoid = await probes.portsOfOtherClusters(input.workdir, name);
  await checkExplicitPorts(values, enabled, avoid, probes.isPortInUse);
  const ports = await probes.allocatePorts(portRequests(values, enabled), avoid, values.bindAddress);

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
    components: input.components,
    logLevel: input.logLevel,
    kwokControllerEntry: probes.kwokControllerEntry,
    enableCrds: crdKinds,
    logDirs: directoriesOf(config.logFiles),
    placement: inContainers ? networkPlacement(name) : HOST_PLACEMENT,
    ...(mode !== 'native' ? { images: componentImages(mode, values, kubeVersion, etcdVersion, input.components) } : {}),
  };
  await checkKwokDocuments(config);

  const stagesAsCrs = crdKinds.includes('Stage');
  const servedAsCrs = new Set<string>(crdKinds);
  const stageDocuments = withDefaultStages(config.kwokDocuments).filter((d) => d.kind === 'Stage');
  // Objects of a kind served as a custom resource are created in the cluster instead of being
  // written into the controller's config (kwokctl leaves them out of kwok.yaml too).
  const crObjects = [...(stagesAsCrs ? stageDocuments : []), ...config.kwokDocuments.filter((d) => d.kind !== 'Stage' && servedAsCrs.has(String(d.kind)))];
  const built = buildComponents(spec, config.componentsPatches, config.components);
  const components = mode === 'cluster' ? built.map(inClusterNode) : built;
  // kwokctl with metrics-server: the kubelet's /metrics/resource and usage from annotations, unless given.
  const withMetricsDefaults = (docs: Array<Record<string, unknown>>): Array<Record<string, unknown>> => (enabled.has('metrics-server') ? withDefaultMetrics(docs, servedAsCrs) : docs);
  const server = `https://127.0.0.1:${ports.kubeApiserver}`;
  // kind as given; resolving it (PATH, else a Go build into the cache) is the resolve-programs step's.
  const hostPrograms = new Map<string, string>(mode === 'cluster' ? [['kind', values.kindBinary || 'kind']] : []);

  const admin = { caFile: paths.caCert, certFile: paths.adminCert, keyFile: paths.adminKey };
  const files: PlannedFile[] = [
    ...(await userFiles(values, paths, inContainers ? paths.networkKubeconfig : paths.kubeconfig)),
    ...components.flatMap((c) => (c.files ?? []).map((f) => ({ path: f.path, content: f.content }))),
    // Written with the other files, not when applied: a create that continues this cluster
    // (after one killed before it got that far) applies them from here.
    ...(crObjects.length > 0 ? [{ path: paths.customResources, content: renderYamlDocuments(crObjects) }] : []),
    ...(enabled.has('metrics-server') && mode !== 'cluster' ? [{ path: paths.metricsServerManifest, content: renderYamlDocuments(metricsServerManifests(spec)) }] : []),
    { path: paths.kubeconfig, content: renderKubeconfig(buildClusterKubeconfig({ name: contextName(name), server, ...admin })), mode: 0o600 },
    ...(inContainers
      ? [{
          path: paths.networkKubeconfig,
          content: renderKubeconfig(buildClusterKubeconfig({ name: contextName(name), server: `https://${runtimeObjectName(name, 'kube-apiserver')}:${CONTAINER_PORTS.kubeApiserver}`, ...admin })),
          mode: 0o600,
        }]
      : []),
  ];
  const record: Omit<ClusterRecord, 'programs'> = {
    name,
    runtime: runtime.info().name,
    options: { ...values, kubeVersion, etcdVersion },
    componentsPatches: config.componentsPatches,
    components,
    kwokDocuments: withMetricsDefaults(stagesAsCrs ? config.kwokDocuments : withDefaultStages(config.kwokDocuments)).filter((d) => !servedAsCrs.has(String(d.kind))),
    version: KWOKTS_VERSION,
  };

  const plan = { name, workdir: input.workdir, paths, values, runtime, mode, ports, spec, components, server, hostPrograms, files, record } as const;
  const steps = planSteps(plan, {
    crdKinds,
    withCrObjects: crObjects.length > 0,
    // On kind, metrics-server's APIService and Service come with its Deployment (templates/kind).
    metricsServer: enabled.has('metrics-server') && mode !== 'cluster',
    ...(enabled.has('scheduler-plugins') ? { schedulerPluginsManifests: schedulerPluginsManifestSources(values) } : {}),
    userKubeconfig: input.userKubeconfig,
    waitMs: input.waitMs,
    ...(input.waitFor ? { waitFor: input.waitFor } : {}),
    pki: {
      // Containers name the apiserver (and the controller) by container name: their certificate must too.
      apiserverSans: [...(inContainers ? ['kube-apiserver', 'kwok-controller'].map((c) => runtimeObjectName(name, c)) : []), ...values.kubeApiserverCertSANs],
      etcdDnsSans: inContainers ? [runtimeObjectName(name, 'etcd')] : [],
      rbac: values.kubeAuthorization,
      etcdCaKey: mode === 'cluster',
    },
  });
  return freezePlan({ ...plan, steps });
}

/** A port the user chose that is already taken fails before anything is changed. */
async function checkExplicitPorts(values: ClusterOptionValues, enabled: ReadonlySet<ComponentName>, recorded: ReadonlySet<number>, inUse: PlanProbes['isPortInUse']): Promise<void> {
  for (const { label, port } of explicitPortChecks(values, enabled)) {
    if (recorded.has(port) || (await inUse(port, values.bindAddress))) {
      throw new PreflightError(`port ${port} (${label}) is already in use`, { hint: `choose another port, or leave ${label} unset to pick a free one` });
    }
  }
}

/** A broken Stage or controller document of the user's is bad input: said before anything is made, naming the file. */
async function checkKwokDocuments(config: LoadedConfig): Promise<void> {
  const source = config.sources.join(', ') || 'config';
  // Loaded lazily: the stage engine is heavy and the default stages are tested already.
  const userStages = config.kwokDocuments.filter((d) => d.kind === 'Stage');
  if (userStages.length > 0) {
    const { parseStages } = await import('../kwok/api/index.js');
    const [invalidStage] = parseStages(userStages, source).errors;
    if (invalidStage) throw invalidStage;
  }
  // The controller's own config (KwokConfiguration options, Logs) is checked now, not when it starts.
  if (config.kwokDocuments.length > 0) {
    const { checkConfigDocuments } = await import('../kwok/index.js');
    const problem = checkConfigDocuments(config.kwokDocuments.filter((d) => d.kind !== 'Stage'), source);
    if (problem) throw new UsageError(problem, { hint: 'fix the file named above; `kwokts config view` shows what is read' });
  }
}

/** The audit policy and scheduler config the user named, as the cluster's own copies. */
async function userFiles(values: ClusterOptionValues, paths: ClusterPaths, componentKubeconfig: string): Promise<PlannedFile[]> {
  const files: PlannedFile[] = [];
  if (values.kubeAuditPolicy) {
    if (!existsSync(values.kubeAuditPolicy)) throw new UsageError(`audit policy ${values.kubeAuditPolicy} does not exist`);
    files.push({ path: paths.auditPolicy, content: await readFile(values.kubeAuditPolicy, 'utf8') });
  }
  if (values.kubeSchedulerConfig) {
    if (!existsSync(values.kubeSchedulerConfig)) throw new UsageError(`scheduler config ${values.kubeSchedulerConfig} does not exist`);
    const text = await readFile(values.kubeSchedulerConfig, 'utf8');
    // kwokctl points the scheduler at the cluster's kubeconfig whatever the file says.
    const rewritten = /clientConnection:/.test(text)
      ? text.replace(/kubeconfig:.*$/m, `kubeconfig: ${componentKubeconfig}`)
      : `${text.trimEnd()}\nclientConnection:\n  kubeconfig: ${componentKubeconfig}\n`;
    files.push({ path: paths.schedulerConfig, content: rewritten });
  }
  return files;
}

/** The directories of the log files, for container runtimes to mount into the controller. */
function directoriesOf(files: readonly string[]): string[] {
  return [...new Set(files.map((f) => dirname(f)))].sort();
}

/** kwokctl's rule: the user's Stages replace the default set wholesale. */
function withDefaultStages(docs: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  if (docs.some((d) => d.kind === 'Stage')) return docs;
  return [...docs, ...defaultStageDocuments()];
}

/** Images under container runtimes; under kind the apiserver's "image" is kind's node image. */
function componentImages(mode: 'container' | 'cluster', values: ClusterOptionValues, kubeVersion: string, etcdVersion: string, components: readonly ComponentName[]): Partial<Record<ComponentName, string>> {
  const images = resolveImages(values, kubeVersion, etcdVersion, components);
  return mode === 'cluster' ? { 'kube-apiserver': resolveKindNodeImage(values, kubeVersion), 'kwok-controller': images['kwok-controller'], 'metrics-server': images['metrics-server'], prometheus: images.prometheus, jaeger: images.jaeger } : images;
}

/** Plans are values: the plan, its steps and files cannot be changed by accident (components and the runtime are left as they are). */
function freezePlan(plan: CreatePlan): CreatePlan {
  for (const step of plan.steps) Object.freeze(step);
  for (const file of plan.files) Object.freeze(file);
  Object.freeze(plan.steps);
  Object.freeze(plan.files);
  return Object.freeze(plan);
}
