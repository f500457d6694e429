import { CLUSTER_LABEL, COMPOSE_PROJECT_LABEL, runtimeObjectName } from '../../src/naming/naming.js';
import type { Component } from '../../src/components/index.js';
import { PreflightError } from '../../src/util/errors.js';
import type { ContainerSpec } from './operations.js';

/** Labels that mark a container or network as the cluster's: list and delete work from them. */
export function clusterLabels(cluster: string, extra: Record<string, string> = {}): Record<string, string> {
  return { [CLUSTER_LABEL]: cluster, [COMPOSE_PROJECT_LABEL]: runtimeObjectName(cluster), ...extra };
}

/**
 * Pure: a component as a container. Host paths are mounted at the same path, so the component's
 * arguments are used unchanged; ports are published on loopback at the cluster's host ports, so
 * readiness probes, kubectl and etcdctl reach them as they reach host processes.
 */
export function buildContainerSpec(component: Component, cluster: string, present: ReadonlySet<string>, fileOwner?: string): ContainerSpec {
  if (!component.image) {
    throw new PreflightError(`component ${component.name} has no image`, { hint: `pass --${component.name}-image` });
  }
  return {
    name: runtimeObjectName(cluster, component.name),
    image: component.image,
    // Control-plane images carry the binary on PATH under its own name and no entrypoint of
    // their own (registry.k8s.io's images); the kwok controller image's entrypoint is the controller;
    // a user component may name its own.
    entrypoint: component.command ?? ('artifact' in component.program ? [component.program.artifact] : []),
    args: component.args,
    env: component.env,
    network: runtimeObjectName(cluster),
    labels: clusterLabels(cluster, { 'io.kwokts.component': component.name }),
    ports: component.ports.map((p) => ({ hostIp: '127.0.0.1', hostPort: p.port, containerPort: p.containerPort ?? p.port })),
    mounts: [
      ...(component.mounts ?? []).map((m) => ({ hostPath: m.path, containerPath: m.path, readOnly: m.readOnly })),
      // The user's extraVolumes and their components' volumes, where they asked for them.
      ...(component.volumes ?? []).map((v) => ({ hostPath: v.hostPath, containerPath: v.mountPath, readOnly: v.readOnly })),
    ],
    links: component.links.filter((l) => present.has(l)).map((l) => runtimeObjectName(cluster, l)),
    ...(component.workDir ? { workDir: component.workDir } : {}),
    // The cluster's files are its owner's alone (0600/0700); see Component.runAsFileOwner.
    ...(component.runAsFileOwner && fileOwner ? { user: fileOwner } : {}),
  };
}
