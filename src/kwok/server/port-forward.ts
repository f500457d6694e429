/**
 * The kubelet's `/portForward/{namespace}/{pod}[/{uid}]` over SPDY (sub-protocol
 * portforward.k8s.io), behind `kubectl port-forward`. kube-apiserver is the client; when kubectl
 * tunnels SPDY through WebSocket (v2.portforward.k8s.io) the apiserver unwraps it first.
 *
 * Each forwarded connection arrives as two streams sharing a requestID header: an error stream
 * and a data stream, both with the pod's port in a port header. Once both are there the data
 * stream is joined to the target the matching PortForward entry names: a TCP address, or a
 * command whose stdin and stdout are the connection. Errors are written as text to the error
 * stream and both streams are reset, which kubectl reports for that connection only.
 */
import { spawn } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../util/log.js';
import type { ForwardEntry } from '../api/streaming-schema.js';
import type { RuleLookup } from '../controllers/streaming-registry.js';
import { commandLine, startFailure } from './exec-local.js';
import type { SpdyStream } from './spdy/connection.js';
import type { SpdyHeaders } from './spdy/frames.js';
import { rejectUpgrade, upgradeToSpdy } from './spdy-upgrade.js';

export const PORT_FORWARD_PREFIX = '/portForward/';
export const PORT_FORWARD_PROTOCOLS = ['portforward.k8s.io'] as const;

/** How long the second stream of a pair may take (the kubelet's stream creation timeout). */
const PAIR_TIMEOUT_MS = 30_000;

export class PortForwardRequestError extends Error {}

export function parsePortForwardPath(url: string): { namespace: string; pod: string; uid?: string } {
  const parsed = new URL(url, 'http://kubelet');
  if (!parsed.pathname.startsWith(PORT_FORWARD_PREFIX)) throw new PortForwardRequestError(`not a portForward path: ${parsed.pathname}`);
  let parts: string[];
  try {
    parts = parsed.pathname.slice(PORT_FORWARD_PREFIX.length).split('/').map((s) => decodeURIComponent(s));
  } catch {
    throw new PortForwardRequestError('invalid path encoding');
  }
  if ((parts.length !== 2 && parts.length !== 3) || parts.some((p) => p === '')) {
    throw new PortForwardRequestError('want /portForward/{namespace}/{pod} or /portForward/{namespace}/{pod}/{uid}');
  }
  const [namespace = '', pod = '', uid] = parts;
  return uid === undefined ? { namespace, pod } : { namespace, pod, uid };
}

/** Why a stream cannot be part of a port-forward, or nothing when it can (the kubelet's checks). */
export function checkForwardStream(headers: SpdyHeaders): string | undefined {
  const port = headers.port?.[0] ?? '';
  if (port === '') return '"port" header is required';
  if (!/^\d+$/.test(port) || Number(port) > 65535) return `unable to parse "${port}" as a port`;
  if (Number(port) < 1) return `port "${port}" must be > 0`;
  const type = headers.streamtype?.[0] ?? '';
  if (type === '') return '"streamType" header is required';
  if (type !== 'error' && type !== 'data') return `invalid stream type "${type}"`;
  return undefined;
}

export interface PortForwardRouteOptions {
  lookup(namespace: string, pod: string, port: number): RuleLookup<ForwardEntry>;
  logger: Logger;
}

interface Pair {
  error?: SpdyStream;
  data?: SpdyStream;
  timer?: NodeJS.Timeout;
}

/** Joins a connection's data stream to the entry's target; resolves when both sides are done. */
export function forwardTo(entry: ForwardEntry, data: Duplex): Promise<void> {
  if (entry.command.length > 0) return forwardToCommand(entry.command, data);
  if (entry.target) return forwardToAddress(entry.target, data);
  return Promise.reject(new Error('no target or command'));
}

