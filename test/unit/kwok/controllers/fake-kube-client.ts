/**
 * In-memory KubeClient for controller tests: objects per resource, a global resourceVersion, watch
 * streams fed from an event log, label/field selectors, merge and JSON patches, finalizer-aware
 * delete, and a call log plus one-shot fault injection.
 */
import { KubeApiError } from '../../../../src/kube/client/api-error.js';
import { parseLabelSelector } from '../../../../src/kube/client/label-selector.js';
import { objectKey, wellKnownResources } from '../../../../src/kube/client/resources.js';
import type {
  CreateOptions,
  DeleteRequest,
  KubeClient,
  KubeObject,
  ListOptions,
  ListResult,
  ObjectTarget,
  PatchRequest,
  ResourceRef,
  WatchEvent,
  WatchOptions,
} from '../../../../src/kube/client/types.js';

export interface Call {
  verb: 'list' | 'watch' | 'get' | 'create' | 'update' | 'patch' | 'delete';
  resource: string;
  key?: string;
  patchType?: string;
  subresource?: string;
  body?: unknown;
  impersonate?: string;
  /** Sent with patchIgnoringAnswer. */
  ignoreAnswer?: boolean;
}

interface Subscriber {
  ref: ResourceRef;
  options: WatchOptions;
  push(event: WatchEvent): void;
}

function refKey(ref: ResourceRef): string {
  return `${ref.group}/${ref.resource}`;
}

function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return structuredClone(patch);
  const base: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete base[key];
    else base[key] = mergePatch(base[key], value);
  }
  return base;
}

function pointer(path: string): string[] {
  return path.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function jsonPatch(target: KubeObject, ops: { op: string; path: string; value?: unknown }[]): KubeObject {
  const doc = structuredClone(target) as unknown as Record<string, unknown>;
  for (const op of ops) {
    const parts = pointer(op.path);
    const last = parts.pop()!;
    let parent: unknown = doc;
    for (const part of parts) parent = (parent as Record<string, unknown>)[part];
    if (parent === undefined) throw new KubeApiError(`json patch: missing parent for ${op.path}`, 422, 'Invalid');
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : Number(last);
      if (op.op === 'add') parent.splice(index, 0, op.value);
      else if (op.op === 'remove') parent.splice(index, 1);
      else if (op.op === 'replace') parent[index] = op.value;
    } else {
      const record = parent as Record<string, unknown>;
      if (op.op === 'add' || op.op === 'replace') record[last] = op.value;
      else if (op.op === 'remove') delete record[last];
    }
  }
  return doc as unknown as KubeObject;
}

