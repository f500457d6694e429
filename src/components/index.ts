import { UsageError } from '../util/errors.js';
import { applyExtraArgs } from './args.js';
import type { ClusterSpec, Component, ComponentName } from './component.js';
import type { ComponentPatch } from '../config/load.js';
import { buildEtcd } from './etcd.js';
import { buildKubeApiserver } from './kube-apiserver.js';
import { buildKubeControllerManager } from './kube-controller-manager.js';
import { buildKubeScheduler } from './kube-scheduler.js';
import { buildKwokController } from './kwok-controller.js';
import { buildPrometheus } from './prometheus.js';

export type { ArtifactName, ClusterPorts, ClusterSpec, Component, ComponentFile, ComponentMount, ComponentName, ComponentPort, Program, ReadinessProbe } from './component.js';
export { CONTAINER_PORTS, HOST_PLACEMENT, networkPlacement, placementOf, type Placement } from './placement.js';
export { COMPONENT_NAMES, DEFAULT_COMPONENTS, REQUIRED_COMPONENTS } from './component.js';
export { formatGoDuration, quantityToBytes } from './args.js';

const BUILDERS: Partial<Record<ComponentName, (spec: ClusterSpec) => Component>> = {
  etcd: buildEtcd,
  'kube-apiserver': buildKubeApiserver,
  'kube-controller-manager': buildKubeControllerManager,
  'kube-scheduler': buildKubeScheduler,
  'kwok-controller': buildKwokController,
  prometheus: buildPrometheus,
};

/** Pure: the components of a cluster, in a valid start order, with user patches applied. */
export function buildComponents(spec: ClusterSpec, patches: readonly ComponentPatch[] = []): Component[] {
  const components = spec.components.map((name) => {
    const build = BUILDERS[name];
    if (!build) throw new UsageError(`component ${name} is not supported by this runtime yet`);
    return build(spec);
  });
  for (const patch of patches) {
    const target = components.find((c) => c.name === patch.name);
    if (!target) throw new UsageError(`component ${patch.name} is patched (componentsPatches or --extra-args) but is not part of this cluster`, { hint: `components of this cluster: ${spec.components.join(', ')}` });
    target.args = applyExtraArgs(target.args, patch.extraArgs);
    for (const { name, value } of patch.extraEnvs) target.env[name] = value;
  }
  return orderByLinks(components);
}

/** Groups that can start together, each after the previous; a link to a disabled component is ignored. */
export function startGroups(components: readonly Component[]): Component[][] {
  const present = new Set(components.map((c) => c.name));
  const done = new Set<ComponentName>();
  const groups: Component[][] = [];
  let rest = [...components];
  while (rest.length > 0) {
    const ready = rest.filter((c) => c.links.every((l) => !present.has(l) || done.has(l)));
    if (ready.length === 0) throw new UsageError(`components have circular links: ${rest.map((c) => c.name).join(', ')}`);
    groups.push(ready);
    for (const c of ready) done.add(c.name);
    rest = rest.filter((c) => !ready.includes(c));
  }
  return groups;
}

function orderByLinks(components: Component[]): Component[] {
  return startGroups(components).flat();
}
