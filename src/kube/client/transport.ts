/**
 * HTTP/1.1 to one apiserver (http1-pool.ts): a buffered answer for ordinary requests, batches of
 * chunks for watches. The controller patches thousands of objects per second; node:http(s) cost
 * it about twice the client CPU per request of undici, and undici about a sixth more than the
 * pool here (GETs and merge patches against a real apiserver; see http1-pool.ts for why).
 */
// The module object, not a named import: a named import keeps the function as it was at load, and
// extra-ca-certs.ts wraps tls.createSecureContext for contexts that trust the default roots.
import tls from 'node:tls';
import type { TlsMaterial } from './connection.js';
import { Http1Pool, type Exchange, type ExchangeHandler, type Http1Request } from './http1-pool.js';
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

/** How long an idle connection is kept. The apiserver closes idle ones after 90 s; closing first avoids sending on a socket it is closing. */
const keepAliveMs = 30_000;

export class Transport {
  private pool: Http1Pool | undefined;
  private readonly origin: URL;
  private readonly basePath: string;

  constructor(
    server: URL,
    private readonly tls: TlsMaterial,
    private readonly options: TransportOptions,
  ) {
    this.origin = new URL(server.origin);
    // A path prefix (a server URL like https://host/prefix) goes in front of every path.
    this.basePath = server.pathname.replace(/\/$/, '');
  }

  /** The whole body, as text. */
  async send(request: TransportRequest): Promise<BufferedResponse> {
    const pool = this.pool ?? (await this.open());
    return new Promise((resolve, reject) => {
      pool.dispatch(this.poolRequest(request), new BufferingHandler(resolve, reject));
    });
  }

  /** Resolves at the answer's headers; the body streams (stop reading it to end the request). */
  async stream(request: TransportRequest): Promise<StreamedResponse> {
    const pool = this.pool ?? (await this.open());
    return new Promise((resolve, reject) => {
      const handler = new StreamingHandler(resolve, reject);
      handler.exchange = pool.dispatch(this.poolRequest(request), handler);
    });
  }

  /** Drops every connection; in-flight requests fail (and are retried on new ones, as after a reset). */
  close(): void {
    const pool = this.pool;
    this.pool = undefined;
    pool?.close();
  }

  private async open(): Promise<Http1Pool> {
    const https = this.origin.protocol === 'https:';
    // No CA of its own (a kubeconfig for a server with a public or a proxy's certificate): the
    // default roots, NODE_EXTRA_CA_CERTS's among them, as Node itself would trust.
    if (https && this.tls.ca === undefined) await ensureExtraCaTrust();
    if (this.pool) return this.pool;
    const { ca, cert, key, rejectUnauthorized, servername } = this.tls;
    // One TLS context for every connection: given ca/cert/key, each tls.connect would parse them
    // into a context of its own (the most expensive part of a reconnect).
    const secure = https
      ? { secureContext: tls.createSecureContext({ ca, cert, key }), ...(rejectUnauthorized !== undefined ? { rejectUnauthorized } : {}), ...(servername ? { servername } : {}) }
      : undefined;
    // Created on use, also again after close(): the node:http agent this once replaced behaved so.
    this.pool = new Http1Pool({
      origin: this.origin,
      ...(secure ? { tls: secure } : {}),
      ...(this.options.connections !== undefined ? { connections: this.options.connections } : {}),
      keepAliveMs,
      connectTimeoutMs: this.options.connectTimeoutMs,
    });
    return this.pool;
  }

  private poolRequest(request: TransportRequest): Http1Request {
    return {
      method: request.method,
      path: this.basePath + request.path,
      headers: request.headers,
      timeoutMs: request.timeoutMs,
      ...(request.body !== undefined ? { body: request.body } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    };
  }
}

class BufferingHandler implements ExchangeHandler {
  private status = 0;
  private retryAfterMs = 0;
  private readonly chunks: Buffer[] = [];

  constructor(
    private readonly resolve: (response: BufferedResponse) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  onHead(status: number, retryAfterMs: number): void {
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }

  onData(piece: Buffer): boolean {
    this.chunks.push(piece);
    return true;
  }

  onEnd(): void {
    let body: string;
    try {
      body = this.chunks.length === 1 ? this.chunks[0]!.toString('utf8') : Buffer.concat(this.chunks).toString('utf8');
    } catch (error) {
      // A body past V8's longest string (a list of ~500 MiB): the caller's error, not the socket reader's.
      this.reject(error as Error);
      return;
    }
    this.resolve({ status: this.status, body, retryAfterMs: this.retryAfterMs });
  }

  onError(error: Error): void {
    this.reject(error);
  }
}

/**
 * A streamed answer's body without a Readable: the pieces the pool hands over wait in an array, and
 * the reader takes all that arrived since it last looked as one batch. A watch event then costs a
 * push and, at most, one promise per batch instead of a Readable's buffering and an async
 * iterator step per chunk. Past HIGH_WATER bytes unread, the socket is paused until the reader
 * catches up (the server then waits, as it would for a slow Readable).
 */
const HIGH_WATER = 1 << 20;

class StreamingHandler implements ExchangeHandler {
  exchange: Exchange | undefined;
  private chunks: Buffer[] = [];
  private unread = 0;
  private paused = false;
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private started = false;

  constructor(
    private readonly resolve: (response: StreamedResponse) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  onHead(status: number): void {
    this.started = true;
    this.resolve({ status, body: this.batches(), cancel: () => this.cancel() });
  }

  onData(piece: Buffer): boolean {
    this.chunks.push(piece);
    this.unread += piece.length;
    this.wake?.();
    if (this.unread < HIGH_WATER) return true;
    this.paused = true;
    return false;
  }

  onEnd(): void {
    this.ended = true;
    this.wake?.();
  }

  onError(error: Error): void {
    if (!this.started) {
      this.reject(error);
      return;
    }
    this.failure = error;
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
            this.exchange?.resume();
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
    if (!this.ended && !this.failure) this.exchange?.abort(Object.assign(new Error('watch closed'), { code: 'ECONNRESET' }));
  }
}
