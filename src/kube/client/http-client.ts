/**
 * KubeClient over HTTP/1.1 (see transport.ts). client-node's generated API allocates a
 * fetch pipeline per call and its informer stops on the first error; the controller patches
 * thousands of objects per second and must keep watching through apiserver restarts, so the hot
 * paths talk HTTP directly. KubeConfig (via Connection) still decides TLS and credentials.
 */
import { KubeApiError, isNotFound } from './api-error.js';
import type { Connection } from './connection.js';
import { LineSplitter, decodeWatchLine } from './json-lines.js';
import { RequestFormatError } from './http1-pool.js';
import { Transport } from './transport.js';
import type { BufferedResponse, TransportRequest } from './transport.js';
import { parseApiVersion, resourcePath, wellKnownResources } from './resources.js';
import { defaultRetry, withRetry } from './retry.js';
import type { RetryOptions } from './retry.js';
import type {
  CreateOptions,
  DeleteRequest,
  KubeClient,
  KubeObject,
  ListOptions,
  ListResult,
  ObjectTarget,
  PatchRequest,
  PatchType,
  ResourceRef,
  WatchEvent,
  WatchOptions,
} from './types.js';

export interface HttpKubeClientOptions {
  /** Concurrent connections for ordinary requests; watches use connections of their own. */
  maxSockets?: number;
  retry?: RetryOptions;
  /** Per-request timeout for non-watch calls. */
  requestTimeoutMs?: number;
  userAgent?: string;
  /** Called after every non-watch request, for the patch-latency metric. */
  onRequest?: (method: string, ref: ResourceRef | undefined, status: number, seconds: number) => void;
}

/** PartialObjectMetadata when the server can transform the answer (client-go's metadata client asks the same), else the object. */
const METADATA_ONLY = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

const patchContentTypes: Record<PatchType, string> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

interface RawRequest {
  method: string;
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  /** The Accept header; application/json when absent. */
  accept?: string;
  impersonate?: string;
  signal?: AbortSignal;
  ref?: ResourceRef;
  /** A successful answer is not decoded (the caller does not read it); errors still are. */
  ignoreAnswer?: boolean;
}

function buildQuery(query: RawRequest['query']): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function listQuery(options: ListOptions): Record<string, string | number | undefined> {
  return { labelSelector: options.labelSelector, fieldSelector: options.fieldSelector, limit: options.limit, continue: options.continue };
}

export class HttpKubeClient implements KubeClient {
  private readonly requests: Transport;
  private readonly watches: Transport;
  private readonly retry: RetryOptions;
  private readonly timeoutMs: number;
  private readonly userAgent: string;
  private readonly discovery = new Map<string, Promise<ResourceRef[]>>();
  private readonly headerSets = new WeakMap<Record<string, string>, Map<string, Readonly<Record<string, string>>>>();

  constructor(
    private readonly connection: Connection,
    private readonly options: HttpKubeClientOptions = {},
  ) {
    this.retry = options.retry ?? defaultRetry;
    this.timeoutMs = options.requestTimeoutMs ?? 60_000;
    this.requests = new Transport(connection.server, connection.tls, { connections: options.maxSockets ?? 64, connectTimeoutMs: this.timeoutMs });
    // One connection per watch, however many there are.
    this.watches = new Transport(connection.server, connection.tls, { connectTimeoutMs: this.timeoutMs });
    this.userAgent = options.userAgent ?? 'kwokts-controller';
  }

  /** Closes every connection (so a process can exit); a later call opens new ones. */
  close(): void {
    this.requests.close();
    this.watches.close();
  }

  async list(ref: ResourceRef, options: ListOptions = {}, signal?: AbortSignal): Promise<ListResult> {
    const body = (await this.json({ method: 'GET', path: resourcePath(ref, options.namespace), query: listQuery(options), ref, ...(signal ? { signal } : {}) })) as {
      items?: KubeObject[] | null;
      metadata?: { resourceVersion?: string; continue?: string };
    };
    const result: ListResult = { items: body.items ?? [], resourceVersion: body.metadata?.resourceVersion ?? '' };
    if (body.metadata?.continue) result.continue = body.metadata.continue;
    // List items carry no apiVersion/kind; templates and events expect them.
    const apiVersion = ref.group === '' ? ref.version : `${ref.group}/${ref.version}`;
    for (const item of result.items) {
      item.apiVersion ??= apiVersion;
      item.kind ??= ref.kind;
    }
    return result;
  }

