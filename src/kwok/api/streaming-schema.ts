/**
 * kwok's Exec, Attach and PortForward kinds and their cluster-scoped twins (kwok.x-k8s.io/v1alpha1),
 * which say what `kubectl exec`, `kubectl attach` and `kubectl port-forward` do for a fake pod.
 * The namespaced kind applies to the pod with its own namespace and name; the Cluster kind to every
 * pod its selector matches (empty lists match everything).
 *
 * As with Logs, `spec` is strict (a misspelt field is an error naming it) and `null` is accepted
 * where Go's decoding takes it.
 */
import { z } from 'zod';
import { firstProblem, objectName } from './schema-problems.js';
import type { StreamingKind } from './document-kinds.js';
export { isStreamingKind, STREAMING_KINDS, type StreamingKind } from './document-kinds.js';

export interface ExecLocal {
  /** Working directory of the command; empty: the controller's own. */
  workDir?: string;
  /** Added to the controller's environment. */
  envs: { name: string; value: string }[];
  securityContext?: { runAsUser?: number; runAsGroup?: number };
}

export interface ExecEntry {
  /** Container names; empty means every container of the pod. */
  containers: string[];
  /** Run the command on the controller's host; an entry without it fails every exec it matches. */
  local?: ExecLocal;
}

export interface AttachEntry {
  containers: string[];
  /** The log file whose new lines `kubectl attach` shows; an entry without one is ignored. */
  logsFile?: string;
}

export interface ForwardEntry {
  /** Pod ports; empty means every port. */
  ports: number[];
  /** Where a connection to the port goes. */
  target?: { port: number; address: string };
  /** A command whose stdin/stdout is the connection; wins over target. */
  command: string[];
}

interface Rule<E> {
  name: string;
  entries: E[];
}

/** A namespaced object: it applies to the pod `namespace/name`. */
export interface PodRule<E> extends Rule<E> {
  namespace: string;
}

/** A cluster-scoped object: it applies to the pods its selector matches. */
export interface ClusterRule<E> extends Rule<E> {
  matchNamespaces: string[];
  matchNames: string[];
}

/** Every rule of the six kinds, as the controller uses them. */
export interface StreamingRules {
  execs: PodRule<ExecEntry>[];
  clusterExecs: ClusterRule<ExecEntry>[];
  attaches: PodRule<AttachEntry>[];
  clusterAttaches: ClusterRule<AttachEntry>[];
  portForwards: PodRule<ForwardEntry>[];
  clusterPortForwards: ClusterRule<ForwardEntry>[];
}

export function emptyStreamingRules(): StreamingRules {
  return { execs: [], clusterExecs: [], attaches: [], clusterAttaches: [], portForwards: [], clusterPortForwards: [] };
}

/** Which field of StreamingRules holds each kind. */
export const RULES_FIELD: Record<StreamingKind, keyof StreamingRules> = {
  Exec: 'execs',
  ClusterExec: 'clusterExecs',
  Attach: 'attaches',
  ClusterAttach: 'clusterAttaches',
  PortForward: 'portForwards',
  ClusterPortForward: 'clusterPortForwards',
};

const names = z.array(z.string()).nullish();
const int64 = z.number().int();

const execEntry = z.strictObject({
  containers: names,
  local: z
    .strictObject({
      workDir: z.string().nullish(),
      envs: z.array(z.strictObject({ name: z.string().min(1, 'must not be empty'), value: z.string().nullish() })).nullish(),
      securityContext: z.strictObject({ runAsUser: int64.min(0).nullish(), runAsGroup: int64.min(0).nullish() }).nullish(),
    })
    .nullish(),
});

const attachEntry = z.strictObject({ containers: names, logsFile: z.string().nullish() });

const port = z.number().int().min(1).max(65535);
const forwardEntry = z.strictObject({
  ports: z.array(port).nullish(),
  target: z.strictObject({ port, address: z.string() }).nullish(),
  command: z.array(z.string()).nullish(),
});

const metadata = z.looseObject({
  name: z.string().min(1, 'must not be empty'),
  namespace: z.string().nullish(),
});

const selector = z.strictObject({ matchNamespaces: names, matchNames: names }).nullish();

const LIST_FIELD = { Exec: 'execs', Attach: 'attaches', PortForward: 'forwards' } as const;

const ENTRY_SCHEMA = { Exec: execEntry, Attach: attachEntry, PortForward: forwardEntry } as const;

