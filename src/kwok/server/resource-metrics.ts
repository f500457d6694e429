/**
 * The kubelet's metrics endpoints as kwok serves them: every Metric object's path (kwok's
 * metrics-resource.yaml uses /metrics/nodes/{nodeName}/metrics/resource, which metrics-server
 * reads through the node annotation metrics.k8s.io/resource-metrics-path), rendered as Prometheus
 * text from the Metric's CEL values over the node, its pods and their containers. Usage numbers
 * come from ResourceUsage (a pod's own, by name) or the first matching ClusterResourceUsage.
 *
 * Cumulative usage is integrated like kwok does it: each evaluation adds (now - last) × the
 * current usage to the series' total, so a counter grows between scrapes and the first read is 0.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatFloat } from '../../gocompat/gotpl/index.js';
import { compileMetricsCel, metricsAsFloat, metricsAsString } from '../cel/metrics-cel.js';
import type { MetricsData, MetricsFunctions } from '../cel/metrics-cel.js';
import { parseQuantity } from '../cel/cel.js';
import { selectorMatches } from '../api/metrics-schema.js';
import type { ApiObject, ClusterResourceUsage, Metric, MetricConfig, ResourceMetricsSource, ResourceUsage, ResourceUsageContainer } from '../api/metrics-schema.js';
import type { Logger } from '../../util/log.js';

export type { ApiObject, ResourceMetricsSource } from '../api/metrics-schema.js';

interface Cumulative {
  at: number;
  value: number;
}

interface Series {
  labels: Array<[string, string]>;
  value: number;
}

interface ContainerLike {
  name?: string;
}

function containersOf(pod: ApiObject): ContainerLike[] {
  const spec = pod['spec'] as { containers?: ContainerLike[] } | undefined;
  return Array.isArray(spec?.containers) ? spec.containers : [];
}

function nameOf(o: ApiObject): string {
  return o.metadata?.name ?? '';
}

function namespaceOf(o: ApiObject): string {
  return o.metadata?.namespace ?? '';
}

/**
 * kwok hands CEL typed objects, where absent maps read as empty: `"x" in pod.metadata.annotations`
 * works on a pod without annotations. Give our JSON objects the same empty maps (a copy, cached).
 */
const withMaps = new WeakMap<object, ApiObject>();
function typedView(o: ApiObject): ApiObject {
  const hit = withMaps.get(o);
  if (hit) return hit;
  const metadata = (o.metadata ?? {}) as Record<string, unknown>;
  const view: ApiObject = { ...o, metadata: { ...metadata, labels: metadata['labels'] ?? {}, annotations: metadata['annotations'] ?? {} } as ApiObject['metadata'] };
  withMaps.set(o, view);
  return view;
}