  async *watch(ref: ResourceRef, options: WatchOptions, signal: AbortSignal): AsyncIterable<WatchEvent> {
    const path = resourcePath(ref, options.namespace);
    const query = {
      ...listQuery(options),
      watch: 'true',
      resourceVersion: options.resourceVersion,
      allowWatchBookmarks: 'true',
      timeoutSeconds: options.timeoutSeconds,
    };
    // The server ends the watch after timeoutSeconds; an idle limit a minute past that catches a
    // connection that died without a reset (otherwise the watch would hang silently forever).
    const idleMs = ((options.timeoutSeconds ?? 600) + 60) * 1000;
    let response;
    try {
      response = await this.watches.stream(await this.prepare({ method: 'GET', path, query, signal }, idleMs));
    } catch (error) {
      throw networkError('GET', path, error, signal);
    }
    try {
      if (response.status !== 200) {
        const text = await readAll(response.body);
        throw KubeApiError.fromStatus('WATCH', path, response.status, parseBody(text));
      }
      const splitter = new LineSplitter();
      // Only built-in core objects have the field order the cut relies on (see decodeWatchLine).
      const drop = options.dropManagedFields === true && ref.group === '';
      const slimDeleted = options.deletedMetadataOnly === true;
      for await (const batch of response.body) {
        for (const chunk of batch) {
          for (const line of splitter.push(chunk)) {
            const event = watchEvent(path, decodeWatchLine(line, drop, slimDeleted));
            if (event) yield event;
          }
        }
      }
      const rest = splitter.end();
      const last = rest && watchEvent(path, decodeWatchLine(rest, drop, slimDeleted));
      if (last) yield last;
    } finally {
      response.cancel();
    }
  }

