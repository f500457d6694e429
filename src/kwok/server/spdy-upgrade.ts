/**
 * The kubelet's side of an HTTP upgrade to SPDY/3.1 for exec, attach and port-forward: check
 * the upgrade headers, negotiate the sub-protocol from X-Stream-Protocol-Version (the client's
 * order wins, as in k8s.io/streaming's Handshake), answer 101 and hand the socket to a SPDY
 * connection. Refusals are plain HTTP answers with the kubelet's wording, which kube-apiserver
 * passes on to kubectl.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { SpdyServerConnection } from './spdy/connection.js';
import type { SpdyServerConnectionOptions } from './spdy/connection.js';

export const HEADER_PROTOCOL_VERSION = 'X-Stream-Protocol-Version';
export const HEADER_ACCEPTED_PROTOCOL_VERSIONS = 'X-Accepted-Stream-Protocol-Versions';

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 500: 'Internal Server Error' };

/** Answer a request whose socket was handed over for an upgrade, and close it. */
export function rejectUpgrade(socket: Duplex, status: number, message: string, extraHeaders: Record<string, string[]> = {}): void {
  // Go's http.Error appends a newline; kube-apiserver shows the body as it is.
  const body = Buffer.from(`${message}\n`, 'utf8');
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}`,
    'Content-Type: text/plain; charset=utf-8',
    'X-Content-Type-Options: nosniff',
    ...Object.entries(extraHeaders).flatMap(([name, values]) => values.map((v) => `${name}: ${v}`)),
    `Content-Length: ${body.length}`,
    'Connection: close',
  ];
  socket.end(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
}

/** Comma-separated values across repeated headers, trimmed, empty ones dropped. */
function headerValues(req: IncomingMessage, name: string): string[] | undefined {
  const raw = req.headersDistinct[name.toLowerCase()];
  if (!raw) return undefined;
  return raw.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

export function isSpdyUpgrade(req: IncomingMessage): boolean {
  const connection = (req.headers.connection ?? '').toLowerCase();
  const upgrade = (req.headers.upgrade ?? '').toLowerCase();
  return connection.includes('upgrade') && upgrade.includes('spdy/3.1');
}

/**
 * Upgrade or refuse. Returns the negotiated protocol and the connection, or undefined when the
 * request has been answered with an error.
 */
export function upgradeToSpdy(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  serverProtocols: readonly string[],
  options: SpdyServerConnectionOptions,
): { protocol: string; connection: SpdyServerConnection } | undefined {
  const clientProtocols = headerValues(req, HEADER_PROTOCOL_VERSION);
  if (clientProtocols === undefined) {
    rejectUpgrade(socket, 400, `unable to upgrade: header ${HEADER_PROTOCOL_VERSION} does not exist in request with ${Object.keys(req.headers).length} headers`);
    return undefined;
  }
  if (clientProtocols.length === 0) {
    rejectUpgrade(socket, 400, `unable to upgrade: header ${HEADER_PROTOCOL_VERSION} contains no valid protocols`);
    return undefined;
  }
  const protocol = clientProtocols.find((p) => serverProtocols.includes(p));
  if (protocol === undefined) {
    rejectUpgrade(socket, 403, `unable to upgrade: unable to negotiate protocol: client supports [${clientProtocols.join(' ')}], server accepts [${serverProtocols.join(' ')}]`, {
      [HEADER_ACCEPTED_PROTOCOL_VERSIONS]: [...serverProtocols],
    });
    return undefined;
  }
  if (!isSpdyUpgrade(req)) {
    rejectUpgrade(socket, 400, 'unable to upgrade: missing upgrade headers in request (want Connection: Upgrade and Upgrade: SPDY/3.1)');
    return undefined;
  }
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n${HEADER_PROTOCOL_VERSION}: ${protocol}\r\n\r\n`);
  return { protocol, connection: new SpdyServerConnection(socket, options, head) };
}
