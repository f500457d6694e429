/**
 * Metric, ResourceUsage and ClusterResourceUsage (kwok.x-k8s.io/v1alpha1): what the kubelet-like
 * metrics endpoints serve and the simulated usage behind them. Validated here so a bad field stops
 * the controller with the object and field named, whether it came from --config or a custom resource.
 */
import { z } from 'zod';

const metricLabel = z.object({ name: z.string().min(1), value: z.string() });
const metricBucket = z.object({ le: z.number(), value: z.string(), hidden: z.boolean().optional() });

export const metricConfigSchema = z.object({
  name: z.string().min(1),
  help: z.string().optional(),
  kind: z.enum(['counter', 'gauge', 'histogram']),
  labels: z.array(metricLabel).optional(),
  value: z.string().optional(),
  buckets: z.array(metricBucket).optional(),
  dimension: z.enum(['node', 'pod', 'container']).optional(),
});

const objectMeta = z.object({ name: z.string().min(1), namespace: z.string().optional() }).passthrough();

export const metricSchema = z.object({
  metadata: objectMeta,
  spec: z.object({
    path: z.string().startsWith('/metrics', { message: 'must start with /metrics' }),
    metrics: z.array(metricConfigSchema),
  }),
});

/** A quantity given as YAML number or string ("100m", 2, "1Gi"). */
const quantity = z.union([z.string(), z.number()]).transform((v) => String(v));

const usageValue = z.object({ value: quantity.optional(), expression: z.string().optional() });

export const resourceUsageContainerSchema = z.object({
  containers: z.array(z.string()).optional(),
  usage: z.record(z.string(), usageValue).optional(),
});

export const resourceUsageSchema = z.object({
  metadata: objectMeta,
  spec: z.object({ usages: z.array(resourceUsageContainerSchema).optional() }).default({}),
});

export const clusterResourceUsageSchema = z.object({
  metadata: objectMeta,
  spec: z
    .object({
      selector: z.object({ matchNamespaces: z.array(z.string()).optional(), matchNames: z.array(z.string()).optional() }).optional(),
      usages: z.array(resourceUsageContainerSchema).optional(),
    })
    .default({}),
});

export type MetricConfig = z.infer<typeof metricConfigSchema>;
export type Metric = z.infer<typeof metricSchema>;
export type ResourceUsageContainer = z.infer<typeof resourceUsageContainerSchema>;
export type ResourceUsage = z.infer<typeof resourceUsageSchema>;
export type ClusterResourceUsage = z.infer<typeof clusterResourceUsageSchema>;

export const METRICS_KINDS = ['Metric', 'ResourceUsage', 'ClusterResourceUsage'] as const;
export type MetricsKind = (typeof METRICS_KINDS)[number];

export class MetricsDocumentError extends Error {}

function parseWith<T>(schema: z.ZodType<T>, kind: string, document: unknown): T {
  const parsed = schema.safeParse(document);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = (document as { metadata?: { name?: unknown } } | null)?.metadata?.name;
  throw new MetricsDocumentError(`${kind} ${typeof name === 'string' ? name : '<unnamed>'}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
}

export function parseMetricDocument(document: unknown): Metric {
  return parseWith(metricSchema, 'Metric', document);
}

export function parseResourceUsageDocument(document: unknown): ResourceUsage {
  return parseWith(resourceUsageSchema, 'ResourceUsage', document);
}

export function parseClusterResourceUsageDocument(document: unknown): ClusterResourceUsage {
  return parseWith(clusterResourceUsageSchema, 'ClusterResourceUsage', document);
}

/** kwok's ObjectSelector.Match: an absent selector or empty list matches everything. */
export function selectorMatches(selector: ClusterResourceUsage['spec']['selector'], name: string, namespace: string): boolean {
  if (!selector) return true;
  if (selector.matchNamespaces?.length && !selector.matchNamespaces.includes(namespace)) return false;
  if (selector.matchNames?.length && !selector.matchNames.includes(name)) return false;
  return true;
}

/** A node or pod as the API returns it (JSON). */
export type ApiObject = Record<string, unknown> & { metadata?: { name?: string; namespace?: string } & Record<string, unknown> };

/**
 * Where the metrics server's objects and usage configuration come from (caches, config files or
 * custom resources): implemented by the controllers, read by the server, so it is declared here,
 * below both.
 */
export interface ResourceMetricsSource {
  node(name: string): ApiObject | undefined;
  pod(namespace: string, name: string): ApiObject | undefined;
  /** The pods bound to a node. */
  podsOn(node: string): readonly ApiObject[];
  metrics(): readonly Metric[];
  resourceUsages(): readonly ResourceUsage[];
  clusterResourceUsages(): readonly ClusterResourceUsage[];
}
