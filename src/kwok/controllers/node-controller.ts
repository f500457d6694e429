/**
 * Node hooks for the stage controller: selection by manage mode, the managed-node registry, leases
 * and the node template functions (NodeIP, NodeName, NodePort).
 *
 * When a node becomes writable (managed with leases off, or its lease acquired) the node itself and
 * every pod already seen on it are re-fed, so a node or pod that existed before the controller, or
 * that arrived before its node was managed, still gets its stages (seed 001's "never Ready" node).
 */
import type { Logger } from '../../util/log.js';
import { nodesResource, type KubeClient, type KubeObject } from '../../kube/index.js';
import type { Clock } from './clock.js';
import type { ControllerMetrics } from './controller-metrics.js';
import type { EventRecorder } from './event-recorder.js';
import { NodeLeases } from './node-leases.js';
import { NodeRegistry } from './node-registry.js';
import type { NodeSelection } from './node-selection.js';
import type { FuncMap, ResourceStages } from './stage-engine.js';
import { StageController } from './stage-controller.js';

export interface NodeTemplateValues {
  nodeIP: string;
  nodeName: string;
  nodePort: number;
}

export interface NodeLeaseOptions {
  holderIdentity: string;
  durationSeconds: number;
  parallelism: number;
  takeOverFrom?: readonly string[];
}

/** With --shard: which nodes this process owns among the live shards (shard-membership.ts). */
export interface ShardView {
  owns(nodeName: string): boolean;
  /** Identities of shards, whose node leases the node's owner may take over. */
  isShard(holder: string): boolean;
  /** How long a node that moved away keeps its lease renewed while the new owner takes it. */
  handoverGraceMs: number;
}

export interface NodeControllerOptions {
  client: KubeClient;
  selection: NodeSelection;
  stages: ResourceStages;
  parallelism: number;
  values: NodeTemplateValues;
  /** Omitted when --node-lease-duration-seconds is 0. */
  leases?: NodeLeaseOptions;
  events: EventRecorder;
  logger: Logger;
  metrics?: ControllerMetrics;
  clock?: Clock;
  /** Send stage writes by the cheapest request with the same effect (write-routes.ts). Default true. */
  writeShortcuts?: boolean;
  shard?: ShardView;
  /** Pods on this node may be played from now on (re-feed them). */
  onNodeWritable(nodeName: string): void;
}

export interface NodeSide {
  controller: StageController;
  registry: NodeRegistry;
  leases: NodeLeases | undefined;
  /**
   * The shard ring changed: re-feed only the nodes whose owner changed to or from this shard
   * (a join or leave moves about 1/N of them; re-matching every node's stages would stall a
   * shard of 50,000 nodes for seconds, long enough to miss its own lease renewal).
   */
  reassign(): void;
  run(signal: AbortSignal): Promise<void>;
}

export function buildNodeFuncs(values: NodeTemplateValues): FuncMap {
  return {
    NodeIP: () => values.nodeIP,
    NodeName: () => values.nodeName,
    NodePort: () => values.nodePort,
  };
}

export function createNodeSide(options: NodeControllerOptions): NodeSide {
  const { selection, logger } = options;
  const funcs = buildNodeFuncs(options.values);
  const becameWritable = (nodeName: string): void => {
    controller.resync(nodeName);
    options.onNodeWritable(nodeName);
  };

  const leases = options.leases
    ? new NodeLeases({
        client: options.client,
        ...options.leases,
        ...(options.shard ? { canTakeOver: (holder: string) => options.shard!.isShard(holder) } : {}),
        logger,
        ...(options.clock ? { clock: options.clock } : {}),
        onChange: (nodeName, held) => {
          logger.debug(`node ${nodeName}: lease ${held ? 'acquired' : 'lost'}`);
          if (held) becameWritable(nodeName);
        },
      })
    : undefined;
  const registry = new NodeRegistry(leases ? (name) => leases.isHeld(name) : () => true);

  const forget = (name: string): void => {
    if (registry.delete(name)) leases?.forget(name);
  };

  const observe = (type: string, node: KubeObject): void => {
    const name = node.metadata.name ?? '';
    if (type === 'DELETED' || !selection.isManagedNode(node)) {
      forget(name);
      return;
    }
    if (options.shard && !options.shard.owns(name)) {
      // Another shard's node: stop playing it now, hand its lease over without a gap.
      if (registry.delete(name)) leases?.release(name, options.shard.handoverGraceMs);
      return;
    }
    const isNew = !registry.has(name);
    registry.set(node);
    if (leases) leases.ensure(name, node.metadata.uid ?? '');
    else if (isNew) options.onNodeWritable(name);
    if (isNew) logger.debug(`node ${name}: managed`);
  };

  const controller: StageController = new StageController({
    client: options.client,
    ref: nodesResource,
    selectors: selection.nodeWatch,
    stages: options.stages,
    parallelism: options.parallelism,
    events: options.events,
    logger,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.writeShortcuts !== undefined ? { writeShortcuts: options.writeShortcuts } : {}),
    hooks: {
      observe,
      shouldPlay: (node) => registry.isWritable(node.metadata.name ?? ''),
      funcs: () => funcs,
    },
  });

  const side: NodeSide = {
    controller,
    registry,
    leases,
    reassign() {
      const shard = options.shard;
      if (!shard) return;
      for (const node of [...controller.reflector.store.values()]) {
        const name = node.metadata.name ?? '';
        if (shard.owns(name) !== registry.has(name)) controller.handle('MODIFIED', node);
      }
    },
    async run(signal) {
      await Promise.all([controller.run(signal), leases?.run(signal)]);
    },
  };
  return side;
}
