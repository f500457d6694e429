/**
 * kwok's Logs and ClusterLogs kinds (kwok.x-k8s.io/v1alpha1), which say what `kubectl logs`
 * returns for a fake pod. A Logs object applies to the pod with its own namespace and name; a
 * ClusterLogs object to every pod its selector matches (an empty list matches everything).
 *
 * `spec` is strict, so a misspelt field (logFile for logsFile) is one error naming it rather
 * than an entry that silently never matches. `null` is accepted where Go's JSON decoding takes it,
 * because YAML's empty value is null.
 */
import { z } from 'zod';
import { firstProblem, objectName } from './schema-problems.js';
import type { LogsKind } from './document-kinds.js';
export { LOGS_KINDS, type LogsKind } from './document-kinds.js';

/** One group of containers sharing a log file. */
export interface PodLogEntry {
  /** Container names; empty means every container of the pod. */
  containers: string[];
  /** The file `kubectl logs` reads; an entry without one is ignored (kwok's documented rule). */
  logsFile: string | undefined;
  /** The file `kubectl logs --previous` reads. */
  previousLogsFile: string | undefined;
  /** Whether `kubectl logs -f` keeps streaming what is appended to the file. */
  follow: boolean;
}

/** A Logs object: the pod `namespace/name`'s entries. */
export interface PodLogs {
  kind: 'Logs';
  name: string;
  namespace: string;
  logs: PodLogEntry[];
}

/** A ClusterLogs object: entries for the pods its selector matches. */
export interface ClusterPodLogs {
  kind: 'ClusterLogs';
  name: string;
  matchNamespaces: string[];
  matchNames: string[];
  logs: PodLogEntry[];
}

const names = z.array(z.string()).nullish();

const logEntry = z.strictObject({
  containers: names,
  logsFile: z.string().nullish(),
  previousLogsFile: z.string().nullish(),
  follow: z.boolean().nullish(),
});

const metadata = z.looseObject({
  name: z.string().min(1, 'must not be empty'),
  namespace: z.string().nullish(),
});

const logsDocument = z.looseObject({
  metadata,
  spec: z.strictObject({ logs: z.array(logEntry).nullish() }),
});

const clusterLogsDocument = z.looseObject({
  metadata,
  spec: z.strictObject({
    selector: z.strictObject({ matchNamespaces: names, matchNames: names }).nullish(),
    logs: z.array(logEntry).nullish(),
  }),
});

/** A document that does not fit the schema; `problem` names the field. */
export class LogsDocumentError extends Error {
  constructor(
    readonly kind: LogsKind,
    readonly objectName: string,
    readonly problem: string,
  ) {
    super(`${kind} "${objectName}": ${problem}`);
  }
}

function entries(raw: readonly z.infer<typeof logEntry>[] | null | undefined): PodLogEntry[] {
  return (raw ?? []).map((e) => ({
    containers: e.containers ?? [],
    logsFile: e.logsFile || undefined,
    previousLogsFile: e.previousLogsFile || undefined,
    follow: e.follow ?? false,
  }));
}

/**
 * Validate a Logs document. Without metadata.namespace it applies to the `default` namespace,
 * as `kubectl apply` would put it (kwok would compare with "" and never match).
 */
export function parseLogsDocument(doc: unknown): PodLogs {
  const parsed = logsDocument.safeParse(doc);
  if (!parsed.success) throw new LogsDocumentError('Logs', objectName(doc), firstProblem(parsed.error));
  const { metadata: meta, spec } = parsed.data;
  return { kind: 'Logs', name: meta.name, namespace: meta.namespace || 'default', logs: entries(spec.logs) };
}

export function parseClusterLogsDocument(doc: unknown): ClusterPodLogs {
  const parsed = clusterLogsDocument.safeParse(doc);
  if (!parsed.success) throw new LogsDocumentError('ClusterLogs', objectName(doc), firstProblem(parsed.error));
  const { metadata: meta, spec } = parsed.data;
  return {
    kind: 'ClusterLogs',
    name: meta.name,
    matchNamespaces: spec.selector?.matchNamespaces ?? [],
    matchNames: spec.selector?.matchNames ?? [],
    logs: entries(spec.logs),
  };
}

/** Every log file a set of documents names (for mounting their directories into a container). */
export function logFilesOf(objects: readonly (PodLogs | ClusterPodLogs)[]): string[] {
  const files = new Set<string>();
  for (const object of objects) {
    for (const entry of object.logs) {
      if (entry.logsFile) files.add(entry.logsFile);
      if (entry.previousLogsFile) files.add(entry.previousLogsFile);
    }
  }
  return [...files];
}
