/**
 * Pod hooks for the stage controller: only scheduled pods on writable managed nodes are played,
 * IPs are tracked (pod-ips.ts), and a per-node index lets the node side re-feed a node's pods when
 * the node becomes writable.
 */
import type { Logger } from '../../util/log.js';
import { objectKey, podsResource, type KubeClient, type KubeObject } from '../../kube/index.js';
import type { Clock } from './clock.js';
import type { ControllerMetrics } from './controller-metrics.js';
import type { EventRecorder } from './event-recorder.js';
import type { NodeRegistry } from './node-registry.js';
import type { NodeSelection } from './node-selection.js';
import { PodIps } from './pod-ips.js';
import type { FuncMap, ResourceStages } from './stage-engine.js';
import { StageController } from './stage-controller.js';

export interface PodControllerOptions {
  client: KubeClient;
  selection: NodeSelection;
  nodes: NodeRegistry;
  stages: ResourceStages;
  parallelism: number;
  nodeIP: string;
  cidr: string;
  events: EventRecorder;
  logger: Logger;
  metrics?: ControllerMetrics;
  clock?: Clock;
  /** Send stage writes by the cheapest request with the same effect (write-routes.ts). Default true. */
  writeShortcuts?: boolean;
}

export interface PodSide {
  controller: StageController;
  ips: PodIps;
  /** Pods seen on `nodeName` (managed or not). */
  podsOn(nodeName: string): readonly string[];
  /** Re-feed every pod of a node that just became writable. */
  resyncNode(nodeName: string): void;
  run(signal: AbortSignal): Promise<void>;
}

function nodeNameOf(pod: KubeObject): string {
  return (pod['spec'] as { nodeName?: string } | undefined)?.nodeName ?? '';
}

/** Template functions with kwok's names and argument orders. */
export function buildPodFuncs(ips: PodIps, nodeIP: string): FuncMap {
  const podIps = (nodeName: unknown, hostNetwork: unknown, uid: unknown): string[] => ips.podIps(String(nodeName ?? ''), hostNetwork === true || hostNetwork === 'true', String(uid ?? ''));
  return {
    NodeIP: () => nodeIP,
    PodIP: () => ips.anyPodIp(),
    NodeIPWith: (nodeName: unknown) => ips.nodeIp(String(nodeName ?? '')),
    NodeIPsWith: (nodeName: unknown) => ips.nodeIps(String(nodeName ?? '')),
    // (nodeName, hostNetwork, uid, name, namespace): name and namespace only matter to kwok's CNI mode.
    PodIPWith: (nodeName: unknown, hostNetwork: unknown, uid: unknown) => podIps(nodeName, hostNetwork, uid)[0] ?? '',
    PodIPsWith: (nodeName: unknown, hostNetwork: unknown, uid: unknown) => podIps(nodeName, hostNetwork, uid),
  };
}

export function createPodSide(options: PodControllerOptions): PodSide {
  const { nodes, selection } = options;
  const byNode = new Map<string, Set<string>>();
  const ips = new PodIps({ defaultCidr: options.cidr, nodeIP: options.nodeIP, getNode: (name) => nodes.get(name) });
  const funcs = buildPodFuncs(ips, options.nodeIP);

  const observe = (type: string, pod: KubeObject): void => {
    const key = objectKey(pod);
    const nodeName = nodeNameOf(pod);
    if (type === 'DELETED') {
      const keys = byNode.get(nodeName);
      keys?.delete(key);
      if (keys?.size === 0) byNode.delete(nodeName);
      ips.release(pod);
      return;
    }
    if (!nodeName) return;
    let keys = byNode.get(nodeName);
    if (!keys) byNode.set(nodeName, (keys = new Set()));
    keys.add(key);
    // Every pod's IPs, not only those on our nodes: with shards (or several controllers sharing
    // --cidr) the pool must not hand out an address another instance already gave a pod.
    ips.markUsed(pod);
  };

  const controller = new StageController({
    client: options.client,
    ref: podsResource,
    selectors: selection.podWatch,
    stages: options.stages,
    parallelism: options.parallelism,
    events: options.events,
    logger: options.logger,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.writeShortcuts !== undefined ? { writeShortcuts: options.writeShortcuts } : {}),
    hooks: {
      observe,
      shouldPlay: (pod) => nodes.isWritable(nodeNameOf(pod)) && !selection.isDisregarded(pod),
      funcs: () => funcs,
    },
  });

  return {
    controller,
    ips,
    podsOn: (nodeName) => [...(byNode.get(nodeName) ?? [])],
    resyncNode(nodeName) {
      for (const key of byNode.get(nodeName) ?? []) controller.resync(key);
    },
    run: (signal) => controller.run(signal),
  };
}
