/**
 * Reads kwok --config files: multi-document YAML (or JSON) routed by `kind` alone, as kwok does
 * (apiVersion is not checked). KwokConfiguration documents contribute `options`; Stage documents are
 * collected for the stage engine; Logs and ClusterLogs, Exec, Attach and PortForward (and their
 * Cluster kinds), Metric, ResourceUsage and ClusterResourceUsage are validated here (a bad field
 * stops the controller with the file, object and field named); every other kind
 * (KwokctlConfiguration, ...) is skipped.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { GO_YAML_OPTIONS, loadAllYaml11 } from '../../gocompat/yaml/index.js';
import { LogsDocumentError, parseClusterLogsDocument, parseLogsDocument } from '../api/logs-schema.js';
import type { ClusterPodLogs, PodLogs } from '../api/logs-schema.js';
import { addStreamingDocument, emptyStreamingRules, isStreamingKind, StreamingDocumentError } from '../api/streaming-schema.js';
import type { StreamingRules } from '../api/streaming-schema.js';
import { MetricsDocumentError, parseClusterResourceUsageDocument, parseMetricDocument, parseResourceUsageDocument } from '../api/metrics-schema.js';
import type { ClusterResourceUsage, Metric, ResourceUsage } from '../api/metrics-schema.js';
import { checkMetricExpressions, checkUsageExpressions } from '../api/metrics-expressions.js';

/** sigs.k8s.io/yaml reads YAML 1.1 (yes/no booleans, 0755 octal) but keeps timestamps as strings. */
/** The KwokConfiguration.options fields the controller honours. */
export const kwokConfigurationOptionsSchema = z
  .object({
    enableCRDs: z.array(z.string()),
    cidr: z.string(),
    nodeIP: z.string(),
    nodeName: z.string(),
    nodePort: z.number().int().min(0),
    tlsCertFile: z.string(),
    tlsPrivateKeyFile: z.string(),
    manageSingleNode: z.string(),
    manageAllNodes: z.boolean(),
    manageNodesWithAnnotationSelector: z.string(),
    manageNodesWithLabelSelector: z.string(),
    disregardStatusWithAnnotationSelector: z.string(),
    disregardStatusWithLabelSelector: z.string(),
    serverAddress: z.string(),
    nodeLeaseDurationSeconds: z.number().int().min(0),
    nodeLeaseParallelism: z.number().int().min(1),
    nodePlayStageParallelism: z.number().int().min(1),
    podPlayStageParallelism: z.number().int().min(1),
  })
  .partial();

export type KwokConfigurationOptions = z.infer<typeof kwokConfigurationOptionsSchema>;

export interface KwokConfigFiles {
  /** Later documents override earlier ones field by field. */
  options: KwokConfigurationOptions;
  stages: unknown[];
  logs: PodLogs[];
  clusterLogs: ClusterPodLogs[];
  /** Exec, Attach, PortForward and their Cluster kinds. */
  streaming: StreamingRules;
  metrics: Metric[];
  resourceUsages: ResourceUsage[];
  clusterResourceUsages: ClusterResourceUsage[];
  /** Kinds that were present but are not used by the controller (for a debug line). */
  skippedKinds: string[];
}

export class ConfigFileError extends Error {}

/**
 * The documents of a config file. js-yaml with go-yaml v2's scalar rules (the reader stage
 * templates already use, answer for answer the same as the `yaml` package's on what go-yaml
 * accepts) reads kwok.yaml several times faster at start-up, when both parsers' code is still
 * cold: tens of milliseconds of CPU that the apiserver needs while a cluster comes up. Anything it
 * refuses (bad syntax, duplicate keys, tags it does not know) goes through the `yaml` package,
 * which decides, and whose message names the line.
 */
export function parseYamlStream(text: string, source: string): unknown[] {
  let documents: unknown[];
  try {
    documents = loadAllYaml11(text);
  } catch {
    return parseYamlStreamStrictly(text, source);
  }
  return documents.filter((value) => value !== null && value !== undefined);
}

