/**
 * Where components listen and how they reach each other, the one thing that differs between a
 * host process and a container. Builders ask these helpers instead of writing `127.0.0.1:<port>`,
 * so each component is still described once for every runtime.
 *
 * - host: every component on the host, bound to the cluster's bind address, reached at
 *   `127.0.0.1:<host port>`.
 * - network: every component in its own container on a per-cluster network, listening on kwokctl's
 *   fixed in-container port on all of the container's interfaces, reached by container name
 *   (`kwok-<cluster>-<component>:<port>`); the host ports are only where the engine publishes them
 *   (on 127.0.0.1).
 */
import type { ClusterPorts, ClusterSpec, ComponentName, ComponentPort } from './component.js';
import { CONTAINER_PORTS, portsOfComponent } from './ports.js';

export type Placement = { kind: 'host' } | { kind: 'network'; hostPrefix: string };

export const HOST_PLACEMENT: Placement = Object.freeze({ kind: 'host' });

export { CONTAINER_PORTS } from './ports.js';

export function networkPlacement(cluster: string): Placement {
  return { kind: 'network', hostPrefix: `kwok-${cluster}-` };
}

export function placementOf(spec: ClusterSpec): Placement {
  return spec.placement ?? HOST_PLACEMENT;
}

/** The address a component binds. In a container only the published port is reachable from the host. */
export function listenAddress(spec: ClusterSpec): string {
  return placementOf(spec).kind === 'host' ? spec.options.bindAddress : '0.0.0.0';
}

/** The port a component listens on where it runs. */
export function listenPort(spec: ClusterSpec, port: keyof ClusterPorts): number {
  return placementOf(spec).kind === 'host' ? spec.ports[port] : CONTAINER_PORTS[port];
}

/** `host:port` by which another component (or the component itself, as advertised) reaches it. */
export function reach(spec: ClusterSpec, component: ComponentName, port: keyof ClusterPorts): string {
  const placement = placementOf(spec);
  return placement.kind === 'host' ? `127.0.0.1:${spec.ports[port]}` : `${placement.hostPrefix}${component}:${CONTAINER_PORTS[port]}`;
}

/**
 * The longest socket path every Unix takes (sun_path holds 108 bytes on Linux, 104 on macOS, with
 * the terminating NUL).
 */
const MAX_SOCKET_PATH_BYTES = 103;

/**
 * Where kube-apiserver reaches etcd on the host: a unix socket in the cluster directory, or
 * undefined (TLS over TCP, as another container or a path too long for a socket need).
 *
 * Why: over TCP every one of the apiserver's etcd clients (about one per resource, dozens) does
 * a TLS handshake with etcd at start-up, and every request and watch event after is encrypted by
 * one side and decrypted by the other. On 2 cores, where kcm, the scheduler and the kwok
 * controller start beside the apiserver, that CPU is a visible part of a create's time (`npm run
 * bench -- create` shows it), and etcd spends less CPU without it. The socket is plain gRPC,
 * and its protection is the file system instead of a client
 * certificate: it sits in the cluster directory (0700), which only the cluster's owner can enter.
 * etcd's TCP port stays as it was (TLS with client certificates) for etcdctl and snapshots.
 */
export function etcdSocket(spec: ClusterSpec): string | undefined {
  if (placementOf(spec).kind !== 'host' || process.platform === 'win32') return undefined;
  const path = spec.paths.etcdSocket;
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH_BYTES ? path : undefined;
}

/** The name a component's container has on the cluster network (undefined on the host). */
export function networkName(spec: ClusterSpec, component: ComponentName): string | undefined {
  const placement = placementOf(spec);
  return placement.kind === 'network' ? `${placement.hostPrefix}${component}` : undefined;
}

/** The kubeconfig components use: the host one, or the one naming the apiserver's container. */
export function componentKubeconfig(spec: ClusterSpec): string {
  return placementOf(spec).kind === 'host' ? spec.paths.kubeconfig : spec.paths.networkKubeconfig;
}

/** A published port: the host port, and where the component listens when that differs. */
export function componentPort(spec: ClusterSpec, name: string, port: keyof ClusterPorts): ComponentPort {
  const inside = listenPort(spec, port);
  return inside === spec.ports[port] ? { name, port: spec.ports[port] } : { name, port: spec.ports[port], containerPort: inside };
}

/** Every port of a built-in component (see ports.ts), as it publishes them. */
export function publishedPorts(spec: ClusterSpec, component: ComponentName): ComponentPort[] {
  return portsOfComponent(component).map((p) => componentPort(spec, p.name, p.key));
}
