import { readFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Component, ComponentName } from '../components/index.js';
import type { ComponentPatch } from '../config/load.js';
import type { ClusterOptionValues } from '../config/options.js';
import { parseYamlDocuments, renderYamlDocuments } from '../config/yaml.js';
import { NotFoundError, UsageError } from '../util/errors.js';
import { clusterPaths, clustersDir, type ClusterPaths } from './naming.js';

export { KWOKTS_VERSION } from '../util/version.js';

/**
 * What `create cluster` decided, saved as <cluster>/kwok.yaml so every later command (delete,
 * start, kubectl, ...) works from it without re-deciding anything. The same file is the kwok
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
  version: string;
}

export function renderRecord(record: ClusterRecord): string {
  const head = {
    kind: 'KwokctlConfiguration',
    apiVersion: 'config.kwok.x-k8s.io/v1alpha1',
    metadata: { name: record.name },
    options: { ...record.options, runtime: record.runtime },
    componentsPatches: record.componentsPatches,
    components: record.components,
    programs: record.programs,
    status: { version: `kwokts-${record.version}` },
  };
  return renderYamlDocuments([head, ...record.kwokDocuments]);
}

export function parseRecord(name: string, text: string, source: string): ClusterRecord {
  const docs = parseYamlDocuments(text) as Array<Record<string, unknown>>;
  const head = docs.find((d) => d.kind === 'KwokctlConfiguration');
  if (!head) throw new UsageError(`${source} has no KwokctlConfiguration`, { hint: `delete the cluster with \`kwokts --name ${name} delete cluster\`` });
  const options = head.options as ClusterOptionValues;
  const status = (head.status ?? {}) as Record<string, unknown>;
  return {
    name,
    runtime: String(options.runtime ?? 'binary'),
    options,
    componentsPatches: (head.componentsPatches ?? []) as ComponentPatch[],
    components: (head.components ?? []) as Component[],
    programs: (head.programs ?? {}) as Record<string, string>,
    kwokDocuments: docs.filter((d) => d !== head),
    version: String(status.version ?? ''),
  };
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

/** Names of clusters that have a saved record, sorted. */
export function listClusterNames(workdir: string): string[] {
  const dir = clustersDir(workdir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'kwok.yaml')))
    .map((e) => e.name)
    .sort();
}

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
