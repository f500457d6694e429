import type { Component, ComponentName } from './component.js';
import { CONTAINER_PORTS } from './ports.js';

/**
 * Components a real cluster (kind) runs in its node, as the host sees them. Its apiserver and
 * kwokts's controller keep their shape: their ports are published at the cluster's ports and the
 * host probes them there. The others (kubeadm's etcd, controller-manager and scheduler; what
 * kwokts deploys besides the controller) are reshaped: no arguments (kind runs kubeadm's,
 * templates/kind has the others', and a record listing ours would mislead), no mounts, no files
 * (runtimes/kind writes what they read), and only the ports the node publishes (kind.yaml):
 * etcd's client port (2379 in the node), Prometheus' (9090) and jaeger's UI (16686). A probe is
 * kept only where it asks a published port (Prometheus' /-/ready, jaeger's /api/services); what
 * else they serve is out of the host's reach (etcd's plain-HTTP /health listens on the node's
 * loopback; metrics-server is reached through the apiserver), so the node running is what the
 * host can know of them.
 */
export function inClusterNode(component: Component): Component {
  if (KEPT.has(component.name)) return component;
  const published = PUBLISHED[component.name];
  const port = published ? component.ports.find((p) => p.name === published.name) : undefined;
  const { probe, files: _files, ...rest } = component;
  return {
    ...rest,
    args: [],
    mounts: [],
    ports: port && published ? [{ name: port.name, port: port.port, containerPort: published.containerPort }] : [],
    ...(probe && port && probe.port === port.port ? { probe } : {}),
  };
}

const KEPT: ReadonlySet<ComponentName> = new Set<ComponentName>(['kube-apiserver', 'kwok-controller']);
/** The ports of a kind node that kind.yaml publishes on the host, besides the apiserver's and the controller's. */
const PUBLISHED: Partial<Record<ComponentName, { name: string; containerPort: number }>> = {
  etcd: { name: 'https', containerPort: CONTAINER_PORTS.etcd },
  prometheus: { name: 'http', containerPort: CONTAINER_PORTS.prometheus },
  jaeger: { name: 'http', containerPort: CONTAINER_PORTS.jaeger },
};