/** kwok's findUsageInUsages: the entry naming the container, else the first entry naming none. */
export function findUsage(containerName: string, usages: readonly ResourceUsageContainer[] | undefined): ResourceUsageContainer | undefined {
  let fallback: ResourceUsageContainer | undefined;
  for (const u of usages ?? []) {
    if (!u.containers || u.containers.length === 0) {
      fallback ??= u;
      continue;
    }
    if (u.containers.includes(containerName)) return u;
  }
  return fallback;
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeLabel(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** Go's Prometheus client prints samples with strconv's shortest 'g' format. */
export function promFloat(v: number): string {
  return formatFloat(v, 'g', -1);
}

function renderLabels(pairs: ReadonlyArray<[string, string]>): string {
  return pairs.length === 0 ? '' : `{${pairs.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

export class ResourceMetrics {
  private readonly cumulatives = new Map<string, Cumulative>();
  private readonly reported = new Set<string>();
  private readonly functions: MetricsFunctions;

  constructor(
    private readonly source: ResourceMetricsSource,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.functions = {
      now: () => this.now(),
      containerUsage: (r, ns, p, c) => this.containerUsage(r, ns, p, c),
      podUsage: (r, ns, p) => this.podUsage(r, ns, p),
      nodeUsage: (r, n) => this.nodeUsage(r, n),
      containerCumulativeUsage: (r, ns, p, c) => this.cumulative(`${r}/${ns}/${p}/${c}`, this.containerUsage(r, ns, p, c)),
      podCumulativeUsage: (r, ns, p) => {
        const pod = this.source.pod(ns, p);
        if (!pod) return 0;
        return containersOf(pod).reduce((sum, c) => sum + this.cumulative(`${r}/${ns}/${p}/${c.name ?? ''}`, this.containerUsage(r, ns, p, c.name ?? '')), 0);
      },
      nodeCumulativeUsage: (r, n) => (this.source.node(n) ? this.cumulative(`${r}/node/${n}`, this.nodeUsage(r, n)) : 0),
      startedContainersTotal: (n) => this.source.podsOn(n).reduce((sum, pod) => sum + startedContainers(pod), 0),
    };
  }

  /** The Metric whose path matches, with the node it is for ({nodeName}, else the Metric's name, as kwok). */
  match(path: string): { metric: Metric; nodeName: string } | undefined {
    for (const metric of this.source.metrics()) {
      const pattern = metric.spec.path;
      if (!pattern.includes('{nodeName}')) {
        if (pattern === path) return { metric, nodeName: metric.metadata.name };
        continue;
      }
      const [before, after] = pattern.split('{nodeName}', 2) as [string, string];
      if (path.startsWith(before) && path.endsWith(after) && path.length > before.length + after.length) {
        const nodeName = decodeURIComponent(path.slice(before.length, path.length - after.length));
        if (!nodeName.includes('/')) return { metric, nodeName };
      }
    }
    return undefined;
  }

  /** Prometheus text for one Metric on one node. */
  render(metric: Metric, nodeName: string): string {
    const node = this.source.node(nodeName);
    if (!node) return '';
    const families = [...metric.spec.metrics].sort((a, b) => a.name.localeCompare(b.name));
    let out = '';
    for (const config of families) {
      try {
        out += this.renderFamily(config, node);
      } catch (error) {
        this.report(`metric ${config.name}: ${(error as Error).message}`);
      }
    }
    return out;
  }

  handler(): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const found = this.match(path);
      if (!found) {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('404 page not found\n');
        return;
      }
      const body = this.render(found.metric, found.nodeName);
      res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
  }

  private renderFamily(config: MetricConfig, node: ApiObject): string {
    const series = this.samples(config, node);
    if (series.length === 0) return '';
    const head = `${config.help !== undefined ? `# HELP ${config.name} ${escapeHelp(config.help)}\n` : ''}# TYPE ${config.name} ${config.kind}\n`;
    const lines: string[] = [];
    if (config.kind === 'histogram') {
      for (const s of series) lines.push(...this.histogramLines(config, s.labels, s.data));
    } else {
      const sorted = series
        .map((s) => ({ labels: s.labels, value: this.evaluateFloat(config.value ?? '', s.data) }))
        .sort((a, b) => renderLabels(a.labels).localeCompare(renderLabels(b.labels)));
      for (const s of sorted) lines.push(`${config.name}${renderLabels(s.labels)} ${promFloat(s.value)}`);
    }
    return head + lines.map((l) => `${l}\n`).join('');
  }

  /** The objects each series is evaluated on, by dimension, with its evaluated labels. */
  private samples(config: MetricConfig, node: ApiObject): Array<{ labels: Array<[string, string]>; data: MetricsData }> {
    const nodeView = typedView(node);
    const datas: MetricsData[] = [];
    const dimension = config.dimension ?? 'node';
    if (dimension === 'node') {
      datas.push({ node: nodeView });
    } else {
      for (const pod of this.source.podsOn(nameOf(node))) {
        const podView = typedView(pod);
        if (dimension === 'pod') datas.push({ node: nodeView, pod: podView });
        else for (const container of containersOf(pod)) datas.push({ node: nodeView, pod: podView, container });
      }
    }
    return datas.map((data) => ({
      data,
      labels: (config.labels ?? [])
        .map((l): [string, string] => [l.name, metricsAsString(compileMetricsCel(l.value).evaluate(data, this.functions))])
        .sort(([a], [b]) => a.localeCompare(b)),
    }));
  }

  /** kwok's histogram: each bucket's value is a count at that bound; buckets are cumulative, hidden ones only count. */
  private histogramLines(config: MetricConfig, labels: Array<[string, string]>, data: MetricsData): string[] {
    const stored = (config.buckets ?? []).map((b) => ({ le: b.le, hidden: b.hidden ?? false, count: Math.max(0, Math.trunc(this.evaluateFloat(b.value, data))) }));
    const bounds = [...stored.filter((b) => !b.hidden).map((b) => b.le)].sort((a, b) => a - b);
    const lines: string[] = [];
    let count = 0;
    let sum = 0;
    for (const b of stored) {
      count += b.count;
      sum += b.le * b.count;
    }
    for (const bound of [...bounds, Infinity]) {
      const cumulative = stored.filter((b) => b.le <= bound).reduce((n, b) => n + b.count, 0);
      lines.push(`${config.name}_bucket${renderLabels([...labels, ['le', promFloat(bound)]])} ${cumulative}`);
    }
    lines.push(`${config.name}_sum${renderLabels(labels)} ${promFloat(sum)}`, `${config.name}_count${renderLabels(labels)} ${count}`);
    return lines;
  }

  private evaluateFloat(expression: string, data: MetricsData): number {
    return metricsAsFloat(compileMetricsCel(expression).evaluate(data, this.functions));
  }

  private cumulative(key: string, usage: number): number {
    const at = this.now().getTime();
    const previous = this.cumulatives.get(key);
    const value = previous ? previous.value + ((at - previous.at) / 1000) * usage : 0;
    this.cumulatives.set(key, { at, value });
    return value;
  }

  private containerUsage(resource: string, namespace: string, podName: string, containerName: string): number {
    const pod = this.source.pod(namespace, podName);
    if (!pod) return 0;
    const nodeName = (pod['spec'] as { nodeName?: string } | undefined)?.nodeName ?? '';
    const node = this.source.node(nodeName);
    const container = containersOf(pod).find((c) => c.name === containerName);
    if (!node || !container) return 0;
    return this.evaluateUsage(resource, { node: typedView(node), pod: typedView(pod), container });
  }

  private podUsage(resource: string, namespace: string, podName: string): number {
    const pod = this.source.pod(namespace, podName);
    if (!pod) return 0;
    return containersOf(pod).reduce((sum, c) => sum + this.containerUsage(resource, namespace, podName, c.name ?? ''), 0);
  }

  private nodeUsage(resource: string, nodeName: string): number {
    if (!this.source.node(nodeName)) return 0;
    let sum = 0;
    for (const pod of this.source.podsOn(nodeName)) sum += this.podUsage(resource, namespaceOf(pod), nameOf(pod));
    return sum;
  }

  /** One container's usage of one resource: a fixed quantity or an expression; 0 (logged) when unknown. */
  private evaluateUsage(resource: string, data: MetricsData & { pod: ApiObject; container: ContainerLike }): number {
    const podName = nameOf(data.pod);
    const namespace = namespaceOf(data.pod);
    const containerName = data.container.name ?? '';
    const own = this.source.resourceUsages().find((u) => u.metadata.name === podName && (u.metadata.namespace ?? 'default') === namespace);
    let entry: ResourceUsageContainer | undefined;
    if (own) entry = findUsage(containerName, own.spec.usages);
    else {
      for (const cluster of this.source.clusterResourceUsages()) {
        if (!selectorMatches(cluster.spec.selector, podName, namespace)) continue;
        entry = findUsage(containerName, cluster.spec.usages);
        if (entry) break;
      }
    }
    const value = entry?.usage?.[resource];
    if (!value) return 0;
    try {
      if (value.value !== undefined) return parseQuantity(value.value);
      if (value.expression !== undefined) return metricsAsFloat(compileMetricsCel(value.expression).evaluate(data, this.functions));
    } catch (error) {
      this.report(`usage of ${resource} for ${namespace}/${podName}/${containerName}: ${(error as Error).message}`);
    }
    return 0;
  }

  /** Each distinct problem once: a scrape every 15s must not flood the log with the same line. */
  private report(message: string): void {
    if (this.reported.has(message)) return;
    if (this.reported.size > 1000) this.reported.clear();
    this.reported.add(message);
    this.logger.warn(message);
  }
}

function startedContainers(pod: ApiObject): number {
  const statuses = (pod['status'] as { containerStatuses?: Array<{ state?: { running?: unknown } }> } | undefined)?.containerStatuses ?? [];
  return statuses.filter((s) => s.state?.running !== undefined).length;
}
