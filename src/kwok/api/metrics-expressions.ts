/**
 * The CEL expressions of Metric, ResourceUsage and ClusterResourceUsage documents, compiled when a
 * config file is read: otherwise the first scrape of the metrics endpoint is where a typo shows,
 * as a warning on every scrape while the controller runs on. Kept apart from metrics-schema.ts,
 * which `create cluster` loads to check the same documents without loading CEL.
 */
import { compileMetricsCel } from '../cel/metrics-cel.js';
import { MetricsDocumentError, type ClusterResourceUsage, type Metric, type ResourceUsage } from './metrics-schema.js';

function check(kind: string, name: string, field: string, expression: string): void {
  try {
    compileMetricsCel(expression);
  } catch (error) {
    throw new MetricsDocumentError(`${kind} ${name}: ${field}: ${(error as Error).message.split('\n')[0]}`);
  }
}

export function checkMetricExpressions(metric: Metric): void {
  metric.spec.metrics.forEach((m, i) => {
    const at = `spec.metrics.${i}`;
    if (m.value !== undefined) check('Metric', metric.metadata.name, `${at}.value`, m.value);
    m.labels?.forEach((l, j) => check('Metric', metric.metadata.name, `${at}.labels.${j}.value`, l.value));
    m.buckets?.forEach((b, j) => check('Metric', metric.metadata.name, `${at}.buckets.${j}.value`, b.value));
  });
}

export function checkUsageExpressions(kind: 'ResourceUsage' | 'ClusterResourceUsage', usage: ResourceUsage | ClusterResourceUsage): void {
  usage.spec.usages?.forEach((u, i) => {
    for (const [resource, value] of Object.entries(u.usage ?? {})) {
      if (value.expression !== undefined) check(kind, usage.metadata.name, `spec.usages.${i}.usage.${resource}.expression`, value.expression);
    }
  });
}
