/**
 * The credentials a Pod gets from its ServiceAccount, read the way client-go's InClusterConfig
 * reads them: the API server from KUBERNETES_SERVICE_HOST/PORT, the CA, the bearer token and the
 * namespace from the mounted secret directory. The token is a file, not a value: the kubelet
 * rotates it (bound tokens live an hour), so the connection re-reads it (see connection.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { join } from 'node:path';

export const serviceAccountDir = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface InClusterConfig {
  server: string;
  caFile: string;
  tokenFile: string;
  /** The Pod's namespace, when the namespace file is mounted. */
  namespace: string | undefined;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The in-cluster config, or undefined outside a cluster (no service env, or no token file).
 * `root` prefixes the secret directory; only tests set it.
 */
export function detectInClusterConfig(env: NodeJS.ProcessEnv, root = ''): InClusterConfig | undefined {
  const host = env['KUBERNETES_SERVICE_HOST'];
  const port = env['KUBERNETES_SERVICE_PORT'];
  const dir = join(root, serviceAccountDir);
  const tokenFile = join(dir, 'token');
  if (!host || !port || !isFile(tokenFile)) return undefined;
  const namespaceFile = join(dir, 'namespace');
  const namespace = isFile(namespaceFile) ? readFileSync(namespaceFile, 'utf8').trim() || undefined : undefined;
  return {
    server: `https://${isIPv6(host) ? `[${host}]` : host}:${port}`,
    caFile: join(dir, 'ca.crt'),
    tokenFile,
    namespace,
  };
}

/** The token in a token file, without the trailing newline an editor or `kubectl create token > f` leaves. */
export function readTokenFile(path: string): string {
  return readFileSync(path, 'utf8').trim();
}
