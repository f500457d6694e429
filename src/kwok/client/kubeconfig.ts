/**
 * Finds the cluster to talk to, in kwok's order: an explicit --kubeconfig (ignored with a warning if
 * it is missing or a directory), then the in-cluster service account, then ~/.kube/config.
 * --master overrides the server URL of whatever was loaded. Loading, token files and exec plugins
 * are left to @kubernetes/client-node's KubeConfig.
 */
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { Cluster, User } from '@kubernetes/client-node';
import type { Logger } from '../../util/log.js';

export const serviceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';

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

function inClusterAvailable(env: NodeJS.ProcessEnv, root: string): boolean {
  return Boolean(env['KUBERNETES_SERVICE_HOST'] && env['KUBERNETES_SERVICE_PORT']) && isFile(join(root, serviceAccountDir, 'token'));
}

/** Returns the KubeConfig and a short description of where it came from (for the startup log). */
export function loadKubeConfig(source: KubeConfigSource): { config: KubeConfig; origin: string } {
  const env = source.env ?? process.env;
  const root = source.serviceAccountRoot ?? '';
  const config = new KubeConfig();
  let origin: string | undefined;

  if (source.kubeconfig) {
    if (isFile(source.kubeconfig)) {
      config.loadFromFile(source.kubeconfig);
      origin = source.kubeconfig;
    } else {
      source.logger.warn(`kubeconfig ${source.kubeconfig} is missing or not a file; ignoring it`);
    }
  }
  if (!origin && inClusterAvailable(env, root)) {
    // KubeConfig.loadFromCluster reads KUBERNETES_SERVICE_HOST/PORT from process.env only.
    const saved = { host: process.env['KUBERNETES_SERVICE_HOST'], port: process.env['KUBERNETES_SERVICE_PORT'] };
    process.env['KUBERNETES_SERVICE_HOST'] = env['KUBERNETES_SERVICE_HOST'];
    process.env['KUBERNETES_SERVICE_PORT'] = env['KUBERNETES_SERVICE_PORT'];
    try {
      config.loadFromCluster(root);
    } finally {
      restoreEnv('KUBERNETES_SERVICE_HOST', saved.host);
      restoreEnv('KUBERNETES_SERVICE_PORT', saved.port);
    }
    origin = 'in-cluster service account';
  }
  if (!origin) {
    const fallback = join(source.home ?? homedir(), '.kube', 'config');
    if (existsSync(fallback) && isFile(fallback)) {
      config.loadFromFile(fallback);
      origin = fallback;
    }
  }
  if (source.master) return { config: withServer(config, source.master, origin !== undefined), origin: `${origin ?? 'no kubeconfig'}, server ${source.master}` };
  if (!origin) throw new Error('no kubeconfig: pass --kubeconfig or --master, or run in a cluster');
  return { config, origin };
}

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
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
