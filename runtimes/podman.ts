import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ApiEndpoint, ContainerDialect, DetectEnv } from './container/dialect.js';
import { parseHostUrl } from './container/dialect.js';

/** How long an on-demand API service stays up without requests (it is started again when needed). */
const SERVICE_IDLE_SECONDS = 60;

/**
 * Podman through its Docker-compatible API service, with the same dockerode adapter as docker.
 * CONTAINER_HOST wins (podman's own variable); otherwise the rootful or rootless socket. When
 * nothing listens and the podman CLI is installed, `podman system service` is started on the
 * default socket (as socket activation would), and exits after a minute without requests.
 */
export const PODMAN: ContainerDialect = {
  name: 'podman',
  cli: 'podman',
  linkFlag: '--requires',
  transport: 'api',
  endpoints: (detect) => {
    const socket = podmanSocket(detect);
    return socket.explicit ? [socket.endpoint] : [socket.endpoint].filter((e) => 'socketPath' in e && detect.exists(e.socketPath));
  },
  startService,
  networkLabels: (cluster) => ({ 'io.podman.compose.project': `kwok-${cluster}` }),
  libpodApi: true,
  hints: {
    install: 'install podman (Debian: `apt-get install podman`)',
    start: 'start its API service (`podman system service --time=0 &`, or `systemctl start podman.socket`) or set CONTAINER_HOST',
    dns: 'give podman networks DNS: use the netavark backend with aardvark-dns (Debian: `apt-get install netavark aardvark-dns`, and `network_backend = "netavark"` under [network] in containers.conf; existing networks and containers must be removed first: `podman system reset`), or for the CNI backend install the dnsname plugin (Debian: golang-github-containernetworking-plugin-dnsname)',
  },
};

export function podmanSocket({ env, uid }: DetectEnv): { endpoint: ApiEndpoint; explicit: boolean } {
  const explicit = env.CONTAINER_HOST ? parseHostUrl(env.CONTAINER_HOST) : undefined;
  if (explicit) return { endpoint: explicit, explicit: true };
  if (uid === 0) return { endpoint: { socketPath: '/run/podman/podman.sock' }, explicit: false };
  const runtimeDir = env.XDG_RUNTIME_DIR || `/run/user/${uid}`;
  return { endpoint: { socketPath: join(runtimeDir, 'podman', 'podman.sock') }, explicit: false };
}

async function startService(detect: DetectEnv): Promise<ApiEndpoint | undefined> {
  const { endpoint, explicit } = podmanSocket(detect);
  if (!('socketPath' in endpoint)) return undefined;
  // The default socket's directory is podman's to make; a CONTAINER_HOST in a directory that
  // does not exist is a mistake to report, not a place to create.
  if (explicit && !detect.exists(dirname(endpoint.socketPath))) return undefined;
  mkdirSync(dirname(endpoint.socketPath), { recursive: true });
  // With CONTAINER_HOST set, podman acts as a remote client and cannot serve.
  const { CONTAINER_HOST: _host, CONTAINER_CONNECTION: _connection, ...env } = detect.env;
  const spawned = await new Promise<boolean>((resolve) => {
    const child = spawn('podman', ['system', 'service', `--time=${SERVICE_IDLE_SECONDS}`, `unix://${endpoint.socketPath}`], {
      detached: true,
      stdio: 'ignore',
      env,
    });
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
    child.once('error', () => resolve(false));
  });
  if (!spawned) return undefined;
  const { default: Docker } = await import('dockerode');
  const docker = new Docker({ socketPath: endpoint.socketPath });
  for (let i = 0; i < 100; i++) {
    try {
      await docker.ping();
      return endpoint;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return undefined;
}
