/**
 * A TCP relay, in-process: every connection accepted on `listen` is piped to `target` until the
 * signal aborts; what `socat TCP-LISTEN:<port>,fork TCP:<target>` does. Bytes are passed through
 * untouched, so TLS (the apiserver's client certificates) works end to end.
 */
import { createConnection, createServer, type Socket } from 'node:net';
import { PreflightError } from '../util/errors.js';

export interface TcpAddress {
  host: string;
  port: number;
}

export interface TcpProxyOptions {
  listen: TcpAddress;
  target: TcpAddress;
  /** Ends the relay: the listener closes and open connections are cut. */
  signal: AbortSignal;
  /** Once listening, with the bound address (the port the system chose when 0 was asked). */
  onListening?: (address: TcpAddress) => void;
  /** A connection to the target failed or broke; the relay keeps serving the next ones. */
  onConnectionError?: (error: Error) => void;
}

/** Resolves when the signal has ended the relay; rejects (PreflightError) when it cannot listen. */
export function runTcpProxy(options: TcpProxyOptions): Promise<void> {
  const { listen, target, signal } = options;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const open = new Set<Socket>();
    // Half-open on both sides: a client that finishes sending (shutdown) still gets the answer.
    const server = createServer({ allowHalfOpen: true }, (client) => {
      const upstream = createConnection({ host: target.host, port: target.port, allowHalfOpen: true });
      open.add(client);
      open.add(upstream);
      let reported = false;
      const fail = (error: Error): void => {
        if (!reported && !signal.aborted) options.onConnectionError?.(error);
        reported = true;
        client.destroy();
        upstream.destroy();
      };
      client.on('error', fail);
      upstream.on('error', fail);
      client.on('close', () => open.delete(client));
      upstream.on('close', () => open.delete(upstream));
      // pipe() ends the other side when one side ends, so each direction closes on its own.
      client.pipe(upstream);
      upstream.pipe(client);
    });
    const stop = (): void => {
      server.close(() => resolve());
      for (const socket of open) socket.destroy();
    };
    server.once('error', (error: NodeJS.ErrnoException) => {
      signal.removeEventListener('abort', stop);
      reject(listenError(error, listen));
    });
    server.listen({ host: listen.host, port: listen.port, exclusive: true }, () => {
      if (signal.aborted) {
        stop();
        return;
      }
      signal.addEventListener('abort', stop, { once: true });
      const bound = server.address();
      const port = typeof bound === 'object' && bound ? bound.port : listen.port;
      options.onListening?.({ host: listen.host, port });
    });
  });
}

/**
 * Probe (a read, so dry-run runs it too): fail now, with the reason, if `address` cannot be
 * listened on; listens and closes at once. Port 0 always can.
 */
export function checkCanListen(address: TcpAddress): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, address)));
    server.listen({ host: address.host, port: address.port, exclusive: true }, () => server.close(() => resolve()));
  });
}

function listenError(error: NodeJS.ErrnoException, address: TcpAddress): PreflightError {
  const where = `${address.host}:${address.port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return new PreflightError(`${where} is already in use`, { hint: 'choose another local port (0 picks a free one)', cause: error });
    case 'EACCES':
      return new PreflightError(`not allowed to listen on ${where}`, { hint: 'ports below 1024 need privileges: choose a higher local port', cause: error });
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new PreflightError(`cannot listen on ${where}: no such address on this machine`, { hint: 'use --address 127.0.0.1 (the default) or an address of this machine', cause: error });
    default:
      return new PreflightError(`cannot listen on ${where}: ${error.message}`, { cause: error });
  }
}
