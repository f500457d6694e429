import { existsSync, readFileSync } from 'node:fs';
import { parseYamlDocuments } from '../gocompat/yaml/index.js';
import { templatePath } from '../util/package-root.js';

/** kwokctl's default set: node-initialize, node-heartbeat-with-lease and the fast pod stages. */
export const DEFAULT_STAGE_FILES = ['node-fast.yaml', 'node-heartbeat-with-lease.yaml', 'pod-fast.yaml'];

export function defaultStageDocuments(): Array<Record<string, unknown>> {
  const docs: Array<Record<string, unknown>> = [];
  for (const file of DEFAULT_STAGE_FILES) {
    const path = templatePath('stages', file);
    if (!existsSync(path)) continue;
    docs.push(...(parseYamlDocuments(readFileSync(path, 'utf8')) as Array<Record<string, unknown>>));
  }
  return docs;
}

/**
 * kwokctl with metrics-server: the kubelet's /metrics/resource Metric when the user gave no Metric,
 * and usage from pod annotations when they gave no ClusterResourceUsage (kinds served as custom
 * resources are left alone: their objects live in the cluster).
 */
export function withDefaultMetrics(docs: Array<Record<string, unknown>>, servedAsCrs: ReadonlySet<string>): Array<Record<string, unknown>> {
  const out = [...docs];
  const defaults: Array<[string, string]> = [
    ['Metric', 'metrics-resource.yaml'],
    ['ClusterResourceUsage', 'usage-from-annotation.yaml'],
  ];
  for (const [kind, file] of defaults) {
    if (servedAsCrs.has(kind) || docs.some((d) => d.kind === kind)) continue;
    out.push(...(parseYamlDocuments(readFileSync(templatePath('metrics', file), 'utf8')) as Array<Record<string, unknown>>));
  }
  return out;
}
