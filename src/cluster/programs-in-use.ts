import { planArtifacts, planPrune, type BinaryName, type PrunePlan } from '../artifacts/index.js';
import type { ClusterOptionValues } from '../config/options.js';
import { clusterVersions } from '../config/versions.js';
import { describeUnknown } from '../util/errors.js';
import { artifactRequest, cacheDirOf, offlineMode } from './artifact-request.js';
import { componentBinary, listClusterNames, loadCluster } from './record.js';

export interface ProgramsInUse {
  /** The files each cluster runs or passes through to (its components' binaries, kubectl, etcdctl), by cluster. */
  byCluster: Map<string, string[]>;
  /** Clusters whose record could not be read, with why: what they run is unknown. */
  unreadable: Array<{ cluster: string; error: string }>;
}

/**
 * What the clusters in the workdir run, so that pruning the cache keeps it: a stopped cluster
 * starts again from the same binaries, and `kwokts kubectl` runs the one its record names.
 */
export async function programsInUse(workdir: string): Promise<ProgramsInUse> {
  const out: ProgramsInUse = { byCluster: new Map(), unreadable: [] };
  for (const name of listClusterNames(workdir)) {
    try {
      const { record } = await loadCluster(workdir, name);
      const files = new Set(Object.values(record.programs));
      for (const component of record.components) {
        const binary = componentBinary(component, record.programs);
        if (binary) files.add(binary);
      }
      out.byCluster.set(name, [...files]);
    } catch (error) {
      out.unreadable.push({ cluster: name, error: describeUnknown(error) });
    }
  }
  return out;
}

/** How the kept binaries of the next create are named where prune lists what it kept. */
export const NEXT_CREATE = 'the next create cluster';

/**
 * The cached files the next `create cluster` (with these option values) would take its control
 * plane, kubectl and etcdctl from: removing them would have it download or build them again, and
 * once Go's caches are gone too, that build is a cold one.
 */
export function nextCreateBinaries(values: ClusterOptionValues, workdir: string): string[] {
  const { kubeVersion, etcdVersion } = clusterVersions(values);
  const names: BinaryName[] = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubectl', 'etcdctl'];
  const requests = names.map((n) => artifactRequest(n, values, kubeVersion, etcdVersion));
  return planArtifacts(requests, { cacheDir: cacheDirOf(values, workdir), offlineBuild: offlineMode(values) }).flatMap((p) => p.candidates.filter((c) => c.source === 'cache').map((c) => c.path));
}

/**
 * What `artifacts prune` would free in `cacheDir`, keeping what the workdir's clusters run (every
 * binary, when a record cannot be read) and, unless `all`, what the next create would use; and
 * the warnings to give about unreadable records.
 */
export async function planCachePrune(workdir: string, values: ClusterOptionValues, options: { all: boolean }): Promise<{ plan: PrunePlan; warnings: string[] }> {
  const inUse = await programsInUse(workdir);
  const keep = new Map(inUse.byCluster);
  if (!options.all) keep.set(NEXT_CREATE, nextCreateBinaries(values, workdir));
  const plan = await planPrune(cacheDirOf(values, workdir), { inUse: keep, unknown: inUse.unreadable.map((u) => u.cluster) });
  return { plan, warnings: inUse.unreadable.map(({ cluster, error }) => `cluster ${cluster}: ${error}; what it runs is unknown, so every binary is kept`) };
}

export { formatBytes, prune as pruneCache, type PruneEntry, type PrunePlan } from '../artifacts/index.js';
