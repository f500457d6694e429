/**
 * HTTP/1.1 to one apiserver over an undici Pool. The controller patches thousands of objects per
 * second; with node:http(s) every request paid for a ClientRequest, agent bookkeeping, header
 * objects and an IncomingMessage stream (about twice the client CPU per request of this). The
 * handlers below are undici's plain dispatch callbacks: a buffered answer for ordinary requests,
 * batches of chunks for watches.
 */
// The module object, not a named import: a named import keeps the function as it was at load, and
// extra-ca-certs.ts wraps tls.createSecureContext for contexts that trust the default roots.
import tls from 'node:tls';
import type { Dispatcher, Pool } from 'undici';
import type { TlsMaterial } from './connection.js';
import { ensureExtraCaTrust } from '../../util/extra-ca-certs.js';

export interface TransportOptions {
  /** Connections at most; undefined: no limit (watches, one long request each). */
  connections?: number;
  /** Connect timeout in ms; 0: none. */
  connectTimeoutMs: number;
}

export interface TransportRequest {
  method: string;
  /** Path with query, without the server URL's path prefix. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Limit for the answer's headers and for each silence in its body; 0: none. */
  timeoutMs: number;
}

export interface BufferedResponse {
  status: number;
  body: string;
  retryAfterMs: number;
}

export interface StreamedResponse {
  status: number;
  /** The body in batches of chunks (see StreamingHandler); leaving the loop early ends the request. */
  body: AsyncIterable<Buffer[]>;
  /** Ends the request unless it has ended (closing its connection); safe to call more than once. */
  cancel(): void;
}

/**
 * undici's Pool module alone, loaded at the first request: undici's index also loads fetch,
 * WebSocket, caches and mocks, which the controller would compile at every start for nothing, and
 * CLI commands that import the client without sending anything (the fast path's `delete cluster`
 * reaches it through the runtimes) should not load undici at all.
 */
let poolClass: Promise<typeof Pool> | undefined;
function loadPool(): Promise<typeof Pool> {
  poolClass ??= import('undici/lib/dispatcher/pool.js').then((module) => module.default);
  return poolClass;
}

/** How long an idle connection is kept. The apiserver closes idle ones after 90 s; closing first avoids sending on a socket it is closing. */
const keepAliveMs = 30_000;

export class Transport {
  private pool: Pool | undefined;
  private readonly origin: string;
  private readonly basePath: string;

  constructor(
    server: URL,
    private readonly tls: TlsMaterial,
    private readonly options: TransportOptions,
  ) {
    // URL.origin keeps IPv6 brackets and drops a default port; a path prefix goes in front of every path.
    this.origin = server.origin;
    this.basePath = server.pathname.replace(/\/$/, '');
  }

  /** The whole body, as text. */
  async send(request: TransportRequest): Promise<BufferedResponse> {
    const pool = this.pool ?? (await this.open());
    return new Promise((resolve, reject) => {
      pool.dispatch(this.dispatchOptions(request), new BufferingHandler(request, resolve, reject));
    });
  }

  /** Resolves at the answer's headers; the body streams (stop reading it to end the request). */
  async stream(request: TransportRequest): Promise<StreamedResponse> {
    const pool = this.pool ?? (await this.open());
    return new Promise((resolve, reject) => {
      pool.dispatch(this.dispatchOptions(request), new StreamingHandler(request, resolve, reject));
    });
  }

  /** Drops every connection; in-flight requests fail (and are retried on new ones, as after a reset). */
  close(): void {
    const pool = this.pool;
    this.pool = undefined;
    pool?.destroy().catch(() => undefined);
  }

  private async open(): Promise<Pool> {
    const PoolClass = await loadPool();
    if (this.pool) return this.pool;
    // One TLS context for every connection: given ca/cert/key, each tls.connect would parse them
    // into a context of its own (the most expensive part of a reconnect).
    const { ca, cert, key, ...verify } = this.tls;
    const https = this.origin.startsWith('https:');
    // No CA of its own (a kubeconfig for a server with a public or a proxy's certificate): the
    // default roots, NODE_EXTRA_CA_CERTS's among them, as Node itself would trust.
    if (https && ca === undefined) await ensureExtraCaTrust();
    if (this.pool) return this.pool;
    const secure = https ? { secureContext: tls.createSecureContext({ ca, cert, key }), ...verify } : {};
    // Created on use, also again after close(): the node:http agent this replaces behaved so.
    this.pool = new PoolClass(this.origin, {
      connections: this.options.connections ?? null,
      keepAliveTimeout: keepAliveMs,
      connect: { ...secure, timeout: this.options.connectTimeoutMs },
    });
    return this.pool;
  }

  private dispatchOptions(request: TransportRequest): Dispatcher.DispatchOptions {
    return {
      method: request.method as Dispatcher.HttpMethod,
      path: this.basePath + request.path,
      headers: request.headers,
      body: request.body ?? null,
      // undici closes a connection after a body on a method that does not expect one (a DELETE's
      // DeleteOptions), for servers that would not read it; the apiserver (Go's net/http) does.
      ...(request.body !== undefined ? { reset: false } : {}),
      headersTimeout: request.timeoutMs,
      bodyTimeout: request.timeoutMs,
    };
  }
}

