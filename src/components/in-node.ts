import type { Component, ComponentName } from './component.js';
import { CONTAINER_PORTS } from './ports.js';

/**
 * Components a real cluster (kind) runs in its node, as the host sees them. Its apiserver and
 * kwokts's controller keep their shape: their ports are published at the cluster's ports and the
 * host probes them there. The others (kubeadm's etcd; metrics-server, which kwokts deploys) are
 * reshaped: no arguments (kind runs kubeadm's, templates/kind has metrics-server's, and a record
 * listing ours would mislead), no mounts, and no probe, since what they serve is out of the
 * host's reach (etcd's plain-HTTP /health listens on the node's loopback; metrics-server is
 * reached through the apiserver), so the node running is what the host can know. Of their ports
 * only etcd's client port is published: in-node 2379 at the cluster's etcd port (kind.yaml).
 */
export function inClusterNode(component: Component): Component {
  if (KEPT.has(component.name)) return component;
  const published = PUBLISHED[component.name];
  const port = published ? component.ports.find((p) => p.name === published.name) : undefined;
  const { probe: _probe, ...rest } = component;
  return { ...rest, args: [], mounts: [], ports: port && published ? [{ name: port.name, port: port.port, containerPort: published.containerPort }] : [] };
}

const KEPT: ReadonlySet<ComponentName> = new Set<ComponentName>(['kube-apiserver', 'kwok-controller']);
const PUBLISHED: Partial<Record<ComponentName, { name: string; containerPort: number }>> = { etcd: { name: 'https', containerPort: CONTAINER_PORTS.etcd } };
