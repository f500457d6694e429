/** The resources the controller always needs, so hot paths never go through discovery. */
import type { KubeObject, ResourceRef } from './types.js';

export const nodesResource: ResourceRef = { group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false };
export const podsResource: ResourceRef = { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true };
export const configMapsResource: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };
export const eventsResource: ResourceRef = { group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true };
export const leasesResource: ResourceRef = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', kind: 'Lease', namespaced: true };
export const stagesResource: ResourceRef = { group: 'kwok.x-k8s.io', version: 'v1alpha1', resource: 'stages', kind: 'Stage', namespaced: false };
export const logsResource: ResourceRef = { group: 'kwok.x-k8s.io', version: 'v1alpha1', resource: 'logs', kind: 'Logs', namespaced: true };
export const clusterLogsResource: ResourceRef = { group: 'kwok.x-k8s.io', version: 'v1alpha1', resource: 'clusterlogs', kind: 'ClusterLogs', namespaced: false };
export const metricsResource: ResourceRef = { group: 'kwok.x-k8s.io', version: 'v1alpha1', resource: 'metrics', kind: 'Metric', namespaced: false };
export const resourceUsagesResource: ResourceRef = { group: 'kwok.x-k8s.io', version: 'v1alpha1', resource: 'resourceusages', kind: 'ResourceUsage', namespaced: true };
export const clusterResourceUsagesResource: ResourceRef = { group: 'kwok.x-k8s.io', version: 'v1alpha1', resource: 'clusterresourceusages', kind: 'ClusterResourceUsage', namespaced: false };

/** Exec, Attach and PortForward kinds (and their Cluster twins), by kind. */
export const streamingResources = {
  Exec: { group: 'kwok.x-k8s.io', version: 'v1alpha1', resource: 'execs', kind: 'Exec', namespaced: true },
  ClusterExec: { group: 'kwok.x-k8s.io', version: 'v1alpha1', resource: 'clusterexecs', kind: 'ClusterExec', namespaced: false },
  Attach: { group: 'kwok.x-k8s.io', version: 'v1alpha1', resource: 'attaches', kind: 'Attach', namespaced: true },
  ClusterAttach: { group: 'kwok.x-k8s.io', version: 'v1alpha1', resource: 'clusterattaches', kind: 'ClusterAttach', namespaced: false },
  PortForward: { group: 'kwok.x-k8s.io', version: 'v1alpha1', resource: 'portforwards', kind: 'PortForward', namespaced: true },
  ClusterPortForward: { group: 'kwok.x-k8s.io', version: 'v1alpha1', resource: 'clusterportforwards', kind: 'ClusterPortForward', namespaced: false },
} as const satisfies Record<string, ResourceRef>;

export const wellKnownResources: readonly ResourceRef[] = [
  nodesResource, podsResource, configMapsResource, eventsResource, leasesResource, stagesResource, logsResource, clusterLogsResource,
  ...Object.values(streamingResources),
  metricsResource, resourceUsagesResource, clusterResourceUsagesResource,
];

export function apiVersionOf(ref: ResourceRef): string {
  return ref.group === '' ? ref.version : `${ref.group}/${ref.version}`;
}

/** Split "apps/v1" into group and version; "v1" is the core group. */
export function parseApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** The key used by queues and caches: "namespace/name", or "name" for cluster-scoped objects. */
export function objectKey(object: KubeObject): string {
  const { name = '', namespace } = object.metadata;
  return namespace ? `${namespace}/${name}` : name;
}

/** URL path of a collection or of one object (and optionally its subresource). */
export function resourcePath(ref: ResourceRef, namespace?: string, name?: string, subresource?: string): string {
  let path = ref.group === '' ? `/api/${ref.version}` : `/apis/${ref.group}/${ref.version}`;
  if (ref.namespaced && namespace) path += `/namespaces/${encodeURIComponent(namespace)}`;
  path += `/${ref.resource}`;
  if (name !== undefined) path += `/${encodeURIComponent(name)}`;
  if (subresource) path += `/${subresource}`;
  return path;
}
