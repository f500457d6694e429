import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Component, ComponentName } from '../components/index.js';
import type { ComponentPatch } from '../config/load.js';
import type { ClusterOptionValues } from '../config/options.js';
import { parseYamlDocuments, renderYamlDocuments } from '../gocompat/yaml/index.js';
import { NotFoundError, PreflightError, UsageError } from '../util/errors.js';
import { clusterPaths, listClusterNames, type ClusterPaths } from '../naming/naming.js';
import { recordFromDocuments } from './record-docs.js';

export { KWOKTS_VERSION } from '../util/version.js';

/**
 * The kwokctl release whose record format we write. kwokctl reads `status.version` to judge a
 * record (a version it cannot parse makes it refuse the whole cluster), so it gets one it knows.
 */
export const KWOKCTL_RECORD_VERSION = '0.8.0';

/**
 * What `create cluster` decided, saved as <cluster>/kwok.yaml so every later command (delete,
 * start, kubectl, ...) works from it without re-deciding anything. The file is written in
 * kwokctl's format (a KwokctlConfiguration whose components have kwokctl's fields: binary, args,
 * workDir, envs, ...), with our own fields beside them, so kwokctl lists, stops, starts and
 * deletes a kwokts cluster and kwokts does the same with a kwokctl one. The same file is the kwok
 * controller's --config: it routes documents by kind and ignores KwokctlConfiguration.
 */
export interface ClusterRecord {
  name: string;
  runtime: string;
  options: ClusterOptionValues;
  componentsPatches: ComponentPatch[];
  components: Component[];
  /** Resolved program paths by artifact name. */
  programs: Record<string, string>;
  /** KwokConfiguration, Stage and other controller documents. */
  kwokDocuments: Array<Record<string, unknown>>;
  /** kwokts's version for a cluster it made; '' for one kwokctl made. */
  version: string;
  /** Made by kwokctl (no kwokts fields in the record): components were read from kwokctl's. */
  foreign?: boolean;
}

/** kwokctl's option names for the binaries a binary-runtime cluster runs, by our artifact name. */
const BINARY_OPTIONS: Record<string, string> = {
  etcd: 'etcdBinary',
  'kube-apiserver': 'kubeApiserverBinary',
  'kube-controller-manager': 'kubeControllerManagerBinary',
  'kube-scheduler': 'kubeSchedulerBinary',
  kubectl: 'kubectlBinary',
  etcdctl: 'etcdctlBinary',
  prometheus: 'prometheusBinary',
};

/** A component's executable: its own path, or the resolved path of its artifact. */
export function componentBinary(component: Component, programs: Record<string, string>): string | undefined {
  return 'path' in component.program ? component.program.path : programs[component.program.artifact];
}

/** kwokctl's fields of a component (config.kwok.x-k8s.io/v1alpha1 Component), then ours. */
function renderComponent(component: Component, record: ClusterRecord, root: string): Record<string, unknown> {
  const binary = record.runtime === 'binary' ? componentBinary(component, record.programs) : undefined;
  const { name, links, image, command, args, workDir, ports, env, volumes, ...ours } = component;
  return {
    name,
    ...(links.length > 0 ? { links } : {}),
    ...(binary ? { binary } : {}),
    ...(image ? { image } : {}),
    ...(command ? { command } : {}),
    args,
    // kwokctl keeps a component's pids/ and logs/ under its workDir: the cluster directory.
    workDir: workDir ?? root,
    ports,
    envs: Object.entries(env).map(([key, value]) => ({ name: key, value })),
    ...(volumes ? { volumes } : {}),
    ...ours,
  };
}

export function renderRecord(record: ClusterRecord, root: string): string {
  // kwokctl runs a record's binaries from its options too (kubectl for its readiness checks).
  const binaries = record.runtime === 'binary'
    ? Object.fromEntries(Object.entries(BINARY_OPTIONS).flatMap(([artifact, key]) => (record.programs[artifact] ? [[key, record.programs[artifact]]] : [])))
    : {};
  const kwokController = record.components.find((c) => c.name === 'kwok-controller');
  const head = {
    kind: 'KwokctlConfiguration',
    apiVersion: 'config.kwok.x-k8s.io/v1alpha1',
    metadata: { name: record.name },
    options: {
      ...record.options,
      ...binaries,
      ...(record.runtime === 'binary' && kwokController && 'path' in kwokController.program ? { kwokControllerBinary: kwokController.program.path } : {}),
      runtime: record.runtime,
    },
    componentsPatches: record.componentsPatches,
    components: record.components.map((c) => renderComponent(c, record, root)),
    programs: record.programs,
    status: { version: KWOKCTL_RECORD_VERSION, kwoktsVersion: record.version },
  };
  return renderYamlDocuments([head, ...record.kwokDocuments]);
}

export function parseRecord(name: string, text: string, source: string): ClusterRecord {
  let docs: Array<Record<string, unknown>>;
  try {
    docs = parseYamlDocuments(text) as Array<Record<string, unknown>>;
  } catch (error) {
    throw new UsageError(`${source} is not valid YAML`, { hint: `delete the cluster with \`kwokts --name ${name} delete cluster\``, cause: error });
  }
  return recordFromDocuments(name, docs, source);
}

export interface LoadedCluster {
  record: ClusterRecord;
  paths: ClusterPaths;
}

export async function loadCluster(workdir: string, name: string): Promise<LoadedCluster> {
  const paths = clusterPaths(workdir, name);
  if (!existsSync(paths.config)) {
    throw new NotFoundError(`cluster ${name} does not exist`, { hint: 'list clusters with `kwokts get clusters`, or create it with `kwokts create cluster`' });
  }
  const record = parseRecord(name, await readFile(paths.config, 'utf8'), paths.config);
  return { record, paths };
}

// Lives in src/naming (no YAML there), so listing names loads no parser; re-exported for callers.
export { listClusterNames } from '../naming/naming.js';

/** Host ports recorded by every other cluster; a stopped cluster still owns its ports. */
export async function portsOfOtherClusters(workdir: string, except: string): Promise<Set<number>> {
  const ports = new Set<number>();
  for (const name of listClusterNames(workdir)) {
    if (name === except) continue;
    try {
      const { record } = await loadCluster(workdir, name);
      for (const c of record.components) for (const p of c.ports) ports.add(p.port);
    } catch {
      /* an unreadable record owns nothing we can see */
    }
  }
  return ports;
}

export function componentNames(record: ClusterRecord): ComponentName[] {
  return record.components.map((c) => c.name);
}

// In record-docs.ts (no YAML there), so delete's fast path checks a record without loading a parser.
export { assertManageable } from './record-docs.js';
