/**
 * The kinds `create cluster --enable-crds` can serve as custom resources (kwokctl's flag; the
 * other kinds kwok knows are refused until the controller implements them), their CRD
 * manifests in templates/crds, and the install steps.
 */
import { existsSync } from 'node:fs';
import type { Executor } from '../exec/executor.js';
import { UsageError } from '../util/errors.js';
import { templatePath } from '../util/package-root.js';
import type { ClusterPaths } from '../naming/naming.js';

const SERVED_CRDS = {
  Stage: { file: 'stage.yaml', name: 'stages.kwok.x-k8s.io' },
  Logs: { file: 'logs.yaml', name: 'logs.kwok.x-k8s.io' },
  ClusterLogs: { file: 'clusterlogs.yaml', name: 'clusterlogs.kwok.x-k8s.io' },
  Exec: { file: 'exec.yaml', name: 'execs.kwok.x-k8s.io' },
  ClusterExec: { file: 'clusterexec.yaml', name: 'clusterexecs.kwok.x-k8s.io' },
  Attach: { file: 'attach.yaml', name: 'attaches.kwok.x-k8s.io' },
  ClusterAttach: { file: 'clusterattach.yaml', name: 'clusterattaches.kwok.x-k8s.io' },
  PortForward: { file: 'portforward.yaml', name: 'portforwards.kwok.x-k8s.io' },
  ClusterPortForward: { file: 'clusterportforward.yaml', name: 'clusterportforwards.kwok.x-k8s.io' },
  Metric: { file: 'metric.yaml', name: 'metrics.kwok.x-k8s.io' },
  ResourceUsage: { file: 'resourceusage.yaml', name: 'resourceusages.kwok.x-k8s.io' },
  ClusterResourceUsage: { file: 'clusterresourceusage.yaml', name: 'clusterresourceusages.kwok.x-k8s.io' },
} as const;

export type ServedCrdKind = keyof typeof SERVED_CRDS;
export const SERVED_CRD_KINDS = Object.keys(SERVED_CRDS) as ServedCrdKind[];

/** Validates --enable-crds (kwokctl's spelling of the kinds), without duplicates, in the given order. */
export function checkCrdKinds(kinds: readonly string[]): ServedCrdKind[] {
  for (const kind of kinds) {
    if (!(SERVED_CRD_KINDS as readonly string[]).includes(kind)) {
      throw new UsageError(`--enable-crds ${kind} is not supported yet`, { hint: `kinds that can be served as custom resources: ${SERVED_CRD_KINDS.join(', ')}` });
    }
  }
  return [...new Set(kinds as ServedCrdKind[])];
}

export interface InstallCrdsOptions {
  kinds: readonly ServedCrdKind[];
  /** Whether the cluster's objects of those kinds (paths.customResources, written with the cluster's files) are to be applied once the CRDs are established. */
  withObjects: boolean;
  kubectl: string;
  paths: ClusterPaths;
  executor: Executor;
}

/** Applies the CRDs, waits until the API server serves them, then applies the objects. */
export async function installCrds(options: InstallCrdsOptions): Promise<void> {
  const { executor, kubectl, paths } = options;
  const base = ['--kubeconfig', paths.kubeconfig];
  const crds = options.kinds.map((kind) => SERVED_CRDS[kind]);
  await executor.run({ command: kubectl, args: [...base, 'apply', ...crds.flatMap((crd) => ['-f', templatePath('crds', crd.file)])] });
  await executor.run({ command: kubectl, args: [...base, 'wait', '--for=condition=Established', '--timeout=60s', ...crds.map((crd) => `crd/${crd.name}`)] });
  if (options.withObjects) await applyManifest(paths.customResources, kubectl, paths, executor);
}

/** Applies a manifest file the cluster's files include (e.g. metrics-server's APIService) with the cluster's kubectl. */
export async function applyManifest(file: string, kubectl: string, paths: ClusterPaths, executor: Executor): Promise<void> {
  await executor.run({ command: kubectl, args: ['--kubeconfig', paths.kubeconfig, 'apply', '-f', file] });
}

/**
 * What a create puts into the cluster once it serves, again (kwokctl's InitCRDs and InitCRs when
 * a create continues a cluster that is not ready): a create killed after its components started
 * had not got that far. All are idempotent applies; the objects and manifest are the files the
 * first create wrote.
 */
export async function initClusterObjects(options: { kinds: readonly ServedCrdKind[]; metricsServer: boolean; schedulerPlugins: boolean; kubectl: string; paths: ClusterPaths; executor: Executor }): Promise<void> {
  const { kinds, kubectl, paths, executor } = options;
  if (kinds.length > 0) await installCrds({ kinds, withObjects: existsSync(paths.customResources), kubectl, paths, executor });
  if (options.metricsServer) await applyManifest(paths.metricsServerManifest, kubectl, paths, executor);
  // Written before anything started (the fetch step); absent only if that create failed before.
  if (options.schedulerPlugins && existsSync(paths.schedulerPluginsManifest)) await applyManifest(paths.schedulerPluginsManifest, kubectl, paths, executor);
}
