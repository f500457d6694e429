/**
 * Wires the node side, the pod side and the stages manager into one controller. Its config is
 * validated before anything is wired (kwok's controller.go does the same), so a bad combination
 * fails at construction rather than halfway through startup.
 */
import { setMaxListeners } from 'node:events';
import type { Logger } from '../../util/log.js';
import type { KubeClient } from '../../kube/index.js';
import type { Clock } from './clock.js';
import type { ControllerMetrics } from './controller-metrics.js';
import { EventRecorder } from './event-recorder.js';
import { createNodeSide } from './node-controller.js';
import type { NodeSide, ShardView } from './node-controller.js';
import type { NodeSelection } from './node-selection.js';
import { createPodSide } from './pod-controller.js';
import { ProviderConfigWatch } from './provider-config-watch.js';
import type { PodSide } from './pod-controller.js';
import { emptyResourceStages } from './stage-engine.js';
import type { StageCatalog, StageCatalogFactory } from './stage-engine.js';
import { StagesManager } from './stages-manager.js';

export interface KwokControllerConfig {
  client: KubeClient;
  selection: NodeSelection;
  catalogFactory: StageCatalogFactory;
  /** Stages from --config; omitted when Stage CRs are watched instead. */
  stages?: StageCatalog;
  watchStageCrds: boolean;
  /** Lease holder identity and event source host. */
  identity: string;
  nodeIP: string;
  nodeName: string;
  nodePort: number;
  cidr: string;
  nodeLeaseDurationSeconds: number;
  nodeLeaseParallelism: number;
  /** Identities whose node leases are taken at once (the leader this replica replaced). */
  takeOverNodeLeasesFrom?: readonly string[];
  nodePlayStageParallelism: number;
  podPlayStageParallelism: number;
  logger: Logger;
  metrics?: ControllerMetrics;
  clock?: Clock;
  /** With --shard: only the nodes the shard ring gives this process. */
  shard?: ShardView;
  /** Check cluster-autoscaler kwok-provider ConfigMaps and warn about templates it would skip (default on). */
  checkAutoscalerProvider?: boolean;
  /** Send stage writes by the cheapest request with the same effect (write-routes.ts). Default true. */
  writeShortcuts?: boolean;
}

export interface ControllerStats {
  managedNodes: number;
  managedPods: number;
  heldLeases: number;
  queueDepth: Record<string, number>;
}

function validate(config: KwokControllerConfig): void {
  const positive: [string, number][] = [
    ['nodeLeaseParallelism', config.nodeLeaseParallelism],
    ['nodePlayStageParallelism', config.nodePlayStageParallelism],
    ['podPlayStageParallelism', config.podPlayStageParallelism],
  ];
  for (const [name, value] of positive) if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${value}`);
  if (!Number.isFinite(config.nodeLeaseDurationSeconds) || config.nodeLeaseDurationSeconds < 0) throw new Error('nodeLeaseDurationSeconds must be 0 or more');
  if (!config.identity) throw new Error('identity must not be empty');
}

export class KwokController {
  readonly nodes: NodeSide;
  readonly pods: PodSide;
  readonly stages: StagesManager;
  readonly providerWatch: ProviderConfigWatch | undefined;

  constructor(private readonly config: KwokControllerConfig) {
    validate(config);
    const { client, logger } = config;
    const events = new EventRecorder(client, logger, config.identity);
    const common = {
      client,
      events,
      ...(config.metrics ? { metrics: config.metrics } : {}),
      ...(config.clock ? { clock: config.clock } : {}),
      ...(config.writeShortcuts !== undefined ? { writeShortcuts: config.writeShortcuts } : {}),
    };
    // The pod side exists first: the node side calls back into it when a node becomes writable.
    let pods: PodSide | undefined;
    this.nodes = createNodeSide({
      ...common,
      logger,
      selection: config.selection,
      stages: emptyResourceStages,
      parallelism: config.nodePlayStageParallelism,
      values: { nodeIP: config.nodeIP, nodeName: config.nodeName, nodePort: config.nodePort },
      ...(config.nodeLeaseDurationSeconds > 0
        ? {
            leases: {
              holderIdentity: config.identity,
              durationSeconds: config.nodeLeaseDurationSeconds,
              parallelism: config.nodeLeaseParallelism,
              ...(config.takeOverNodeLeasesFrom ? { takeOverFrom: config.takeOverNodeLeasesFrom } : {}),
            },
          }
        : {}),
      ...(config.shard ? { shard: config.shard } : {}),
      onNodeWritable: (nodeName) => pods?.resyncNode(nodeName),
    });
    pods = createPodSide({
      ...common,
      logger,
      selection: config.selection,
      nodes: this.nodes.registry,
      stages: emptyResourceStages,
      parallelism: config.podPlayStageParallelism,
      nodeIP: config.nodeIP,
      cidr: config.cidr,
    });
    this.pods = pods;
    this.stages = new StagesManager({ ...common, logger, catalogFactory: config.catalogFactory, node: this.nodes.controller, pod: pods.controller });
    if (config.stages && !config.watchStageCrds) this.stages.apply(config.stages);
    this.providerWatch = config.checkAutoscalerProvider === false ? undefined : new ProviderConfigWatch({ client, logger, events });
  }

  /** Runs until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    // Every watch, worker pool and queue listens for the stop; one inner signal keeps the caller's
    // signal free of dozens of listeners (and Node's leak warning quiet).
    const inner = new AbortController();
    setMaxListeners(0, inner.signal);
    const stop = (): void => inner.abort();
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    try {
      await Promise.all([
        this.nodes.run(inner.signal),
        this.pods.run(inner.signal),
        this.stages.run(inner.signal, this.config.watchStageCrds),
        ...(this.providerWatch ? [this.providerWatch.run(inner.signal)] : []),
      ]);
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  /** Resolves when the node and pod watches have delivered their initial lists. */
  async waitForSync(): Promise<void> {
    await Promise.all([this.nodes.controller.waitForSync(), this.pods.controller.waitForSync()]);
  }

  stats(): ControllerStats {
    const registry = this.nodes.registry;
    let managedPods = 0;
    for (const key of this.pods.controller.reflector.store.keys()) {
      const pod = this.pods.controller.reflector.store.get(key);
      const nodeName = (pod?.['spec'] as { nodeName?: string } | undefined)?.nodeName ?? '';
      if (registry.isWritable(nodeName)) managedPods++;
    }
    return {
      managedNodes: registry.size,
      managedPods,
      heldLeases: this.nodes.leases?.heldCount ?? 0,
      queueDepth: { Node: this.nodes.controller.queueDepth, Pod: this.pods.controller.queueDepth },
    };
  }
}