  async get(ref: ResourceRef, target: ObjectTarget, signal?: AbortSignal): Promise<KubeObject | undefined> {
    try {
      return (await this.json({ method: 'GET', path: resourcePath(ref, target.namespace, target.name), ref, ...(signal ? { signal } : {}) })) as KubeObject;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async create(ref: ResourceRef, object: KubeObject, options: CreateOptions = {}): Promise<KubeObject> {
    const namespace = options.namespace ?? object.metadata.namespace;
    const path = options.subresource ? resourcePath(ref, namespace, object.metadata.name, options.subresource) : resourcePath(ref, namespace);
    return (await this.json({
      method: 'POST',
      path,
      body: object,
      contentType: 'application/json',
      ref,
      ...(options.impersonate ? { impersonate: options.impersonate } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    })) as KubeObject;
  }

  async update(ref: ResourceRef, object: KubeObject): Promise<KubeObject> {
    const path = resourcePath(ref, object.metadata.namespace, object.metadata.name);
    return (await this.json({ method: 'PUT', path, body: object, contentType: 'application/json', ref })) as KubeObject;
  }

  async patch(ref: ResourceRef, request: PatchRequest): Promise<KubeObject> {
    return (await this.json(this.patchRequest(ref, request))) as KubeObject;
  }

  async updateIgnoringAnswer(ref: ResourceRef, object: KubeObject, subresource?: string): Promise<void> {
    const path = resourcePath(ref, object.metadata.namespace, object.metadata.name, subresource);
    await this.json({ method: 'PUT', path, body: object, contentType: 'application/json', ref, accept: METADATA_ONLY, ignoreAnswer: true });
  }

  async patchIgnoringAnswer(ref: ResourceRef, request: PatchRequest): Promise<void> {
    await this.json({ ...this.patchRequest(ref, request), accept: METADATA_ONLY, ignoreAnswer: true });
  }

  private patchRequest(ref: ResourceRef, request: PatchRequest): RawRequest {
    const path = resourcePath(ref, request.namespace, request.name, request.subresource);
    const query = request.patchType === 'apply' ? { fieldManager: request.fieldManager ?? 'kwok', force: request.force ?? true } : undefined;
    return {
      method: 'PATCH',
      path,
      body: request.body,
      contentType: patchContentTypes[request.patchType],
      ref,
      ...(query ? { query } : {}),
      ...(request.impersonate ? { impersonate: request.impersonate } : {}),
    };
  }

  async delete(ref: ResourceRef, request: DeleteRequest): Promise<void> {
    const path = resourcePath(ref, request.namespace, request.name);
    const body = request.gracePeriodSeconds === undefined ? undefined : { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: request.gracePeriodSeconds };
    try {
      // The answer (the deleted object, or a Status) is not read: metadata is all the apiserver need encode.
      await this.json({ method: 'DELETE', path, ref, accept: METADATA_ONLY, ignoreAnswer: true, ...(body ? { body, contentType: 'application/json' } : {}), ...(request.signal ? { signal: request.signal } : {}) });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  /** GET of any API path (discovery, /openapi/v3/...) as parsed JSON; a `?query` in `path` is kept. */
  async getRaw(path: string, signal?: AbortSignal): Promise<unknown> {
    const [pathname = '', search = ''] = path.split('?', 2);
    const query = Object.fromEntries(new URLSearchParams(search));
    return this.json({ method: 'GET', path: pathname, ...(search ? { query } : {}), ...(signal ? { signal } : {}) });
  }

  async resolve(apiVersion: string, kind: string): Promise<ResourceRef> {
    const { group, version } = parseApiVersion(apiVersion);
    const known = wellKnownResources.find((r) => r.group === group && r.version === version && (r.kind === kind || r.resource === kind));
    if (known) return known;
    const key = `${group}/${version}`;
    let pending = this.discovery.get(key);
    if (!pending) {
      pending = this.discover(group, version);
      this.discovery.set(key, pending);
      // A failed discovery (CRD not installed yet) must not be cached forever.
      pending.catch(() => this.discovery.delete(key));
    }
    const refs = await pending;
    const lower = kind.toLowerCase();
    const found = refs.find((r) => r.kind === kind) ?? refs.find((r) => r.resource === lower || r.kind.toLowerCase() === lower);
    if (!found) {
      this.discovery.delete(key);
      throw new KubeApiError(`no resource for kind ${kind} in ${apiVersion}`, 404, 'NotFound');
    }
    return found;
  }

  private async discover(group: string, version: string): Promise<ResourceRef[]> {
    const path = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
    const body = (await this.json({ method: 'GET', path })) as { resources?: { name: string; kind: string; namespaced: boolean }[] };
    return (body.resources ?? [])
      .filter((r) => !r.name.includes('/'))
      .map((r) => ({ group, version, resource: r.name, kind: r.kind, namespaced: r.namespaced }));
  }

  /**
   * The headers of a request: the credentials' with the request's Accept, Content-Type and
   * impersonation. The few combinations a client uses are built once per set of credentials and
   * frozen, so the pool can also write each one's lines once (see http1-pool.ts).
   */
  private headersFor(credentials: Record<string, string>, accept: string, contentType: string | undefined, impersonate: string | undefined): Readonly<Record<string, string>> {
    let sets = this.headerSets.get(credentials);
    if (!sets) {
      sets = new Map();
      this.headerSets.set(credentials, sets);
    }
    const key = `${accept}\n${contentType ?? ''}\n${impersonate ?? ''}`;
    let headers = sets.get(key);
    if (!headers) {
      headers = Object.freeze({
        ...credentials,
        Accept: accept,
        'User-Agent': this.userAgent,
        ...(contentType !== undefined ? { 'Content-Type': contentType } : {}),
        ...(impersonate ? { 'Impersonate-User': impersonate } : {}),
      });
      sets.set(key, headers);
    }
    return headers;
  }

  /** One request with retries; parses JSON and turns non-2xx answers into KubeApiError. */
  private async json(request: RawRequest): Promise<unknown> {
    return withRetry(
      async () => {
        const started = performance.now();
        let status = 0;
        try {
          const response = await this.send(request);
          status = response.status;
          if (response.status === 401) this.connection.invalidate();
          if (request.ignoreAnswer && response.status < 400) return undefined;
          const body = parseBody(response.body);
          if (response.status >= 400) throw KubeApiError.fromStatus(request.method, request.path, response.status, body, response.retryAfterMs);
          return body;
        } finally {
          this.options.onRequest?.(request.method, request.ref, status, (performance.now() - started) / 1000);
        }
      },
      this.retry,
      request.signal,
    );
  }

  private async send(request: RawRequest): Promise<BufferedResponse> {
    const prepared = await this.prepare(request, this.timeoutMs);
    try {
      return await this.requests.send(prepared);
    } catch (error) {
      throw networkError(request.method, request.path, error, request.signal);
    }
  }

  private async prepare(request: RawRequest, timeoutMs: number): Promise<TransportRequest> {
    const body = request.body !== undefined ? JSON.stringify(request.body) : undefined;
    const contentType = body !== undefined ? (request.contentType ?? 'application/json') : undefined;
    const headers = this.headersFor(await this.connection.headers(), request.accept ?? 'application/json', contentType, request.impersonate);
    return {
      method: request.method,
      path: request.path + buildQuery(request.query),
      headers,
      timeoutMs,
      ...(body !== undefined ? { body } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    };
  }
}

/**
 * A connection-level failure: status 0 (retried), Node's error code as the reason. An aborted
 * request fails with the signal's reason, as an aborted sleep between retries does: the caller
 * said why it stopped (Ctrl-C, a deadline, a component found dead), and that is what the user
 * must read, not the pool's "The operation was aborted". A request the pool refused to write (a
 * header value with a newline, say) stays as it is: sending it again would not help.
 */
function networkError(method: string, path: string, error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  if (!(error instanceof Error)) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (error instanceof RequestFormatError) return error;
  return new KubeApiError(`${method} ${path}: ${error.message}`, 0, code, { cause: error });
}

async function readAll(body: AsyncIterable<Buffer[]>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const batch of body) chunks.push(...batch);
  return Buffer.concat(chunks).toString('utf8');
}

/** A decoded watch line as an event: ERROR becomes a KubeApiError; unknown types are skipped. */
function watchEvent(path: string, value: unknown): WatchEvent | undefined {
  const event = value as { type?: string; object?: KubeObject & { code?: number }; metadataOnly?: boolean };
  if (event.type === 'ERROR') throw KubeApiError.fromStatus('WATCH', path, event.object?.code ?? 500, event.object);
  if (event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED' || event.type === 'BOOKMARK') {
    if (event.object) return event.metadataOnly ? { type: event.type, object: event.object, metadataOnly: true } : { type: event.type, object: event.object };
  }
  return undefined;
}
