/**
 * Keep-alive HTTP/1.1 connections to one server, one request at a time on each.
 *
 * Why not undici (which this replaced) or node:http: the controller sends thousands of small
 * requests a second to one apiserver and reads as many watch events, and at that rate undici's
 * own code was a large part of the controller's CPU in a profile. Here a request is one string
 * handed to the socket in one write (undici hands the head and the body over apart), the answer
 * is read by http1-answer.ts without copying, and a connection's one timer is re-armed about once
 * per limit instead of once per request. What a Kubernetes client needs is all there is: no
 * redirects, proxies, content codings or upgrades, and no pipelining (tried: several changes
 * written back to back on fewer connections cost the client more CPU per request, not less, and
 * the apiserver answered them more slowly).
 */
import net, { isIP } from 'node:net';
// The module object, not a named import: extra-ca-certs.ts wraps tls.createSecureContext.
import tls from 'node:tls';
import { AnswerReader, type AnswerSink } from './http1-answer.js';

export interface Http1PoolOptions {
  /** http: or https: URL of the server; its path is not used. */
  origin: URL;
  /** For https: the context and checks (the CA, client certificate and key live in the context). */
  tls?: { secureContext: tls.SecureContext; rejectUnauthorized?: boolean; servername?: string };
  /** Connections at most; undefined: no limit (watches hold one each for as long as they run). */
  connections?: number;
  /** How long an idle connection is kept. */
  keepAliveMs: number;
  /** Limit for the TCP and TLS handshakes; 0: none. */
  connectTimeoutMs: number;
}

export interface Http1Request {
  method: string;
  /** Path with query, as sent. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Limit for the answer's head and for each silence in its body; 0: none. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Receives one exchange's answer; exactly one of onEnd and onError ends it. */
export interface ExchangeHandler extends AnswerSink {
  onEnd(): void;
  onError(error: Error): void;
}

/** What the sender of a request may do with it while it runs. */
export interface Exchange {
  /** Reads the socket again after onData returned false. */
  resume(): void;
  /** Ends the exchange unless it has ended (its connection is closed); the handler gets `error`. */
  abort(error: Error): void;
}

/** A request that cannot be written (a newline in a header value, say): sending it again would not help. */
export class RequestFormatError extends Error {
  readonly code = 'ERR_INVALID_CHAR';
  constructor(detail: string) {
    super(`request not sent: ${detail}`);
    this.name = 'RequestFormatError';
  }
}

function errorWithCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

export function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' });
}

/** Characters that would end a header line or the request line early. */
const UNSAFE_VALUE = /[\r\n\0]/;
const UNSAFE_PATH = /[\s\0]/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Header lines of frozen header objects, checked and written once (a client sends the same few again and again). */
const headerLines = new WeakMap<Record<string, string>, string>();

function headerBlock(headers: Record<string, string>): string {
  let text = headerLines.get(headers);
  if (text !== undefined) return text;
  text = '';
  for (const name in headers) {
    const value = headers[name]!;
    if (!TOKEN.test(name) || UNSAFE_VALUE.test(value)) throw new RequestFormatError(`header ${JSON.stringify(name)} has a character a header cannot carry`);
    text += `${name}: ${value}\r\n`;
  }
  if (Object.isFrozen(headers)) headerLines.set(headers, text);
  return text;
}

/** The request's bytes: line, Host, the headers, Content-Length, the body. */
function serialize(request: Http1Request, host: string): string {
  if (!TOKEN.test(request.method)) throw new RequestFormatError(`method ${JSON.stringify(request.method)}`);
  if (UNSAFE_PATH.test(request.path) || !request.path.startsWith('/')) throw new RequestFormatError(`path ${JSON.stringify(request.path)}`);
  let text = `${request.method} ${request.path} HTTP/1.1\r\nHost: ${host}\r\n${headerBlock(request.headers)}`;
  if (request.body !== undefined) text += `Content-Length: ${Buffer.byteLength(request.body)}\r\n\r\n${request.body}`;
  else text += BODY_METHODS.has(request.method) ? 'Content-Length: 0\r\n\r\n' : '\r\n';
  return text;
}

/** A request and its handler, waiting for a connection or on one. */
class Pending implements Exchange {
  connection: Connection | undefined;
  finished = false;
  private onAbort: (() => void) | undefined;

