/**
 * What a cluster's options ask of the artifact cache: where it is, the request for each binary and
 * the offline build mode. Apart from ./programs.ts (which resolves the binaries) because the help's
 * defaults (./option-defaults.ts) need these and nothing of the downloads and builds.
 */
import { join } from 'node:path';
import type { ArtifactRequest, BinaryName, OfflineBuildMode } from '../artifacts/sources.js';
import type { ClusterOptionValues } from '../config/options.js';
import { UsageError } from '../util/errors.js';

/** The cache is shared by every cluster: $KWOK_CACHE_DIR / options.cacheDir, else <workdir>/cache. */
export function cacheDirOf(values: Pick<ClusterOptionValues, 'cacheDir'>, workdir: string): string {
  return values.cacheDir || join(workdir, 'cache');
}

/** The user's explicit value and mirror prefix for a binary, from the options table. */
export function artifactRequest(name: BinaryName, values: ClusterOptionValues, kubeVersion: string, etcdVersion: string): ArtifactRequest {
  const explicit: Partial<Record<BinaryName, string>> = {
    'kube-apiserver': values.kubeApiserverBinary,
    'kube-controller-manager': values.kubeControllerManagerBinary,
    'kube-scheduler': values.kubeSchedulerBinary,
    kubectl: values.kubectlBinary,
    etcd: values.etcdBinary,
    etcdctl: values.etcdctlBinary,
    prometheus: values.prometheusBinary,
    'metrics-server': values.metricsServerBinary,
    jaeger: values.jaegerBinary,
  };
  const prefixes: Partial<Record<BinaryName, string>> = { 'metrics-server': values.metricsServerBinaryPrefix, jaeger: values.jaegerBinaryPrefix };
  const prefix = name.startsWith('kube') ? values.kubeBinaryPrefix : name.startsWith('etcd') ? values.etcdBinaryPrefix : (prefixes[name] ?? '');
  return {
    name,
    kubeVersion,
    etcdVersion,
    ...(values.prometheusVersion ? { prometheusVersion: values.prometheusVersion } : {}),
    ...(values.metricsServerVersion ? { metricsServerVersion: values.metricsServerVersion } : {}),
    ...(values.jaegerVersion ? { jaegerVersion: values.jaegerVersion } : {}),
    ...(explicit[name] ? { binary: explicit[name] } : {}),
    ...(prefix ? { binaryPrefix: prefix } : {}),
  };
}

export function offlineMode(values: Pick<ClusterOptionValues, 'buildFromSource'>): OfflineBuildMode {
  const mode = values.buildFromSource || 'auto';
  if (mode !== 'auto' && mode !== 'never' && mode !== 'always') {
    // validateClusterValues names the flag, variable or field first; this is for values read back from a record.
    throw new UsageError(`${JSON.stringify(mode)} is not a build mode (buildFromSource)`, { hint: 'use auto, never or always' });
  }
  return mode;
}
