/**
 * The controller's HTTP endpoint: /healthz, /readyz, /livez answer "ok" and /metrics serves
 * Prometheus text. HTTPS is served on the same port as plain HTTP, told apart by the first byte
 * of the connection (a TLS handshake starts with 0x16), as kwok does. Other routes (the kubelet's /containerLogs/) are given by the caller as prefixes, and
 * so are upgrade routes (the kubelet's /exec/, /attach/ and /portForward/, which switch the
 * connection to SPDY): those take GET or POST, and only as an upgrade. With a client CA, every
 * request is authenticated and authorized first (./client-auth.ts).
 */
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../util/log.js';
import { parseHostPort } from '../../util/host-port.js';
import type { ApiReviewer } from './api-review.js';
import { refusalFor, type Refusal } from './client-auth.js';
import { rejectUpgrade } from './spdy-upgrade.js';

export interface ListenAddress {
  host: string;
  port: number;
}

/** A route served under a path prefix, e.g. the kubelet's /containerLogs/. */
export interface ServerRoute {
  prefix: string;
  handle(req: IncomingMessage, res: ServerResponse): void | Promise<void>;
}

/** A route that takes over the connection (HTTP Upgrade), e.g. the kubelet's /exec/. */
export interface UpgradeRoute {
  prefix: string;
  handle(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

export interface KwokServerOptions {
  listen: ListenAddress;
  routes?: readonly ServerRoute[];
  upgradeRoutes?: readonly UpgradeRoute[];
  renderMetrics(): string;
  /** /readyz answers 503 until this returns true (initial lists delivered). */
  isReady?(): boolean;
  /**
   * HTTPS beside plain HTTP on the port, with this certificate and key (PEM); with `clientCa`,
   * client certificates of that CA are required and every request is authorized by its identity
   * (./client-auth.ts), plain HTTP none.
   */
  tls?: { cert: string; key: string; clientCa?: string };
  /** With a client CA: bearer tokens and the identities the controller's rules refuse, asked of the apiserver. */
  reviewer?: ApiReviewer;
  logger: Logger;
}

export interface RunningServer {
  readonly address: AddressInfo;
  close(): Promise<void>;
}

/**
 * kwok's --server-address / --node-port rules: no server when both are empty/0; otherwise
 * "host:port", ":port" or "[v6]:port". A missing host means loopback: we do not expose the
 * endpoint on every interface unless told to (pass 0.0.0.0:port for that).
 */
export function resolveListenAddress(serverAddress: string | undefined, nodePort: number): ListenAddress | undefined {
  const text = serverAddress?.trim() ?? '';
  if (text === '') return nodePort > 0 ? { host: '127.0.0.1', port: nodePort } : undefined;
  // Port 0: any free port (the shard children are started with host:0).
  const { host, port } = parseHostPort(text, { hostOptional: true, portZero: true });
  return { host: host === '' ? '127.0.0.1' : host, port: port! };
}

function handler(options: KwokServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const authenticates = options.tls?.clientCa !== undefined;
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const send = (status: number, body: string, type = 'text/plain; charset=utf-8'): void => {
      res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const decision = authenticates ? refusalFor(req, path, options.reviewer) : undefined;
    whenAllowed(decision, (refusal) => send(refusal.status, `${refusal.message}\n`), () => serve(req, res, path, send));
  };

  function serve(req: IncomingMessage, res: ServerResponse, path: string, send: (status: number, body: string, type?: string) => void): void {
    if (options.upgradeRoutes?.some((r) => path.startsWith(r.prefix))) {
      if (req.method !== 'GET' && req.method !== 'POST') return send(405, 'method not allowed\n');
      return send(400, 'unable to upgrade: missing upgrade headers in request (want Connection: Upgrade and Upgrade: SPDY/3.1)\n');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
    const route = options.routes?.find((r) => path.startsWith(r.prefix));
    if (route) {
      Promise.resolve()
        .then(() => route.handle(req, res))
        .catch((error: unknown) => {
          options.logger.error(`server: ${path}: ${(error as Error).stack ?? String(error)}`);
          if (!res.headersSent) send(500, 'internal error\n');
          else res.destroy();
        });
      return;
    }
    switch (path) {
      case '/healthz':
      case '/livez':
        return send(200, 'ok');
      case '/readyz':
        return options.isReady && !options.isReady() ? send(503, 'not ready') : send(200, 'ok');
      case '/metrics':
        return send(200, options.renderMetrics(), 'text/plain; version=0.0.4; charset=utf-8');
      default:
        return send(404, '404 page not found\n');
    }
  }
}

/**
 * `proceed` once the request is allowed, else `refuse` with the refusal: at once when the decision
 * is known, or when the apiserver has answered.
 */
function whenAllowed(decision: Refusal | undefined | Promise<Refusal | undefined>, refuse: (refusal: Refusal) => void, proceed: () => void): void {
  if (!(decision instanceof Promise)) return decision ? refuse(decision) : proceed();
  void decision.then((refusal) => (refusal ? refuse(refusal) : proceed()));
}

function upgradeHandler(options: KwokServerOptions): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const authenticates = options.tls?.clientCa !== undefined;
  return (req, socket, head) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    socket.on('error', (error: Error) => options.logger.debug(`server: ${path}: ${error.message}`));
    const decision = authenticates ? refusalFor(req, path, options.reviewer) : undefined;
    whenAllowed(decision, (refusal) => rejectUpgrade(socket, refusal.status, refusal.message), () => upgrade(req, socket, head, path));
  };

  function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, path: string): void {
    const route = options.upgradeRoutes?.find((r) => path.startsWith(r.prefix));
    if (!route) return rejectUpgrade(socket, 404, '404 page not found');
    if (req.method !== 'GET' && req.method !== 'POST') return rejectUpgrade(socket, 405, 'method not allowed');
    try {
      route.handle(req, socket, head);
    } catch (error) {
      options.logger.error(`server: ${path}: ${(error as Error).stack ?? String(error)}`);
      socket.destroy();
    }
  }
}

export async function startKwokServer(options: KwokServerOptions): Promise<RunningServer> {
  const handle = handler(options);
  const upgrade = upgradeHandler(options);
  const plain = http.createServer(handle);
  const tls = options.tls;
  // Certificates that fail verification still complete the handshake, so that the answer is a
  // 401 saying what is wrong rather than a reset connection.
  const secure = tls
    ? https.createServer(
        {
          cert: tls.cert,
          key: tls.key,
          ...(tls.clientCa !== undefined ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: false } : {}),
        },
        handle,
      )
    : undefined;
  plain.on('upgrade', upgrade);
  secure?.on('upgrade', upgrade);
  const sockets = new Set<Socket>();
  const front = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    if (!secure) {
      plain.emit('connection', socket);
      return;
    }
    socket.once('readable', () => {
      const head = socket.read(1) as Buffer | null;
      if (head === null) {
        socket.destroy();
        return;
      }
      socket.unshift(head);
      (head[0] === 0x16 ? secure : plain).emit('connection', socket);
    });
  });
  front.on('error', (error) => options.logger.error(`server: ${error.message}`));
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(options.listen.port, options.listen.host, () => {
      front.off('error', reject);
      resolve();
    });
  });
  return {
    address: front.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        front.close(() => resolve());
      }),
  };
}
