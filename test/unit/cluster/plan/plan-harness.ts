/**
 * Plans built the way `create cluster` builds them, with the machine pinned: a fixed workdir,
 * ports handed out in order from 32001, no other clusters, and container engines that are absent
 * (nothing exists yet, as kwokctl's dry run assumes). Shared by the golden and rollback tests.
 */
import { chooseComponents } from '../../../../src/cluster/create.js';
import { componentsOfMode, planCreate, type CreatePlan, type PlanProbes } from '../../../../src/cluster/create-plan.js';
import type { ClusterPorts } from '../../../../src/components/index.js';
import { emptyConfig, type LoadedConfig } from '../../../../src/config/load.js';
import type { ClusterOptionValues } from '../../../../src/config/options.js';
import { applyHeartbeatFactor, componentSelection, resolveOptionValues } from '../../../../src/config/resolve.js';
import { BinaryRuntime } from '../../../../runtimes/binary/binary-runtime.js';
import { AbsentEngine } from '../../../../runtimes/container/absent-engine.js';
import { ContainerRuntime } from '../../../../runtimes/container/container-runtime.js';
import { DOCKER } from '../../../../runtimes/docker.js';
import { KindRuntime } from '../../../../runtimes/kind/kind-runtime.js';
import { NERDCTL } from '../../../../runtimes/nerdctl.js';
import { PODMAN } from '../../../../runtimes/podman.js';
import type { Runtime } from '../../../../runtimes/runtime.js';

export const GOLDEN_WORKDIR = '/kwokts-golden/workdir';
export const GOLDEN_KUBECONFIG = '/kwokts-golden/home/.kube/config';
export const GOLDEN_CONTROLLER = '/kwokts/bin/kwok-controller.js';

export const RUNTIMES: Record<string, () => Runtime> = {
  binary: () => new BinaryRuntime(),
  docker: () => new ContainerRuntime(DOCKER, async () => new AbsentEngine()),
  podman: () => new ContainerRuntime(PODMAN, async () => new AbsentEngine()),
  nerdctl: () => new ContainerRuntime(NERDCTL, async () => new AbsentEngine()),
  kind: () => new KindRuntime(),
};

/** Ports as a fresh machine would give them, but the same every run. */
export function pinnedProbes(): PlanProbes {
  return {
    portsOfOtherClusters: async () => new Set(),
    isPortInUse: async () => false,
    allocatePorts: async (requested) => {
      let next = 32001;
      return Object.fromEntries(Object.entries(requested).map(([k, want]) => [k, want > 0 ? want : next++])) as unknown as ClusterPorts;
    },
    kwokControllerEntry: GOLDEN_CONTROLLER,
  };
}

export interface PlanCase {
  runtime: string;
  /** Flag values, as `create cluster` takes them. */
  flags?: Partial<ClusterOptionValues>;
  config?: LoadedConfig;
  userKubeconfig?: string;
  workdir?: string;
  name?: string;
  runtimeObject?: Runtime;
  /** Other machine reads than pinnedProbes'. */
  probes?: PlanProbes;
}

export async function planFor(c: PlanCase): Promise<CreatePlan> {
  const values = applyHeartbeatFactor(resolveOptionValues({}, {}, { ...c.flags, runtime: c.runtime }));
  const selection = componentSelection(values);
  const runtime = c.runtimeObject ?? RUNTIMES[c.runtime]!();
  const chosen = chooseComponents(selection.enable, selection.disable, selection.base);
  const components = componentsOfMode(runtime.info().mode, chosen);
  return planCreate(
    {
      name: c.name ?? 'golden',
      workdir: c.workdir ?? GOLDEN_WORKDIR,
      config: c.config ?? emptyConfig(),
      values,
      runtime,
      components,
      userKubeconfig: c.userKubeconfig ?? GOLDEN_KUBECONFIG,
      waitMs: 0,
      logLevel: 0,
    },
    c.probes ?? pinnedProbes(),
  );
}
