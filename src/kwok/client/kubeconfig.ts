/**
 * Finds the cluster to talk to, in kwok's order: an explicit --kubeconfig (ignored with a warning if
 * it is missing or a directory), then the in-cluster service account, then ~/.kube/config.
 * --master overrides the server URL of whatever was loaded. Kubeconfig files (token files, exec
 * plugins) are left to @kubernetes/client-node's KubeConfig; the in-cluster token file is handed
 * to the connection, which re-reads it as it rotates.
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { Cluster, User } from '@kubernetes/client-node';
import type { Logger } from '../../util/log.js';
import { detectInClusterConfig } from './in-cluster.js';
import type { InClusterConfig } from './in-cluster.js';

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
  config: KubeConfig;
  /** Where it came from, for the startup log. */
  origin: string;
  /** Set when the in-cluster service account was used: its token file and namespace. */
  inCluster?: InClusterConfig;
}

/** Returns the KubeConfig and a short description of where it came from (for the startup log). */
export function loadKubeConfig(source: KubeConfigSource): LoadedKubeConfig {
  const env = source.env ?? process.env;
  const root = source.serviceAccountRoot ?? '';
  const config = new KubeConfig();
  let origin: string | undefined;
  let inCluster: InClusterConfig | undefined;

  if (source.kubeconfig) {
    if (isFile(source.kubeconfig)) {
      config.loadFromFile(source.kubeconfig);
      origin = source.kubeconfig;
    } else {
      source.logger.warn(`kubeconfig ${source.kubeconfig} is missing or not a file; ignoring it`);
    }
  }
  if (!origin) {
    inCluster = detectInClusterConfig(env, root);
    if (inCluster) {
      // No user credentials here: the connection adds the token from the file on every refresh.
      config.loadFromClusterAndUser({ name: 'in-cluster', server: inCluster.server, caFile: inCluster.caFile, skipTLSVerify: false }, { name: 'in-cluster' });
      origin = `in-cluster service account (${inCluster.server})`;
    }
  }
  if (!origin) {
    const fallback = join(source.home ?? homedir(), '.kube', 'config');
    if (existsSync(fallback) && isFile(fallback)) {
      config.loadFromFile(fallback);
      origin = fallback;
    }
  }
  const extra = inCluster ? { inCluster } : {};
  if (source.master) return { config: withServer(config, source.master, origin !== undefined), origin: `${origin ?? 'no kubeconfig'}, server ${source.master}`, ...extra };
  if (!origin) throw new Error('no kubeconfig: pass --kubeconfig or --master, or run in a cluster');
  return { config, origin, ...extra };
}

/** Copy of `config` whose current cluster points at `server` (a bare config when nothing was loaded). */
function withServer(config: KubeConfig, server: string, loaded: boolean): KubeConfig {
  const next = new KubeConfig();
  const cluster = loaded ? config.getCurrentCluster() : null;
  const user: User = (loaded ? config.getCurrentUser() : null) ?? { name: 'kwok' };
  const patched: Cluster = { ...(cluster ?? { name: 'kwok', skipTLSVerify: false }), server };
  next.loadFromClusterAndUser(patched, user);
  return next;
}