function forwardToAddress(target: { port: number; address: string }, data: Duplex): Promise<void> {
  return new Promise((resolve, reject) => {
    const address = `${target.address.includes(':') ? `[${target.address}]` : target.address}:${target.port}`;
    const socket = net.connect({ host: target.address, port: target.port });
    let connected = false;
    socket.once('connect', () => {
      connected = true;
      data.pipe(socket);
      socket.pipe(data);
    });
    socket.on('error', (error) => {
      if (!connected) reject(new Error(`failed to dial ${address}: ${error.message}`));
      else data.destroy();
    });
    socket.once('close', () => {
      if (connected) resolve();
    });
    data.once('close', () => socket.destroy());
  });
}

function forwardToCommand(command: readonly string[], data: Duplex): Promise<void> {
  return new Promise((resolve, reject) => {
    const [file = '', ...args] = command;
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const stderr: Buffer[] = [];
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on('error', () => undefined);
    data.pipe(child.stdin);
    child.stdout.pipe(data);
    child.once('error', (error: NodeJS.ErrnoException) => reject(new Error(startFailure(command, error))));
    child.once('close', (code, signal) => {
      if (code === 0) return resolve();
      const why = code !== null ? `exit status ${code}` : `signal: ${signal ?? 'unknown'}`;
      const text = Buffer.concat(stderr).toString('utf8');
      reject(new Error(`cmd wait: ${commandLine(command)}: ${why}${text ? `\n${text}` : ''}`));
    });
    data.once('close', () => child.kill('SIGKILL'));
  });
}

export function handlePortForwardUpgrade(options: PortForwardRouteOptions): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    let target: { namespace: string; pod: string; uid?: string };
    try {
      target = parsePortForwardPath(req.url ?? '/');
    } catch (error) {
      if (!(error instanceof PortForwardRequestError)) throw error;
      rejectUpgrade(socket, 400, error.message);
      return;
    }
    const { logger } = options;
    const pairs = new Map<string, Pair>();
    const run = (requestID: string, pair: Pair): void => {
      const { error, data } = pair;
      if (!error || !data) return;
      const port = Number(data.header('port'));
      // kwok names the pod "<name>/<namespace>" in this message; kept as kwok prints it.
      const fail = (message: string): void => {
        logger.info(`port-forward ${target.namespace}/${target.pod}:${port}: ${message}`);
        error.write(`error forwarding port ${port} to pod ${target.pod}/${target.namespace}, uid ${target.uid ?? ''}: ${message}`);
        data.reset();
        error.reset();
      };
      const found = options.lookup(target.namespace, target.pod, port);
      if (!found.found) return fail(found.message);
      logger.debug(`port-forward ${target.namespace}/${target.pod}:${port} (request ${requestID}) via ${found.from}`);
      forwardTo(found.entry, data).then(
        () => {
          if (!data.writableEnded) data.end();
          error.end();
        },
        (err: Error) => fail(err.message),
      );
    };
    const upgraded = upgradeToSpdy(req, socket, head, PORT_FORWARD_PROTOCOLS, {
      logger,
      accept: checkForwardStream,
      onStream: (stream) => {
        const type = stream.header('streamType');
        // Without a requestID the pair is told by stream ids, error first (the kubelet's fallback).
        const requestID = stream.header('requestID') ?? String(type === 'error' ? stream.id : stream.id - 2);
        let pair = pairs.get(requestID);
        if (!pair) {
          const created: Pair = {};
          created.timer = setTimeout(() => {
            pairs.delete(requestID);
            created.error?.end(`timed out waiting for streams of request ${requestID}`);
            created.data?.reset();
          }, PAIR_TIMEOUT_MS);
          pairs.set(requestID, created);
          pair = created;
        }
        const slot = type === 'error' ? 'error' : 'data';
        if (pair[slot]) {
          const message = `error processing stream for request ${requestID}: ${slot} stream already assigned`;
          pair.error?.write(message);
          stream.reset();
          return;
        }
        pair[slot] = stream;
        if (pair.error && pair.data) {
          clearTimeout(pair.timer);
          pairs.delete(requestID);
          run(requestID, pair);
        }
      },
    });
    if (!upgraded) return;
    void upgraded.connection.closed.then(() => {
      for (const pair of pairs.values()) clearTimeout(pair.timer);
      pairs.clear();
    });
  };
}
