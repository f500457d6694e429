import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { parseClusterResourceUsageDocument, parseMetricDocument, parseResourceUsageDocument } from '../../../../src/kwok/api/metrics-schema.js';
import type { ClusterResourceUsage, Metric, ResourceUsage } from '../../../../src/kwok/api/metrics-schema.js';
import { findUsage, promFloat, ResourceMetrics } from '../../../../src/kwok/server/resource-metrics.js';
import type { ApiObject, ResourceMetricsSource } from '../../../../src/kwok/server/resource-metrics.js';
import { silentLogger } from '../../../../src/util/log.js';
import { templatePath } from '../../../../src/util/package-root.js';

function template<T>(file: string, parse: (d: unknown) => T): T {
  return parse(parseAllDocuments(readFileSync(templatePath('metrics', file), 'utf8'))[0]!.toJS());
}

const node: ApiObject = { metadata: { name: 'node-0' }, spec: {} };
const created = '2026-01-01T00:00:00Z';
const pods: ApiObject[] = [
  {
    metadata: { name: 'busy', namespace: 'default', creationTimestamp: created, annotations: { 'kwok.x-k8s.io/usage-cpu': '250m', 'kwok.x-k8s.io/usage-memory': '64Mi' } },
    spec: { nodeName: 'node-0', containers: [{ name: 'app' }, { name: 'sidecar' }] },
  },
  // No annotations at all: kwok's typed objects read that as an empty map, so the defaults apply.
  { metadata: { name: 'idle', namespace: 'default', creationTimestamp: created }, spec: { nodeName: 'node-0', containers: [{ name: 'app' }] } },
];

function source(extra: { metrics?: Metric[]; usages?: ResourceUsage[]; cluster?: ClusterResourceUsage[] } = {}): ResourceMetricsSource {
  return {
    node: (name) => (name === 'node-0' ? node : undefined),
    pod: (ns, name) => pods.find((p) => p.metadata?.name === name && p.metadata.namespace === ns),
    podsOn: (name) => (name === 'node-0' ? pods : []),
    metrics: () => extra.metrics ?? [template('metrics-resource.yaml', parseMetricDocument)],
    resourceUsages: () => extra.usages ?? [],
    clusterResourceUsages: () => extra.cluster ?? [template('usage-from-annotation.yaml', parseClusterResourceUsageDocument)],
  };
}

function clock(start: string): { now: () => Date; advance: (s: number) => void } {
  let t = Date.parse(start);
  return { now: () => new Date(t), advance: (s) => (t += s * 1000) };
}

function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  assert.ok(line, `no series ${series} in:\n${text}`);
  return Number(line.slice(series.length + 1));
}

test('the default Metric path matches per node; other paths do not', () => {
  const m = new ResourceMetrics(source(), silentLogger);
  assert.deepEqual(m.match('/metrics/nodes/node-0/metrics/resource')?.nodeName, 'node-0');
  assert.equal(m.match('/metrics/nodes//metrics/resource'), undefined);
  assert.equal(m.match('/metrics/resource'), undefined);
});