/** The `yaml` package's reading of a config file; exported for the test that compares both. */
export function parseYamlStreamStrictly(text: string, source: string): unknown[] {
  const documents: unknown[] = [];
  for (const document of parseAllDocuments(text, GO_YAML_OPTIONS)) {
    if (!('errors' in document)) continue;
    const first = document.errors[0];
    if (first) {
      const line = first.linePos?.[0]?.line;
      throw new ConfigFileError(`${source}${line ? `:${line}` : ''}: ${first.message.split('\n')[0]}`);
    }
    const value: unknown = document.toJS();
    if (value !== null && value !== undefined) documents.push(value);
  }
  return documents;
}

export function routeConfigDocuments(documents: readonly unknown[], source: string, into: KwokConfigFiles): void {
  for (const document of documents) {
    const kind = (document as { kind?: unknown } | null)?.kind;
    if (kind === 'KwokConfiguration') {
      const parsed = kwokConfigurationOptionsSchema.safeParse((document as { options?: unknown }).options ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ConfigFileError(`${source}: KwokConfiguration options.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
      }
      Object.assign(into.options, parsed.data);
    } else if (kind === 'Stage') {
      into.stages.push(document);
    } else if (kind === 'Logs' || kind === 'ClusterLogs') {
      try {
        if (kind === 'Logs') into.logs.push(parseLogsDocument(document));
        else into.clusterLogs.push(parseClusterLogsDocument(document));
      } catch (error) {
        if (error instanceof LogsDocumentError) throw new ConfigFileError(`${source}: ${error.message}`);
        throw error;
      }
    } else if (isStreamingKind(kind)) {
      try {
        addStreamingDocument(into.streaming, kind, document);
      } catch (error) {
        if (error instanceof StreamingDocumentError) throw new ConfigFileError(`${source}: ${error.message}`);
        throw error;
      }
    } else if (kind === 'Metric' || kind === 'ResourceUsage' || kind === 'ClusterResourceUsage') {
      try {
        // Their CEL expressions are compiled now: a typo stops the controller at start, named.
        if (kind === 'Metric') into.metrics.push(withChecked(parseMetricDocument(document), checkMetricExpressions));
        else if (kind === 'ResourceUsage') into.resourceUsages.push(withChecked(parseResourceUsageDocument(document), (u) => checkUsageExpressions(kind, u)));
        else into.clusterResourceUsages.push(withChecked(parseClusterResourceUsageDocument(document), (u) => checkUsageExpressions(kind, u)));
      } catch (error) {
        if (error instanceof MetricsDocumentError) throw new ConfigFileError(`${source}: ${error.message}`);
        throw error;
      }
    } else {
      into.skippedKinds.push(typeof kind === 'string' ? kind : '<no kind>');
    }
  }
}

function withChecked<T>(value: T, check: (value: T) => void): T {
  check(value);
  return value;
}

/** Load every file in order; "-" reads standard input. */
export function loadKwokConfigFiles(paths: readonly string[], read: (path: string) => string = defaultRead): KwokConfigFiles {
  const result = emptyConfigFiles();
  for (const path of paths) {
    let text: string;
    try {
      text = read(path);
    } catch (error) {
      throw new ConfigFileError(`cannot read config ${path}: ${(error as Error).message}`);
    }
    routeConfigDocuments(parseYamlStream(text, path), path, result);
  }
  return result;
}

function emptyConfigFiles(): KwokConfigFiles {
  return { options: {}, stages: [], logs: [], clusterLogs: [], streaming: emptyStreamingRules(), metrics: [], resourceUsages: [], clusterResourceUsages: [], skippedKinds: [] };
}

function defaultRead(path: string): string {
  return readFileSync(path === '-' ? 0 : path, 'utf8');
}

/**
 * What the controller would refuse in these documents (a KwokConfiguration field of the wrong
 * type, a malformed Logs object), as one message; undefined when it would take them. Lets
 * `create cluster` say so before it starts anything.
 */
export function checkConfigDocuments(documents: readonly unknown[], source: string): string | undefined {
  try {
    routeConfigDocuments(documents, source, emptyConfigFiles());
    return undefined;
  } catch (error) {
    if (error instanceof ConfigFileError) return error.message;
    throw error;
  }
}
