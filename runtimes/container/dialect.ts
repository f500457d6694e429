import type { CommandDialect } from './operations.js';

/** Where an engine's Docker-compatible API may be listening. */
export type ApiEndpoint = { socketPath: string } | { host: string; port: number; protocol: 'http' | 'https' };

export interface DetectEnv {
  env: NodeJS.ProcessEnv;
  uid: number;
  home: string;
  /** Whether a path exists (injected, so detection is unit-tested without a daemon). */
  exists: (path: string) => boolean;
}

/**
 * The few facts that tell docker, podman and nerdctl apart; the container runtime is written
 * once against this record (kind's providers and kwokctl's compose runtime fork per engine).
 */
export interface ContainerDialect extends CommandDialect {
  name: 'docker' | 'podman' | 'nerdctl';
  /** api: Docker-compatible Engine API through dockerode; cli: the CLI through the Executor. */
  transport: 'api' | 'cli';
  /** API endpoints to try, in order (api transport only). */
  endpoints(detect: DetectEnv): ApiEndpoint[];
  /**
   * Start the engine's API service when nothing listens (podman's is socket-activated or
   * started by hand); returns the endpoint it listens on.
   */
  startService?(detect: DetectEnv): Promise<ApiEndpoint | undefined>;
  /**
   * Give each container a fixed address on the cluster network (nerdctl): its CNI host-local IPAM
   * hands out the next free address at every start, so a restarted etcd moves, and the apiserver's
   * etcd client keeps dialing the old address (i/o timeouts) until it resolves the name again.
   */
  pinAddresses?: boolean;
  /** Extra labels a network gets (podman's own compose project label). */
  networkLabels(cluster: string): Record<string, string>;
  /**
   * The engine also serves libpod's API (podman), which says whether a network has DNS: with
   * podman's CNI backend and no dnsname plugin, or netavark without aardvark-dns, it has none and
   * components could not find each other by name.
   */
  libpodApi?: boolean;
  /** What to do when the engine is not installed / not answering / its networks cannot resolve names. */
  hints: { install: string; start: string; dns?: string };
}

/** `unix:///path` or `tcp://host:port` (DOCKER_HOST / CONTAINER_HOST syntax). */
export function parseHostUrl(value: string): ApiEndpoint | undefined {
  if (value.startsWith('unix://')) return { socketPath: value.slice('unix://'.length) };
  const tcp = /^(tcp|http|https):\/\/([^:/]+):(\d+)\/?$/.exec(value);
  if (tcp) return { host: tcp[2]!, port: Number(tcp[3]), protocol: tcp[1] === 'https' ? 'https' : 'http' };
  return undefined;
}

export function describeEndpoint(endpoint: ApiEndpoint): string {
  return 'socketPath' in endpoint ? `unix://${endpoint.socketPath}` : `${endpoint.protocol}://${endpoint.host}:${endpoint.port}`;
}