function matchesFieldSelector(object: KubeObject, selector: string | undefined): boolean {
  if (!selector) return true;
  return selector.split(',').every((term) => {
    const neq = term.indexOf('!=');
    const [path, expected, negate] = neq >= 0 ? [term.slice(0, neq), term.slice(neq + 2), true] : [term.slice(0, term.indexOf('=')), term.slice(term.indexOf('=') + 1), false];
    let value: unknown = object;
    for (const part of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
    const actual = value === undefined || value === null ? '' : String(value);
    return negate ? actual !== expected : actual === expected;
  });
}

export class FakeKubeClient implements KubeClient {
  readonly calls: Call[] = [];
  private readonly objects = new Map<string, Map<string, KubeObject>>();
  private readonly subscribers = new Set<Subscriber>();
  private readonly log: { ref: string; event: WatchEvent }[] = [];
  private readonly faults: { verb: Call['verb']; resource?: string; error: Error }[] = [];
  private rv = 100;
  private uid = 0;
  /** When set, changes are not sent to open watches (to test paths that must not rely on them). */
  muteWatches = false;
  /** Milliseconds added to every request, to let tests observe concurrency. */
  latencyMs = 0;
  private readonly refs: ResourceRef[] = [...wellKnownResources];

  addResource(ref: ResourceRef): void {
    this.refs.push(ref);
  }

  /** The next `verb` call (optionally on `resource`) fails with `error`. */
  failNext(verb: Call['verb'], error: Error, resource?: string): void {
    this.faults.push({ verb, error, ...(resource ? { resource } : {}) });
  }

  /** Store an object directly (as if another client created it) and emit ADDED. */
  seed(ref: ResourceRef, object: KubeObject): KubeObject {
    return this.store(ref, structuredClone(object), 'ADDED');
  }

  /** Test-side edit of an object: emits MODIFIED. */
  modify(ref: ResourceRef, key: string, edit: (object: KubeObject) => void): KubeObject {
    const current = this.table(ref).get(key);
    if (!current) throw new Error(`no ${ref.resource} ${key}`);
    const next = structuredClone(current);
    edit(next);
    return this.store(ref, next, 'MODIFIED');
  }

  /** Test-side removal: emits DELETED. */
  remove(ref: ResourceRef, key: string): void {
    const current = this.table(ref).get(key);
    if (!current) return;
    this.table(ref).delete(key);
    this.emit(ref, { type: 'DELETED', object: { ...current, metadata: { ...current.metadata, resourceVersion: String(++this.rv) } } });
  }

  object(ref: ResourceRef, key: string): KubeObject | undefined {
    return this.table(ref).get(key);
  }

  all(ref: ResourceRef): KubeObject[] {
    return [...this.table(ref).values()];
  }

  callsOf(verb: Call['verb'], resource?: string): Call[] {
    return this.calls.filter((c) => c.verb === verb && (!resource || c.resource === resource));
  }

  async list(ref: ResourceRef, options: ListOptions = {}): Promise<ListResult> {
    await this.enter('list', ref);
    const labels = options.labelSelector ? parseLabelSelector(options.labelSelector) : undefined;
    const items = [...this.table(ref).values()]
      .filter((o) => !options.namespace || o.metadata.namespace === options.namespace)
      .filter((o) => !labels || labels.matches(o.metadata.labels))
      .filter((o) => matchesFieldSelector(o, options.fieldSelector))
      .map((o) => structuredClone(o));
    return { items, resourceVersion: String(this.rv) };
  }

  async *watch(ref: ResourceRef, options: WatchOptions, signal: AbortSignal): AsyncIterable<WatchEvent> {
    await this.enter('watch', ref);
    // Replay what happened since the requested resourceVersion, as the apiserver's watch cache does.
    const since = Number(options.resourceVersion || '0');
    const queue: WatchEvent[] = this.log
      .filter((entry) => entry.ref === refKey(ref) && Number(entry.event.object.metadata.resourceVersion) > since)
      .filter((entry) => this.selects(options, entry.event.object))
      .map((entry) => structuredClone(entry.event));
    let wake: (() => void) | undefined;
    const subscriber: Subscriber = {
      ref,
      options,
      push: (event) => {
        queue.push(event);
        wake?.();
      },
    };
    this.subscribers.add(subscriber);
    const onAbort = (): void => wake?.();
    signal.addEventListener('abort', onAbort);
    try {
      while (!signal.aborted) {
        const event = queue.shift();
        if (event) {
          yield event;
          continue;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.subscribers.delete(subscriber);
    }
  }

  async get(ref: ResourceRef, target: ObjectTarget): Promise<KubeObject | undefined> {
    await this.enter('get', ref, { key: this.keyOf(target) });
    const found = this.table(ref).get(this.keyOf(target));
    return found ? structuredClone(found) : undefined;
  }

  async create(ref: ResourceRef, object: KubeObject, options: CreateOptions = {}): Promise<KubeObject> {
    const namespace = options.namespace ?? object.metadata.namespace;
    const copy = structuredClone(object);
    if (namespace) copy.metadata.namespace = namespace;
    if (!copy.metadata.name && copy.metadata.generateName) copy.metadata.name = `${copy.metadata.generateName}${++this.uid}`;
    const key = objectKey(copy);
    await this.enter('create', ref, { key, body: object, ...(options.impersonate ? { impersonate: options.impersonate } : {}) });
    if (this.table(ref).has(key)) throw new KubeApiError(`${ref.resource} ${key} already exists`, 409, 'AlreadyExists');
    return structuredClone(this.store(ref, copy, 'ADDED'));
  }

  async update(ref: ResourceRef, object: KubeObject): Promise<KubeObject> {
    const key = objectKey(object);
    await this.enter('update', ref, { key, body: object });
    const current = this.table(ref).get(key);
    if (!current) throw new KubeApiError(`${ref.resource} ${key} not found`, 404, 'NotFound');
    if (object.metadata.resourceVersion && object.metadata.resourceVersion !== current.metadata.resourceVersion) {
      throw new KubeApiError(`${ref.resource} ${key}: conflict`, 409, 'Conflict');
    }
    return structuredClone(this.store(ref, structuredClone(object), 'MODIFIED'));
  }

  /** A PUT of the status subresource keeps the stored object's metadata and spec, as the apiserver does. */
  async updateIgnoringAnswer(ref: ResourceRef, object: KubeObject, subresource?: string): Promise<void> {
    const key = objectKey(object);
    await this.enter('update', ref, { key, body: object, ...(subresource ? { subresource } : {}), ignoreAnswer: true });
    const current = this.table(ref).get(key);
    if (!current) throw new KubeApiError(`${ref.resource} ${key} not found`, 404, 'NotFound');
    if (object.metadata.resourceVersion && object.metadata.resourceVersion !== current.metadata.resourceVersion) {
      throw new KubeApiError(`${ref.resource} ${key}: conflict`, 409, 'Conflict');
    }
    const next = subresource === 'status' ? { ...structuredClone(current), status: structuredClone(object['status']) } : structuredClone(object);
    this.store(ref, next, 'MODIFIED');
  }

  async patch(ref: ResourceRef, request: PatchRequest): Promise<KubeObject> {
    return this.patchObject(ref, request, false);
  }

  async patchIgnoringAnswer(ref: ResourceRef, request: PatchRequest): Promise<void> {
    await this.patchObject(ref, request, true);
  }

  private async patchObject(ref: ResourceRef, request: PatchRequest, ignoreAnswer: boolean): Promise<KubeObject> {
    const key = this.keyOf(request);
    await this.enter('patch', ref, {
      key,
      patchType: request.patchType,
      body: request.body,
      ...(request.subresource ? { subresource: request.subresource } : {}),
      ...(request.impersonate ? { impersonate: request.impersonate } : {}),
      ...(ignoreAnswer ? { ignoreAnswer: true } : {}),
    });
    const current = this.table(ref).get(key);
    if (!current) {
      if (request.patchType === 'apply') return structuredClone(this.store(ref, structuredClone(request.body as KubeObject), 'ADDED'));
      throw new KubeApiError(`${ref.resource} ${key} not found`, 404, 'NotFound');
    }
    const next = request.patchType === 'json' ? jsonPatch(current, request.body as []) : (mergePatch(current, request.body) as KubeObject);
    return structuredClone(this.store(ref, next, 'MODIFIED'));
  }

  async delete(ref: ResourceRef, request: DeleteRequest): Promise<void> {
    const key = this.keyOf(request);
    await this.enter('delete', ref, { key });
    const current = this.table(ref).get(key);
    if (!current) return;
    if (current.metadata.finalizers && current.metadata.finalizers.length > 0) {
      const next = structuredClone(current);
      next.metadata.deletionTimestamp ??= new Date().toISOString();
      this.store(ref, next, 'MODIFIED');
      return;
    }
    this.remove(ref, key);
  }

  async resolve(apiVersion: string, kind: string): Promise<ResourceRef> {
    const slash = apiVersion.lastIndexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    const ref = this.refs.find((r) => r.group === group && r.version === version && (r.kind === kind || r.resource === kind.toLowerCase()));
    if (!ref) throw new KubeApiError(`no ${kind} in ${apiVersion}`, 404, 'NotFound');
    return ref;
  }

  private keyOf(target: ObjectTarget): string {
    return target.namespace ? `${target.namespace}/${target.name}` : target.name;
  }

  private table(ref: ResourceRef): Map<string, KubeObject> {
    let table = this.objects.get(refKey(ref));
    if (!table) this.objects.set(refKey(ref), (table = new Map()));
    return table;
  }

  private async enter(verb: Call['verb'], ref: ResourceRef, extra: Omit<Call, 'verb' | 'resource'> = {}): Promise<void> {
    this.calls.push({ verb, resource: ref.resource, ...extra });
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    const index = this.faults.findIndex((f) => f.verb === verb && (!f.resource || f.resource === ref.resource));
    if (index >= 0) {
      const [fault] = this.faults.splice(index, 1);
      throw fault!.error;
    }
  }

  private store(ref: ResourceRef, object: KubeObject, type: 'ADDED' | 'MODIFIED'): KubeObject {
    object.metadata.resourceVersion = String(++this.rv);
    object.metadata.uid ??= `uid-${++this.uid}`;
    object.metadata.creationTimestamp ??= new Date().toISOString();
    object.apiVersion ??= ref.group === '' ? ref.version : `${ref.group}/${ref.version}`;
    object.kind ??= ref.kind;
    this.table(ref).set(objectKey(object), object);
    this.emit(ref, { type, object: structuredClone(object) });
    return object;
  }

  private selects(options: ListOptions, object: KubeObject): boolean {
    const labels = options.labelSelector ? parseLabelSelector(options.labelSelector) : undefined;
    if (labels && !labels.matches(object.metadata.labels)) return false;
    return matchesFieldSelector(object, options.fieldSelector);
  }

  private emit(ref: ResourceRef, event: WatchEvent): void {
    this.log.push({ ref: refKey(ref), event: structuredClone(event) });
    if (this.muteWatches) return;
    for (const subscriber of this.subscribers) {
      if (refKey(subscriber.ref) !== refKey(ref)) continue;
      if (!this.selects(subscriber.options, event.object)) continue;
      subscriber.push(structuredClone(event));
    }
  }
}
