/**
 * Which Exec, Attach or PortForward entry answers a request for a pod. Each of the six kinds comes
 * from the --config files or, when listed in --enable-crds, from custom resources watched while
 * the controller runs.
 *
 * Lookup follows kwok: the namespaced object for the pod decides alone (a container or port it
 * has no entry for is an error, not a fall-through); otherwise the first cluster-scoped object
 * (by name) whose selector matches and that has an entry. Within one object an entry naming the
 * container (or port) beats the first entry that names none, which applies to all. The error
 * texts are kwok's.
 */
import type { Logger } from '../../util/log.js';
import { addStreamingDocument, emptyStreamingRules, RULES_FIELD, StreamingDocumentError } from '../api/streaming-schema.js';
import type { AttachEntry, ClusterRule, ExecEntry, ForwardEntry, PodRule, StreamingKind, StreamingRules } from '../api/streaming-schema.js';
import { Reflector, streamingResources, type KubeClient } from '../../kube/index.js';

export type RuleLookup<E> = { found: true; entry: E; from: string } | { found: false; message: string };

function pick<E>(entries: readonly E[], matches: (e: E) => boolean, isDefault: (e: E) => boolean): E | undefined {
  let fallback: E | undefined;
  for (const entry of entries) {
    if (isDefault(entry)) fallback ??= entry;
    else if (matches(entry)) return entry;
  }
  return fallback;
}

export function selectorMatches(rule: ClusterRule<unknown>, namespace: string, pod: string): boolean {
  if (rule.matchNamespaces.length > 0 && !rule.matchNamespaces.includes(namespace)) return false;
  if (rule.matchNames.length > 0 && !rule.matchNames.includes(pod)) return false;
  return true;
}

interface LookupSpec<E> {
  kind: string;
  clusterKind: string;
  matches(e: E): boolean;
  isDefault(e: E): boolean;
  /** kwok's texts: the pod's own object has no entry / nothing configures it. */
  notInOwn: string;
  none: string;
}

function lookup<E>(own: readonly PodRule<E>[], cluster: readonly ClusterRule<E>[], namespace: string, pod: string, spec: LookupSpec<E>): RuleLookup<E> {
  const rule = own.find((r) => r.namespace === namespace && r.name === pod);
  if (rule) {
    const entry = pick(rule.entries, spec.matches, spec.isDefault);
    return entry ? { found: true, entry, from: `${spec.kind} ${namespace}/${pod}` } : { found: false, message: spec.notInOwn };
  }
  for (const r of cluster) {
    if (!selectorMatches(r, namespace, pod)) continue;
    const entry = pick(r.entries, spec.matches, spec.isDefault);
    if (entry) return { found: true, entry, from: `${spec.clusterKind} ${r.name}` };
  }
  return { found: false, message: spec.none };
}

export function findExec(rules: StreamingRules, namespace: string, pod: string, container: string): RuleLookup<ExecEntry> {
  const at = `container "${container}" in pod "${namespace}/${pod}"`;
  return lookup(rules.execs, rules.clusterExecs, namespace, pod, {
    kind: 'Exec',
    clusterKind: 'ClusterExec',
    matches: (e) => e.containers.includes(container),
    isDefault: (e) => e.containers.length === 0,
    notInOwn: `exec target not found for ${at}`,
    none: `no exec found for ${at}`,
  });
}

export function findAttach(rules: StreamingRules, namespace: string, pod: string, container: string): RuleLookup<AttachEntry> {
  const at = `container "${container}" in pod "${namespace}/${pod}"`;
  // kwok's documented rule, as for Logs: an entry without a logsFile is ignored.
  return lookup(
    rules.attaches.map((r) => ({ ...r, entries: r.entries.filter((e) => e.logsFile) })),
    rules.clusterAttaches.map((r) => ({ ...r, entries: r.entries.filter((e) => e.logsFile) })),
    namespace,
    pod,
    {
      kind: 'Attach',
      clusterKind: 'ClusterAttach',
      matches: (e) => e.containers.includes(container),
      isDefault: (e) => e.containers.length === 0,
      notInOwn: `attaches target not found for ${at}`,
      none: `no attaches found for ${at}`,
    },
  );
}

export function findForward(rules: StreamingRules, namespace: string, pod: string, port: number): RuleLookup<ForwardEntry> {
  const at = `port ${port} in pod "${namespace}/${pod}"`;
  return lookup(rules.portForwards, rules.clusterPortForwards, namespace, pod, {
    kind: 'PortForward',
    clusterKind: 'ClusterPortForward',
    matches: (e) => e.ports.includes(port),
    isDefault: (e) => e.ports.length === 0,
    notInOwn: `forward not found for ${at}`,
    none: `no forward found for ${at}`,
  });
}

export interface StreamingRegistryOptions {
  /** Rules from --config, for the kinds not watched as custom resources. */
  rules?: StreamingRules;
  logger: Logger;
}

export class StreamingRegistry {
  private rules: StreamingRules;
  private synced: Promise<void> = Promise.resolve();

  constructor(private readonly options: StreamingRegistryOptions) {
    this.rules = options.rules ?? emptyStreamingRules();
  }

  current(): StreamingRules {
    return this.rules;
  }

  /**
   * Follow the custom resources of `kinds` until `signal` aborts; each replaces that kind's rules
   * from config. An invalid object is logged and left out. API errors are retried by the reflector.
   */
  async run(client: KubeClient, kinds: readonly StreamingKind[], signal: AbortSignal): Promise<void> {
    const reflectors = kinds.map((kind) => this.reflectorFor(client, kind));
    this.synced = Promise.all(reflectors.map((r) => r.waitForSync())).then(() => undefined);
    await Promise.all(reflectors.map((r) => r.run(signal)));
  }

  waitForSync(): Promise<void> {
    return this.synced;
  }

  private reflectorFor(client: KubeClient, kind: StreamingKind): Reflector {
    const { logger } = this.options;
    const field = RULES_FIELD[kind];
    const reflector: Reflector = new Reflector({
      client,
      ref: streamingResources[kind],
      logger,
      onEvent: () => {
        // Sorted by key: which cluster-scoped object is tried first must not depend on watch timing.
        const objects = [...reflector.store.values()].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
        const fresh = emptyStreamingRules();
        for (const object of objects) {
          try {
            addStreamingDocument(fresh, kind, object);
          } catch (error) {
            if (!(error instanceof StreamingDocumentError)) throw error;
            logger.error(`${error.message}; ignoring it`);
          }
        }
        this.rules = { ...this.rules, [field]: fresh[field] };
      },
    });
    return reflector;
  }
}

function keyOf(object: { metadata: { name?: string; namespace?: string } }): string {
  return `${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`;
}