  constructor(
    readonly pool: Http1Pool,
    readonly request: Http1Request,
    readonly bytes: string,
    readonly handler: ExchangeHandler,
  ) {
    const signal = request.signal;
    if (signal) {
      this.onAbort = () => this.abort(abortError(signal));
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
  }

  resume(): void {
    if (!this.finished) this.connection?.resume();
  }

  abort(error: Error): void {
    if (this.finished) return;
    if (this.connection) this.connection.destroy(error);
    else {
      this.pool.unqueue(this);
      this.fail(error);
    }
  }

  /** Ends the exchange with an error (once). */
  fail(error: Error): void {
    if (this.settle()) this.handler.onError(error);
  }

  /** Ends the exchange normally (once). */
  end(): void {
    if (this.settle()) this.handler.onEnd();
  }

  private settle(): boolean {
    if (this.finished) return false;
    this.finished = true;
    if (this.onAbort) this.request.signal!.removeEventListener('abort', this.onAbort);
    return true;
  }
}

/**
 * One socket. A single timer, re-armed lazily, watches whichever limit applies in its state:
 * the handshake, the silence of an answer, or the idle keep-alive time.
 */
class Connection {
  private ready = false;
  private dead = false;
  private exchange: Pending | undefined;
  private reader: AnswerReader | undefined;
  private failure: Error | undefined;
  /** The answer's reader asked to stop reading (a watch whose events are not taken yet). */
  private paused = false;
  /** When the current limit's clock last started (connect, request sent or data read, idle since). */
  private since = performance.now();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;

  constructor(
    private readonly pool: Http1Pool,
    private readonly socket: net.Socket,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('end', () => this.ended());
    socket.on('error', (error: Error) => (this.failure ??= error));
    socket.on('close', () => this.closed());
    this.arm(pool.options.connectTimeoutMs);
  }

  connected(): void {
    if (this.dead) return;
    this.ready = true;
    this.socket.setKeepAlive(true, 60_000);
    this.pool.connected(this);
  }

  start(exchange: Pending): void {
    this.exchange = exchange;
    exchange.connection = this;
    this.reader = new AnswerReader(exchange.handler, exchange.request.method === 'HEAD');
    this.since = performance.now();
    this.socket.ref();
    this.arm(exchange.request.timeoutMs);
    this.socket.write(exchange.bytes);
  }

  resume(): void {
    if (this.dead || !this.paused) return;
    this.paused = false;
    this.socket.resume();
  }

  /** Closes the socket; an exchange on it fails with `error`. */
  destroy(error: Error): void {
    if (this.dead) return;
    this.failure = error;
    this.socket.destroy();
    // 'close' comes later; the exchange and the pool learn now.
    this.closed();
  }

  private read(chunk: Buffer): void {
    const exchange = this.exchange;
    if (!exchange || !this.reader) {
      this.destroy(errorWithCode('the server sent bytes without a request', 'EPROTO'));
      return;
    }
    this.since = performance.now();
    let go: boolean;
    try {
      go = this.reader.push(chunk);
    } catch (error) {
      this.destroy(error as Error);
      return;
    }
    if (this.reader.done) {
      const keep = this.reader.keepAlive;
      this.exchange = undefined;
      this.reader = undefined;
      exchange.end();
      if (!keep) this.destroy(errorWithCode('connection closed by the server', 'ECONNRESET'));
      else if (!this.dead) {
        // The handler may have paused the socket on the last piece.
        this.resume();
        this.socket.unref();
        this.pool.released(this);
      }
    } else if (!go && !this.paused) {
      this.paused = true;
      this.socket.pause();
    }
  }

  private ended(): void {
    // The server closed its side: an answer read up to the close is complete now.
    if (this.exchange && this.reader?.end()) {
      const exchange = this.exchange;
      this.exchange = undefined;
      exchange.end();
    }
    this.destroy(errorWithCode('other side closed', 'ECONNRESET'));
  }

  private closed(): void {
    if (this.dead) return;
    this.dead = true;
    if (this.timer) clearTimeout(this.timer);
    const error = this.failure ?? errorWithCode('other side closed', 'ECONNRESET');
    const exchange = this.exchange;
    this.exchange = undefined;
    this.pool.lost(this, this.ready, error);
    exchange?.fail(error);
  }

  /**
   * Makes sure the timer fires no later than `limitMs` after `since` (0: no limit). A timer due
   * earlier is left alone: when it fires, tick() re-arms for whatever limit applies then. So a
   * connection busy with request after request re-arms about once per limit, not per request.
   */
  private arm(limitMs: number): void {
    if (limitMs <= 0) return;
    const at = this.since + limitMs;
    if (at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.tick(), Math.max(1, at - performance.now()));
    this.timer.unref();
  }

