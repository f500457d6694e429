import { UsageError } from '../util/errors.js';
import { applyExtraArgs } from './args.js';
import type { BuiltinComponentName, ClusterSpec, Component, ComponentName } from './component.js';
import type { ComponentPatch } from '../config/load.js';
import type { UserComponentSpec } from '../config/component-specs.js';
import { buildEtcd } from './etcd.js';
import { buildKubeApiserver } from './kube-apiserver.js';
import { buildKubeControllerManager } from './kube-controller-manager.js';
import { buildKubeScheduler } from './kube-scheduler.js';
import { buildKwokController } from './kwok-controller.js';
import { buildPrometheus } from './prometheus.js';
import { buildMetricsServer } from './metrics-server.js';
import { buildJaeger } from './jaeger.js';
import { buildSchedulerPlugins } from './scheduler-plugins.js';
import { startGroups } from './start-groups.js';

export type { ArtifactName, BuiltinComponentName, ClusterPorts, ClusterSpec, Component, ComponentFile, ComponentMount, ComponentName, ComponentPort, ComponentVolume, Program, ReadinessProbe } from './component.js';
export { HOST_PLACEMENT, networkPlacement, placementOf, type Placement } from './placement.js';
export { inClusterNode } from './in-node.js';
export { CONTAINER_PORTS, PORT_OPTIONS, PORT_TABLE, portRequests, type PortKey } from './ports.js';
export { COMPONENT_NAMES, DEFAULT_COMPONENTS, KWOKCTL_COMPONENTS_NOT_RUN, REQUIRED_COMPONENTS } from './component.js';
export { formatGoDuration, quantityToBytes } from './args.js';
export { startGroups } from './start-groups.js';
export { METRICS_API_SERVICE, metricsServerManifests } from './metrics-server.js';
export { apiserverTracingConfig } from './jaeger.js';
export { SCHEDULER_PLUGINS_METRICS_PORT, schedulerPluginsManifestObjects, schedulerPluginsManifestSources } from './scheduler-plugins.js';

const BUILDERS: Partial<Record<BuiltinComponentName, (spec: ClusterSpec) => Component>> = {
  etcd: buildEtcd,
  'kube-apiserver': buildKubeApiserver,
  'kube-controller-manager': buildKubeControllerManager,
  'kube-scheduler': buildKubeScheduler,
  'kwok-controller': buildKwokController,
  prometheus: buildPrometheus,
  'metrics-server': buildMetricsServer,
  jaeger: buildJaeger,
  'scheduler-plugins': buildSchedulerPlugins,
};

/**
 * Pure: the components of a cluster, in list order (start order comes from startGroups): the built-in ones, then the user's
 * extra components, with user patches applied to either.
 */
export function buildComponents(spec: ClusterSpec, patches: readonly ComponentPatch[] = [], extra: readonly UserComponentSpec[] = []): Component[] {
  const components = spec.components.map((name) => {
    const build = BUILDERS[name as BuiltinComponentName];
    if (!build) throw new UsageError(`component ${name} is not supported by this runtime yet`);
    return build(spec);
  });
  components.push(...extra.map((user) => buildUserComponent(user, spec.options.runtime)));
  const names = components.map((c) => c.name);
  for (const c of components) {
    const missing = c.links.filter((l) => !names.includes(l) && !(BUILDERS as Record<string, unknown>)[l]);
    if (missing.length > 0) throw new UsageError(`component ${c.name} links to ${missing.join(', ')}, which is not a component`, { hint: `components: ${names.join(', ')}` });
  }
  for (const patch of patches) {
    const target = components.find((c) => c.name === patch.name);
    if (!target) throw new UsageError(`component ${patch.name} is patched (componentsPatches or --extra-args) but is not part of this cluster`, { hint: `components of this cluster: ${names.join(', ')}` });
    target.args = applyExtraArgs(target.args, patch.extraArgs);
    for (const { name, value } of patch.extraEnvs) target.env[name] = value;
    if (patch.extraVolumes?.length) target.volumes = [...(target.volumes ?? []), ...patch.extraVolumes];
  }
  // Validated here (a cycle is bad input), kept in list order: everything that starts or stops
  // them goes by startGroups, and the list order is kwokctl's (export logs, get components).
  startGroups(components);
  return components;
}

/** A user's extra component: their program and arguments as given; ready while it runs. */
export function buildUserComponent(user: UserComponentSpec, runtime: string): Component {
  if (runtime === 'binary' && !user.binary) {
    throw new UsageError(`component ${user.name} has no binary, and the binary runtime runs programs on this host`, { hint: `add binary: /path/to/program to component ${user.name}` });
  }
  return {
    name: user.name,
    program: { path: user.binary ?? '' },
    args: user.args,
    env: Object.fromEntries(user.envs.map((e) => [e.name, e.value])),
    links: user.links,
    // A user program is not known to retry its links, so it starts once they are ready.
    // A host process listens where its arguments say (`port`); a container's `port` is published
    // at `hostPort` (at the same number when none is given).
    ports: user.ports.map((p) =>
      runtime !== 'binary' && p.hostPort && p.hostPort !== p.port ? { name: p.name, port: p.hostPort, containerPort: p.port } : { name: p.name, port: p.port },
    ),
    ...(user.volumes.length > 0 ? { volumes: user.volumes } : {}),
    ...(user.image ? { image: user.image } : {}),
    ...(user.command.length > 0 ? { command: user.command } : {}),
    ...(user.workDir ? { workDir: user.workDir } : {}),
  };
}