const timeoutCodes = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * undici's own errors in the shapes node:http gave (retry.ts and log readers know those): a
 * timeout is ETIMEDOUT, a connection the server closed ECONNRESET. Node's socket errors
 * (ECONNREFUSED, ...) pass through unchanged.
 */
function nodeShaped(error: Error, timeoutMs: number): Error {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && timeoutCodes.has(code)) return Object.assign(new Error(`timeout after ${timeoutMs} ms`, { cause: error }), { code: 'ETIMEDOUT' });
  if (code === 'UND_ERR_SOCKET') return Object.assign(new Error(error.message, { cause: error }), { code: 'ECONNRESET' });
  return error;
}

function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' });
}

function retryAfterMs(rawHeaders: Buffer[] | string[] | null): number {
  if (!rawHeaders) return 0;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 11 && name.toString().toLowerCase() === 'retry-after') {
      const seconds = Number(rawHeaders[i + 1]!.toString());
      return Number.isFinite(seconds) ? seconds * 1000 : 0;
    }
  }
  return 0;
}

/** Common part: the abort callback undici hands over, and the caller's AbortSignal wired to it. */
abstract class SignalledHandler {
  private abortRequest: ((error?: Error) => void) | undefined;
  private readonly signal: AbortSignal | undefined;
  private readonly onAbort: (() => void) | undefined;
  protected finished = false;
  protected readonly timeoutMs: number;

  constructor(request: TransportRequest) {
    this.timeoutMs = request.timeoutMs;
    this.signal = request.signal;
    if (this.signal) {
      this.onAbort = () => this.aborted(abortError(this.signal!));
      this.signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  onConnect(abort: (error?: Error) => void): void {
    if (this.signal?.aborted) abort(abortError(this.signal));
    else this.abortRequest = abort;
  }

  /** Ends the request; undici answers with onError. Before onConnect, onConnect does it. */
  protected aborted(error: Error): void {
    if (!this.finished) this.abortRequest?.(error);
  }

  protected finish(): void {
    this.finished = true;
    if (this.onAbort) this.signal?.removeEventListener('abort', this.onAbort);
  }
}

class BufferingHandler extends SignalledHandler implements Dispatcher.DispatchHandler {
  private status = 0;
  private retryAfter = 0;
  private readonly chunks: Buffer[] = [];

  constructor(
    request: TransportRequest,
    private readonly resolve: (response: BufferedResponse) => void,
    private readonly reject: (error: Error) => void,
  ) {
    super(request);
  }

  onHeaders(status: number, rawHeaders: Buffer[]): boolean {
    if (status < 200) return true;
    this.status = status;
    this.retryAfter = retryAfterMs(rawHeaders);
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.finish();
    const body = this.chunks.length === 1 ? this.chunks[0]!.toString('utf8') : Buffer.concat(this.chunks).toString('utf8');
    this.resolve({ status: this.status, body, retryAfterMs: this.retryAfter });
  }

  onError(error: Error): void {
    this.finish();
    this.reject(nodeShaped(error, this.timeoutMs));
  }
}

/**
 * A streamed answer's body without a Readable: the chunks undici hands over wait in an array, and
 * the reader takes all that arrived since it last looked as one batch. A watch event then costs a
 * push and, at most, one promise per batch instead of a Readable's buffering and an async
 * iterator step per chunk. Past HIGH_WATER bytes unread, undici stops reading the socket until the
 * reader catches up (the server then waits, as it would for a slow Readable).
 */
const HIGH_WATER = 1 << 20;

class StreamingHandler extends SignalledHandler implements Dispatcher.DispatchHandler {
  private chunks: Buffer[] = [];
  private unread = 0;
  private paused = false;
  private resume: (() => void) | undefined;
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private started = false;

  constructor(
    request: TransportRequest,
    private readonly resolve: (response: StreamedResponse) => void,
    private readonly reject: (error: Error) => void,
  ) {
    super(request);
  }

  onHeaders(status: number, _rawHeaders: Buffer[], resume: () => void): boolean {
    if (status < 200) return true;
    this.started = true;
    this.resume = resume;
    this.resolve({ status, body: this.batches(), cancel: () => this.cancel() });
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    this.unread += chunk.length;
    this.wake?.();
    if (this.unread < HIGH_WATER) return true;
    this.paused = true;
    return false;
  }

  onComplete(): void {
    this.finish();
    this.ended = true;
    this.wake?.();
  }

  onError(error: Error): void {
    this.finish();
    const shaped = nodeShaped(error, this.timeoutMs);
    if (!this.started) {
      this.reject(shaped);
      return;
    }
    this.failure = shaped;
    this.wake?.();
  }

  private async *batches(): AsyncGenerator<Buffer[]> {
    try {
      for (;;) {
        if (this.chunks.length > 0) {
          const batch = this.chunks;
          this.chunks = [];
          this.unread = 0;
          if (this.paused) {
            this.paused = false;
            this.resume?.();
          }
          yield batch;
          continue;
        }
        if (this.failure) throw this.failure;
        if (this.ended) return;
        await new Promise<void>((wake) => (this.wake = wake));
        this.wake = undefined;
      }
    } finally {
      // The reader gave up (or failed) before the end.
      this.cancel();
    }
  }

  private cancel(): void {
    if (!this.ended && !this.failure) this.aborted(Object.assign(new Error('watch closed'), { code: 'UND_ERR_ABORTED' }));
  }
}
