/**
 * What the metrics endpoints read: the nodes and pods (their own list+watch, independent of the
 * controllers and of leadership, as kwok's server has its own caches) and the Metric,
 * ResourceUsage and ClusterResourceUsage objects, each kind from the --config files or, when listed
 * in --enable-crds, from custom resources. An invalid custom resource is logged and left out.
 */
import type { Logger } from '../../util/log.js';
import { MetricsDocumentError, parseClusterResourceUsageDocument, parseMetricDocument, parseResourceUsageDocument } from '../api/metrics-schema.js';
import type { ClusterResourceUsage, Metric, MetricsKind, ResourceUsage } from '../api/metrics-schema.js';
import { Reflector, clusterResourceUsagesResource, metricsResource, nodesResource, podsResource, resourceUsagesResource, type KubeClient, type KubeObject, type ResourceRef } from '../../kube/index.js';
import type { ApiObject, ResourceMetricsSource } from '../api/metrics-schema.js';

export interface MetricsObjectsOptions {
  metrics?: readonly Metric[];
  resourceUsages?: readonly ResourceUsage[];
  clusterResourceUsages?: readonly ClusterResourceUsage[];
  logger: Logger;
}

const REFS: Record<MetricsKind, ResourceRef> = {
  Metric: metricsResource,
  ResourceUsage: resourceUsagesResource,
  ClusterResourceUsage: clusterResourceUsagesResource,
};

function keyOf(o: KubeObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
}

export class MetricsObjects implements ResourceMetricsSource {
  private metricList: readonly Metric[];
  private usageList: readonly ResourceUsage[];
  private clusterUsageList: readonly ClusterResourceUsage[];
  private readonly nodes = new Map<string, ApiObject>();
  private readonly pods = new Map<string, ApiObject>();
  private readonly podsByNode = new Map<string, Map<string, ApiObject>>();

  constructor(private readonly options: MetricsObjectsOptions) {
    this.metricList = options.metrics ?? [];
    this.usageList = options.resourceUsages ?? [];
    this.clusterUsageList = options.clusterResourceUsages ?? [];
  }

  node(name: string): ApiObject | undefined {
    return this.nodes.get(name);
  }

  pod(namespace: string, name: string): ApiObject | undefined {
    return this.pods.get(`${namespace}/${name}`);
  }

  podsOn(node: string): readonly ApiObject[] {
    return [...(this.podsByNode.get(node)?.values() ?? [])];
  }

  metrics(): readonly Metric[] {
    return this.metricList;
  }

  resourceUsages(): readonly ResourceUsage[] {
    return this.usageList;
  }

  clusterResourceUsages(): readonly ClusterResourceUsage[] {
    return this.clusterUsageList;
  }

  /** Follow nodes, pods and the custom resources of `kinds` until `signal` aborts. */
  async run(client: KubeClient, kinds: readonly MetricsKind[], signal: AbortSignal): Promise<void> {
    const { logger } = this.options;
    const nodes = new Reflector({
      client,
      ref: nodesResource,
      logger,
      onEvent: (type, o) => {
        if (type === 'DELETED') this.nodes.delete(o.metadata.name ?? '');
        else this.nodes.set(o.metadata.name ?? '', o as unknown as ApiObject);
      },
    });
    const pods = new Reflector({ client, ref: podsResource, logger, onEvent: (type, o) => this.onPod(type === 'DELETED', o) });
    const crs = kinds.map((kind) => this.reflectorFor(client, kind));
    await Promise.all([nodes.run(signal), pods.run(signal), ...crs.map((r) => r.run(signal))]);
  }

  private onPod(deleted: boolean, o: KubeObject): void {
    const key = keyOf(o);
    const previous = this.pods.get(key);
    const previousNode = (previous?.['spec'] as { nodeName?: string } | undefined)?.nodeName;
    if (previousNode) this.podsByNode.get(previousNode)?.delete(key);
    if (deleted) {
      this.pods.delete(key);
      return;
    }
    const pod = o as unknown as ApiObject;
    this.pods.set(key, pod);
    const nodeName = (pod['spec'] as { nodeName?: string } | undefined)?.nodeName;
    if (!nodeName) return;
    let onNode = this.podsByNode.get(nodeName);
    if (!onNode) this.podsByNode.set(nodeName, (onNode = new Map()));
    onNode.set(key, pod);
  }

  private reflectorFor(client: KubeClient, kind: MetricsKind): Reflector {
    const { logger } = this.options;
    const reflector: Reflector = new Reflector({
      client,
      ref: REFS[kind],
      logger,
      onEvent: () => {
        // Sorted by name: which ClusterResourceUsage applies first must not depend on watch timing.
        const objects = [...reflector.store.values()].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
        const valid = objects.flatMap((object): Array<Metric | ResourceUsage | ClusterResourceUsage> => {
          try {
            if (kind === 'Metric') return [parseMetricDocument(object)];
            if (kind === 'ResourceUsage') return [parseResourceUsageDocument(object)];
            return [parseClusterResourceUsageDocument(object)];
          } catch (error) {
            if (!(error instanceof MetricsDocumentError)) throw error;
            logger.error(`${error.message}; ignoring it`);
            return [];
          }
        });
        if (kind === 'Metric') this.metricList = valid as Metric[];
        else if (kind === 'ResourceUsage') this.usageList = valid as ResourceUsage[];
        else this.clusterUsageList = valid as ClusterResourceUsage[];
      },
    });
    return reflector;
  }
}
