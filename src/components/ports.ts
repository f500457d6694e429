/**
 * Every port of every built-in component, described once. Allocation (which ports a create asks
 * for), the option that pins each one, the explicit-port and range checks, the fixed
 * in-container ports, the ports each component publishes (and so the PORTS column of
 * `get components`) and Prometheus' scrape targets all derive from this table.
 */
import type { ClusterOptionValues } from '../config/options.js';
import type { BuiltinComponentName, ComponentName } from './component.js';

interface PortRow {
  /** The port's key in ClusterPorts. */
  readonly key: string;
  readonly component: BuiltinComponentName;
  /** The port's name in the component's port list (kwokctl's names). */
  readonly name: string;
  /** kwokctl's in-container port (its compose runtime), used by every container runtime. */
  readonly container: number;
  /** The option that pins it on the host (0 or unset: a free one is picked). */
  readonly option?: keyof ClusterOptionValues;
  /** Prometheus scrapes /metrics here with this scheme. */
  readonly scrape?: 'http' | 'https';
}

export const PORT_TABLE = [
  { key: 'etcd', component: 'etcd', name: 'https', container: 2379, option: 'etcdPort' },
  { key: 'etcdPeer', component: 'etcd', name: 'peer-https', container: 2380, option: 'etcdPeerPort' },
  // etcd's plain-HTTP /metrics and /health listener (kubeadm's --listen-metrics-urls), loopback only.
  { key: 'etcdMetrics', component: 'etcd', name: 'metrics', container: 2381, scrape: 'http' },
  { key: 'kubeApiserver', component: 'kube-apiserver', name: 'https', container: 6443, option: 'kubeApiserverPort', scrape: 'https' },
  { key: 'kubeControllerManager', component: 'kube-controller-manager', name: 'https', container: 10257, option: 'kubeControllerManagerPort', scrape: 'https' },
  { key: 'kubeScheduler', component: 'kube-scheduler', name: 'https', container: 10259, option: 'kubeSchedulerPort', scrape: 'https' },
  { key: 'kwokController', component: 'kwok-controller', name: 'http', container: 10247, option: 'kwokControllerPort', scrape: 'https' },
  { key: 'prometheus', component: 'prometheus', name: 'http', container: 9090, option: 'prometheusPort', scrape: 'http' },
  { key: 'metricsServer', component: 'metrics-server', name: 'https', container: 4443, option: 'metricsServerPort', scrape: 'https' },
  // jaeger serves no /metrics on its query port (kwokctl does not scrape it either).
  { key: 'jaeger', component: 'jaeger', name: 'http', container: 16686, option: 'jaegerPort' },
  { key: 'jaegerOtlpGrpc', component: 'jaeger', name: 'otlp-grpc', container: 4317, option: 'jaegerOtlpGrpcPort' },
] as const satisfies readonly PortRow[];

export type PortKey = (typeof PORT_TABLE)[number]['key'];
export type PortInfo = (typeof PORT_TABLE)[number];

/** The host port of every port of the cluster. */
export type ClusterPorts = Record<PortKey, number>;

/** kwokctl's in-container ports (its compose runtime), used by every container runtime. */
export const CONTAINER_PORTS: Readonly<ClusterPorts> = Object.freeze(Object.fromEntries(PORT_TABLE.map((p) => [p.key, p.container])) as ClusterPorts);

/** The options that pin a port, in table order. */
export const PORT_OPTIONS: ReadonlyArray<keyof ClusterOptionValues> = PORT_TABLE.flatMap((p) => ('option' in p ? [p.option] : []));

/** The rows of one component, in the order it publishes them. */
export function portsOfComponent(component: ComponentName): readonly PortInfo[] {
  return PORT_TABLE.filter((p) => p.component === component);
}

/**
 * What a create asks the allocator for: the pinned port, or 0 for a free one. A disabled
 * component's ports are -1, which the allocator also fills with a free port (nothing uses it).
 */
export function portRequests(values: ClusterOptionValues, enabled: ReadonlySet<ComponentName>): ClusterPorts {
  const requested = (p: PortInfo): number => ('option' in p ? (values[p.option] as number) : 0);
  return Object.fromEntries(PORT_TABLE.map((p) => [p.key, enabled.has(p.component) ? requested(p) : -1])) as ClusterPorts;
}
