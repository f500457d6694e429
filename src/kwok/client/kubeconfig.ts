/**
 * Finds the cluster to talk to, in kwok's order: an explicit --kubeconfig (ignored with a warning if
 * it is missing or a directory), then the in-cluster service account, then ~/.kube/config.
 * --master overrides the server URL of whatever was loaded.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../../util/log.js';
import { readRestConfig, type RestConfig } from './rest-config.js';

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

/** client-go's InClusterConfig: the service's address, the mounted CA, and the (rotating) token file. */
function inClusterConfig(env: NodeJS.ProcessEnv, root: string): RestConfig | undefined {
  const host = env['KUBERNETES_SERVICE_HOST'];
  const port = env['KUBERNETES_SERVICE_PORT'];
  const dir = join(root, serviceAccountDir);
  if (!host || !port || !isFile(join(dir, 'token'))) return undefined;
  const ca = join(dir, 'ca.crt');
  return {
    server: new URL(`https://${host.includes(':') ? `[${host}]` : host}:${port}`),
    tls: isFile(ca) ? { ca: readFileSync(ca) } : {},
    credentials: { kind: 'token-file', path: join(dir, 'token') },
  };
}

/** Returns the RestConfig and a short description of where it came from (for the startup log). */
export function loadKubeConfig(source: KubeConfigSource): { config: RestConfig; origin: string } {
  const env = source.env ?? process.env;
  let loaded: { config: RestConfig; origin: string } | undefined;
  if (source.kubeconfig) {
    if (isFile(source.kubeconfig)) loaded = { config: readRestConfig(source.kubeconfig), origin: source.kubeconfig };
    else source.logger.warn(`kubeconfig ${source.kubeconfig} is missing or not a file; ignoring it`);
  }
  if (!loaded) {
    const inCluster = inClusterConfig(env, source.serviceAccountRoot ?? '');
    if (inCluster) loaded = { config: inCluster, origin: 'in-cluster service account' };
  }
  if (!loaded) {
    const fallback = join(source.home ?? homedir(), '.kube', 'config');
    if (existsSync(fallback) && isFile(fallback)) loaded = { config: readRestConfig(fallback), origin: fallback };
  }
  if (source.master) {
    const config: RestConfig = loaded ? { ...loaded.config, server: new URL(source.master) } : { server: new URL(source.master), tls: {}, credentials: { kind: 'none' } };
    return { config, origin: `${loaded?.origin ?? 'no kubeconfig'}, server ${source.master}` };
  }
  if (!loaded) throw new Error('no kubeconfig: pass --kubeconfig or --master, or run in a cluster');
  return loaded;
}