  private tick(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    if (this.dead) return;
    const limit = !this.ready ? this.pool.options.connectTimeoutMs : this.exchange ? this.exchange.request.timeoutMs : this.pool.options.keepAliveMs;
    if (limit <= 0) return;
    if (performance.now() - this.since >= limit) {
      if (this.ready && !this.exchange) this.destroy(errorWithCode('idle', 'ECONNRESET'));
      else this.destroy(errorWithCode(`timeout after ${limit} ms`, 'ETIMEDOUT'));
      return;
    }
    this.arm(limit);
  }

  /** The connection waits for a request now: the keep-alive limit applies. */
  idle(): void {
    this.arm(this.pool.options.keepAliveMs);
  }
}

export class Http1Pool {
  private readonly all = new Set<Connection>();
  private idle: Connection[] = [];
  private queue: Pending[] = [];
  private connecting = 0;
  private readonly host: string;
  private readonly hostname: string;
  private readonly port: number;
  private readonly max: number;
  private closedAll = false;

  constructor(readonly options: Http1PoolOptions) {
    const { origin } = options;
    this.host = origin.host;
    // URL keeps IPv6 brackets in hostname; connect wants the bare address.
    this.hostname = origin.hostname.replace(/^\[(.*)\]$/, '$1');
    this.port = Number(origin.port) || (origin.protocol === 'https:' ? 443 : 80);
    this.max = options.connections ?? Infinity;
  }

  /** Sends a request on a free connection (a new one, up to the limit, or when one frees up). */
  dispatch(request: Http1Request, handler: ExchangeHandler): Exchange {
    let bytes: string;
    try {
      bytes = serialize(request, this.host);
    } catch (error) {
      queueMicrotask(() => handler.onError(error as Error));
      return { resume: () => undefined, abort: () => undefined };
    }
    const pending = new Pending(this, request, bytes, handler);
    if (request.signal?.aborted) {
      queueMicrotask(() => pending.fail(abortError(request.signal!)));
      return pending;
    }
    if (this.closedAll) {
      queueMicrotask(() => pending.fail(errorWithCode('client closed', 'ECONNRESET')));
      return pending;
    }
    const connection = this.idle.pop();
    if (connection) connection.start(pending);
    else {
      this.queue.push(pending);
      this.grow();
    }
    return pending;
  }

  /** Closes every connection; requests on them or waiting fail with ECONNRESET (callers retry on a new pool). */
  close(): void {
    this.closedAll = true;
    const waiting = this.queue;
    this.queue = [];
    for (const connection of [...this.all]) connection.destroy(errorWithCode('client closed', 'ECONNRESET'));
    for (const pending of waiting) pending.fail(errorWithCode('client closed', 'ECONNRESET'));
  }

  /** @internal A queued request gave up before it got a connection. */
  unqueue(pending: Pending): void {
    const at = this.queue.indexOf(pending);
    if (at >= 0) this.queue.splice(at, 1);
  }

  /** @internal */
  connected(connection: Connection): void {
    this.connecting--;
    this.released(connection);
  }

  /** @internal The connection is free: the next waiting request, or the idle stack. */
  released(connection: Connection): void {
    const next = this.queue.shift();
    if (next) connection.start(next);
    else {
      this.idle.push(connection);
      connection.idle();
    }
  }

  /** @internal The connection closed. One that never connected takes a waiting request down with it. */
  lost(connection: Connection, wasReady: boolean, error: Error): void {
    this.all.delete(connection);
    const at = this.idle.indexOf(connection);
    if (at >= 0) this.idle.splice(at, 1);
    if (!wasReady) {
      this.connecting--;
      // Each waiting request has a connection on its way; the first one's failed.
      this.queue.shift()?.fail(error);
    }
    this.grow();
  }

  /** Opens connections for waiting requests that have none on the way, up to the limit. */
  private grow(): void {
    while (!this.closedAll && this.queue.length > this.connecting && this.all.size < this.max) this.open();
  }

  private open(): void {
    this.connecting++;
    const secure = this.options.tls;
    let socket: net.Socket;
    let connection: Connection;
    if (secure) {
      const servername = secure.servername ?? (isIP(this.hostname) ? undefined : this.hostname);
      socket = tls.connect({
        host: this.hostname,
        port: this.port,
        secureContext: secure.secureContext,
        ALPNProtocols: ['http/1.1'],
        ...(secure.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}),
        ...(servername ? { servername } : {}),
      });
      socket.once('secureConnect', () => connection.connected());
    } else {
      socket = net.connect({ host: this.hostname, port: this.port });
      socket.once('connect', () => connection.connected());
    }
    connection = new Connection(this, socket);
    this.all.add(connection);
  }
}
