/**
 * Finds the cluster to talk to, in kwok's order: an explicit --kubeconfig (ignored with a warning if
 * it is missing or a directory), then the in-cluster service account, then ~/.kube/config.
 * --master overrides the server URL of whatever was loaded.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../util/log.js';
import { detectInClusterConfig, type InClusterConfig } from './in-cluster.js';
import { readRestConfig, type RestConfig } from './rest-config.js';

export { serviceAccountDir } from './in-cluster.js';

export interface KubeConfigSource {
  kubeconfig?: string;
  master?: string;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  home?: string;
  /** Root for the service-account files; tests point it at a temp dir. */
  serviceAccountRoot?: string;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export interface LoadedKubeConfig {
  config: RestConfig;
  /** Where it came from, for the startup log. */
  origin: string;
  /** Set when the in-cluster service account was used: its token file and namespace. */
  inCluster?: InClusterConfig;
}

/** client-go's InClusterConfig: the service's address, the mounted CA, and the (rotating) token file. */
function inClusterRestConfig(inCluster: InClusterConfig): RestConfig {
  return {
    server: new URL(inCluster.server),
    tls: isFile(inCluster.caFile) ? { ca: readFileSync(inCluster.caFile) } : {},
    credentials: { kind: 'token-file', path: inCluster.tokenFile },
  };
}

/** Returns the RestConfig and a short description of where it came from (for the startup log). */
export function loadKubeConfig(source: KubeConfigSource): LoadedKubeConfig {
  const env = source.env ?? process.env;
  let loaded: LoadedKubeConfig | undefined;
  if (source.kubeconfig) {
    if (isFile(source.kubeconfig)) loaded = { config: readRestConfig(source.kubeconfig), origin: source.kubeconfig };
    else source.logger.warn(`kubeconfig ${source.kubeconfig} is missing or not a file; ignoring it`);
  }
  if (!loaded) {
    const inCluster = detectInClusterConfig(env, source.serviceAccountRoot ?? '');
    if (inCluster) loaded = { config: inClusterRestConfig(inCluster), origin: `in-cluster service account (${inCluster.server})`, inCluster };
  }
  if (!loaded) {
    const fallback = join(source.home ?? homedir(), '.kube', 'config');
    if (existsSync(fallback) && isFile(fallback)) loaded = { config: readRestConfig(fallback), origin: fallback };
  }
  if (source.master) {
    const config: RestConfig = loaded ? { ...loaded.config, server: new URL(source.master) } : { server: new URL(source.master), tls: {}, credentials: { kind: 'none' } };
    return { ...loaded, config, origin: `${loaded?.origin ?? 'no kubeconfig'}, server ${source.master}` };
  }
  if (!loaded) throw new Error('no kubeconfig: pass --kubeconfig or --master, or run in a cluster');
  return loaded;
}
