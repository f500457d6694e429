/**
 * Which log file answers `kubectl logs` for a pod's container. Logs and ClusterLogs come from
 * the --config files, or (for a kind listed in --enable-crds) from custom resources watched for
 * as long as the controller runs; each kind has exactly one source.
 *
 * Lookup follows kwok: a Logs object for the pod decides alone (a container it does not list is
 * an error, not a fall-through to ClusterLogs); otherwise the first ClusterLogs whose selector
 * matches and that has an entry for the container. Within one object, an entry naming the
 * container beats the first entry that names none (which applies to every container).
 */
import type { Logger } from '../../util/log.js';
import { LogsDocumentError, parseClusterLogsDocument, parseLogsDocument } from '../api/logs-schema.js';
import type { ClusterPodLogs, LogsKind, PodLogEntry, PodLogs } from '../api/logs-schema.js';
import { Reflector, clusterLogsResource, logsResource, type KubeClient } from '../../kube/index.js';

export type LogLookup = { found: true; entry: PodLogEntry; from: string } | { found: false; message: string };

function entryFor(container: string, logs: readonly PodLogEntry[]): PodLogEntry | undefined {
  let fallback: PodLogEntry | undefined;
  for (const entry of logs) {
    if (!entry.logsFile) continue;
    if (entry.containers.length === 0) fallback ??= entry;
    else if (entry.containers.includes(container)) return entry;
  }
  return fallback;
}

export function clusterLogsMatch(object: ClusterPodLogs, namespace: string, pod: string): boolean {
  if (object.matchNamespaces.length > 0 && !object.matchNamespaces.includes(namespace)) return false;
  if (object.matchNames.length > 0 && !object.matchNames.includes(pod)) return false;
  return true;
}

/** Pure: the entry for one container, or kwok's wording of why there is none. */
export function findPodLog(logs: readonly PodLogs[], clusterLogs: readonly ClusterPodLogs[], namespace: string, pod: string, container: string): LogLookup {
  const ref = `${namespace}/${pod}`;
  const own = logs.find((l) => l.namespace === namespace && l.name === pod);
  if (own) {
    const entry = entryFor(container, own.logs);
    return entry ? { found: true, entry, from: `Logs ${ref}` } : { found: false, message: `log target not found for container "${container}" in pod "${ref}" (Logs ${ref} has no entry for it)` };
  }
  for (const object of clusterLogs) {
    if (!clusterLogsMatch(object, namespace, pod)) continue;
    const entry = entryFor(container, object.logs);
    if (entry) return { found: true, entry, from: `ClusterLogs ${object.name}` };
  }
  return { found: false, message: `no logs found for container "${container}" in pod "${ref}": no Logs or ClusterLogs configures it` };
}

export interface LogsRegistryOptions {
  logs?: readonly PodLogs[];
  clusterLogs?: readonly ClusterPodLogs[];
  logger: Logger;
}

export class LogsRegistry {
  private logs: readonly PodLogs[];
  private clusterLogs: readonly ClusterPodLogs[];
  private synced: Promise<void> = Promise.resolve();

  constructor(private readonly options: LogsRegistryOptions) {
    this.logs = options.logs ?? [];
    this.clusterLogs = options.clusterLogs ?? [];
  }

  lookup(namespace: string, pod: string, container: string): LogLookup {
    return findPodLog(this.logs, this.clusterLogs, namespace, pod, container);
  }

  /**
   * Follow the custom resources of `kinds` until `signal` aborts. An invalid object is logged and
   * left out; the others keep working. API errors (a CRD not installed yet) are retried.
   */
  async run(client: KubeClient, kinds: readonly LogsKind[], signal: AbortSignal): Promise<void> {
    const reflectors = kinds.map((kind) => this.reflectorFor(client, kind));
    this.synced = Promise.all(reflectors.map((r) => r.waitForSync())).then(() => undefined);
    await Promise.all(reflectors.map((r) => r.run(signal)));
  }

  /** Resolves once every watched kind has been listed (at once when nothing is watched). */
  waitForSync(): Promise<void> {
    return this.synced;
  }

  private reflectorFor(client: KubeClient, kind: LogsKind): Reflector {
    const { logger } = this.options;
    const reflector: Reflector = new Reflector({
      client,
      ref: kind === 'Logs' ? logsResource : clusterLogsResource,
      logger,
      onEvent: () => {
        // Sorted by name: the order ClusterLogs are tried in must not depend on watch timing.
        const objects = [...reflector.store.values()].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
        const valid = objects.flatMap((object) => {
          try {
            return [kind === 'Logs' ? parseLogsDocument(object) : parseClusterLogsDocument(object)];
          } catch (error) {
            if (!(error instanceof LogsDocumentError)) throw error;
            logger.error(`${error.message}; ignoring it`);
            return [];
          }
        });
        if (kind === 'Logs') this.logs = valid as PodLogs[];
        else this.clusterLogs = valid as ClusterPodLogs[];
      },
    });
    return reflector;
  }
}

function keyOf(object: { metadata: { name?: string; namespace?: string } }): string {
  return `${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
}