test('memory is the usage from annotations (1Mi per container without them); cpu counters integrate usage over time', () => {
  const c = clock('2026-01-01T00:01:00Z');
  const m = new ResourceMetrics(source(), silentLogger, c.now);
  const first = m.render(m.match('/metrics/nodes/node-0/metrics/resource')!.metric, 'node-0');
  // busy: 2 containers × 64Mi; idle: 1 container × 1Mi.
  assert.equal(sample(first, 'node_memory_working_set_bytes'), 129 * 2 ** 20);
  assert.equal(sample(first, 'pod_memory_working_set_bytes{namespace="default",pod="busy"}'), 128 * 2 ** 20);
  assert.equal(sample(first, 'container_memory_working_set_bytes{container="sidecar",namespace="default",pod="busy"}'), 64 * 2 ** 20);
  assert.equal(sample(first, 'pod_memory_working_set_bytes{namespace="default",pod="idle"}'), 2 ** 20);
  assert.equal(sample(first, 'node_cpu_usage_seconds_total'), 0);
  assert.equal(sample(first, 'container_start_time_seconds{container="app",namespace="default",pod="idle"}'), 60);
  assert.match(first, /^# HELP node_cpu_usage_seconds_total .*\n# TYPE node_cpu_usage_seconds_total counter\n/m);
  assert.match(first, /^# TYPE scrape_error gauge\nscrape_error 0$/m);

  c.advance(10);
  const second = m.render(m.match('/metrics/nodes/node-0/metrics/resource')!.metric, 'node-0');
  // 10s × (0.25 + 0.25 + 0.001) cores.
  assert.ok(Math.abs(sample(second, 'node_cpu_usage_seconds_total') - 5.01) < 1e-9);
  assert.ok(Math.abs(sample(second, 'container_cpu_usage_seconds_total{container="app",namespace="default",pod="busy"}') - 2.5) < 1e-9);
  assert.ok(Math.abs(sample(second, 'pod_cpu_usage_seconds_total{namespace="default",pod="busy"}') - 5) < 1e-9);
});

test("a pod's own ResourceUsage beats ClusterResourceUsage; an entry naming the container beats the default entry", () => {
  const usages = [
    parseResourceUsageDocument({
      metadata: { name: 'busy', namespace: 'default' },
      spec: { usages: [{ usage: { memory: { value: '1Ki' } } }, { containers: ['sidecar'], usage: { memory: { value: 2048 } } }] },
    }),
  ];
  const m = new ResourceMetrics(source({ usages }), silentLogger);
  const text = m.render(m.match('/metrics/nodes/node-0/metrics/resource')!.metric, 'node-0');
  assert.equal(sample(text, 'container_memory_working_set_bytes{container="app",namespace="default",pod="busy"}'), 1024);
  assert.equal(sample(text, 'container_memory_working_set_bytes{container="sidecar",namespace="default",pod="busy"}'), 2048);
  assert.deepEqual(findUsage('x', [{ containers: ['y'] }]), undefined);
});

test('a ClusterResourceUsage selector limits the pods it applies to', () => {
  const cluster = [parseClusterResourceUsageDocument({ metadata: { name: 'only-idle' }, spec: { selector: { matchNames: ['idle'] }, usages: [{ usage: { memory: { value: '3' } } }] } })];
  const m = new ResourceMetrics(source({ cluster }), silentLogger);
  const text = m.render(m.match('/metrics/nodes/node-0/metrics/resource')!.metric, 'node-0');
  assert.equal(sample(text, 'pod_memory_working_set_bytes{namespace="default",pod="idle"}'), 3);
  assert.equal(sample(text, 'pod_memory_working_set_bytes{namespace="default",pod="busy"}'), 0);
});

test('a Metric without {nodeName} serves its own name as the node; histograms are cumulative with hidden buckets counted', () => {
  const metric = parseMetricDocument({
    metadata: { name: 'node-0' },
    spec: {
      path: '/metrics/custom',
      metrics: [
        { name: 'lat', kind: 'histogram', dimension: 'node', buckets: [{ le: 1, value: '2' }, { le: 0.5, value: '1', hidden: true }, { le: 5, value: '3' }] },
        { name: 'pods_total', kind: 'gauge', dimension: 'node', value: 'node.Usage("memory") > 0.0 ? 1 : 0' },
      ],
    },
  });
  const m = new ResourceMetrics(source({ metrics: [metric] }), silentLogger);
  const found = m.match('/metrics/custom')!;
  assert.equal(found.nodeName, 'node-0');
  const text = m.render(found.metric, found.nodeName);
  assert.equal(sample(text, 'lat_bucket{le="1"}'), 3);
  assert.equal(sample(text, 'lat_bucket{le="5"}'), 6);
  assert.equal(sample(text, 'lat_bucket{le="+Inf"}'), 6);
  assert.equal(sample(text, 'lat_count'), 6);
  assert.equal(sample(text, 'lat_sum'), 2 + 0.5 + 15);
  assert.equal(text.includes('le="0.5"'), false);
  assert.equal(sample(text, 'pods_total'), 1);
});

test('sample values print like Go (shortest %g)', () => {
  assert.equal(promFloat(1048576), '1.048576e+06');
  assert.equal(promFloat(100000), '100000');
  assert.equal(promFloat(0.25), '0.25');
  assert.equal(promFloat(Infinity), '+Inf');
});

test('an invalid Metric names its field', () => {
  assert.throws(() => parseMetricDocument({ metadata: { name: 'bad' }, spec: { path: '/x', metrics: [] } }), /Metric bad: spec.path: must start with \/metrics/);
});