/** A document that does not fit its schema; `problem` names the field. */
export class StreamingDocumentError extends Error {
  constructor(
    readonly kind: StreamingKind,
    readonly objectName: string,
    readonly problem: string,
  ) {
    super(`${kind} "${objectName}": ${problem}`);
  }
}

function toExec(raw: z.infer<typeof execEntry>): ExecEntry {
  const entry: ExecEntry = { containers: raw.containers ?? [] };
  if (raw.local) {
    const local: ExecLocal = { envs: (raw.local.envs ?? []).map((e) => ({ name: e.name, value: e.value ?? '' })) };
    if (raw.local.workDir) local.workDir = raw.local.workDir;
    const sc = raw.local.securityContext;
    if (sc && (sc.runAsUser != null || sc.runAsGroup != null)) {
      local.securityContext = {};
      if (sc.runAsUser != null) local.securityContext.runAsUser = sc.runAsUser;
      if (sc.runAsGroup != null) local.securityContext.runAsGroup = sc.runAsGroup;
    }
    entry.local = local;
  }
  return entry;
}

function toAttach(raw: z.infer<typeof attachEntry>): AttachEntry {
  return { containers: raw.containers ?? [], ...(raw.logsFile ? { logsFile: raw.logsFile } : {}) };
}

function toForward(raw: z.infer<typeof forwardEntry>): ForwardEntry {
  return { ports: raw.ports ?? [], command: raw.command ?? [], ...(raw.target ? { target: raw.target } : {}) };
}

type Base = keyof typeof LIST_FIELD;

function baseOf(kind: StreamingKind): Base {
  return kind.replace(/^Cluster/, '') as Base;
}

function parse(kind: StreamingKind, doc: unknown): { name: string; namespace: string; matchNamespaces: string[]; matchNames: string[]; entries: unknown[] } {
  const base = baseOf(kind);
  const list = LIST_FIELD[base];
  const cluster = kind.startsWith('Cluster');
  const spec = z.strictObject({
    ...(cluster ? { selector } : {}),
    [list]: z.array(ENTRY_SCHEMA[base] as z.ZodType).nullish(),
  });
  const parsed = z.looseObject({ metadata, spec }).safeParse(doc);
  if (!parsed.success) throw new StreamingDocumentError(kind, objectName(doc), firstProblem(parsed.error));
  const { metadata: meta } = parsed.data;
  const specData = parsed.data.spec as Record<string, unknown> & { selector?: { matchNamespaces?: string[] | null; matchNames?: string[] | null } | null };
  return {
    name: meta.name,
    // As with Logs: no namespace means `default`, where `kubectl apply` would put it.
    namespace: meta.namespace || 'default',
    matchNamespaces: specData.selector?.matchNamespaces ?? [],
    matchNames: specData.selector?.matchNames ?? [],
    entries: (specData[list] as unknown[] | null | undefined) ?? [],
  };
}

/** Validate one document of a streaming kind and add it to `into`. */
export function addStreamingDocument(into: StreamingRules, kind: StreamingKind, doc: unknown): void {
  const { name, namespace, matchNamespaces, matchNames, entries } = parse(kind, doc);
  const pod = { name, namespace };
  const cluster = { name, matchNamespaces, matchNames };
  switch (kind) {
    case 'Exec':
      into.execs.push({ ...pod, entries: (entries as z.infer<typeof execEntry>[]).map(toExec) });
      return;
    case 'ClusterExec':
      into.clusterExecs.push({ ...cluster, entries: (entries as z.infer<typeof execEntry>[]).map(toExec) });
      return;
    case 'Attach':
      into.attaches.push({ ...pod, entries: (entries as z.infer<typeof attachEntry>[]).map(toAttach) });
      return;
    case 'ClusterAttach':
      into.clusterAttaches.push({ ...cluster, entries: (entries as z.infer<typeof attachEntry>[]).map(toAttach) });
      return;
    case 'PortForward':
      into.portForwards.push({ ...pod, entries: (entries as z.infer<typeof forwardEntry>[]).map(toForward) });
      return;
    case 'ClusterPortForward':
      into.clusterPortForwards.push({ ...cluster, entries: (entries as z.infer<typeof forwardEntry>[]).map(toForward) });
      return;
  }
}

/** Every attach log file the rules name (for mounting their directories into a container). */
export function attachFilesOf(rules: StreamingRules): string[] {
  const files = new Set<string>();
  for (const rule of [...rules.attaches, ...rules.clusterAttaches]) for (const e of rule.entries) if (e.logsFile) files.add(e.logsFile);
  return [...files];
}
