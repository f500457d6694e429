/**
 * The kubelet's remote-command protocol over SPDY, behind `kubectl exec` and `kubectl attach`:
 * `/exec/{namespace}/{pod}[/{uid}]/{container}?command=…&input=1&output=1&error=1&tty=1` and the
 * same under `/attach/` without commands. kube-apiserver is the client: it talks SPDY to the
 * kubelet even when kubectl spoke WebSocket to it (it translates, since nodes here do not declare
 * ExtendWebSocketsToKubelet).
 *
 * Sub-protocols are the kubelet's, v4.channel.k8s.io first: the client opens an error stream and
 * one stream per requested channel (stdin, stdout, stderr, and resize with a TTY from v3 on), each
 * named by its streamType header. When the command is done the result goes on the error stream:
 * from v4 as a JSON Status (an exit code travels as reason NonZeroExitCode with an ExitCode
 * cause, which kubectl turns into its own exit code), before v4 as the error text alone.
 */
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../util/log.js';
import type { SpdyStream } from './spdy/connection.js';
import { rejectUpgrade, upgradeToSpdy } from './spdy-upgrade.js';

export const EXEC_PREFIX = '/exec/';
export const ATTACH_PREFIX = '/attach/';

export const REMOTE_COMMAND_PROTOCOLS = ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'] as const;

/** How long the client has to open the streams it asked for (the kubelet's default). */
const STREAM_CREATION_TIMEOUT_MS = 30_000;

export interface RemoteCommandRequest {
  kind: 'exec' | 'attach';
  namespace: string;
  pod: string;
  uid?: string;
  container: string;
  command: string[];
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

export interface TerminalSize {
  width: number;
  height: number;
}

/** The channels of one session, as the command sees them. */
export interface RemoteCommandStreams {
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
  tty: boolean;
  /** Terminal sizes as the client reports them (TTY only, v3 and later). */
  resize?: AsyncIterable<TerminalSize>;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
}

export type CommandOutcome = { kind: 'success' } | { kind: 'exit'; code: number } | { kind: 'error'; message: string };

export class RemoteCommandRequestError extends Error {}

/** Pure: the request a path and query describe. */
export function parseRemoteCommandRequest(url: string): RemoteCommandRequest {
  const parsed = new URL(url, 'http://kubelet');
  const kind = parsed.pathname.startsWith(EXEC_PREFIX) ? 'exec' : parsed.pathname.startsWith(ATTACH_PREFIX) ? 'attach' : undefined;
  if (!kind) throw new RemoteCommandRequestError(`not an exec or attach path: ${parsed.pathname}`);
  let parts: string[];
  try {
    parts = parsed.pathname.slice(kind === 'exec' ? EXEC_PREFIX.length : ATTACH_PREFIX.length).split('/').map((s) => decodeURIComponent(s));
  } catch {
    throw new RemoteCommandRequestError('invalid path encoding');
  }
  if (parts.length !== 3 && parts.length !== 4) throw new RemoteCommandRequestError(`want /${kind}/{namespace}/{pod}/{container} or /${kind}/{namespace}/{pod}/{uid}/{container}`);
  const [namespace = '', pod = '', third = '', fourth] = parts;
  const container = fourth ?? third;
  if (namespace === '' || pod === '' || container === '') throw new RemoteCommandRequestError(`want /${kind}/{namespace}/{pod}/{container}: a part is empty`);
  const query = parsed.searchParams;
  const on = (name: string): boolean => query.get(name) === '1';
  const tty = on('tty');
  const request: RemoteCommandRequest = {
    kind,
    namespace,
    pod,
    container,
    command: kind === 'exec' ? query.getAll('command') : [],
    stdin: on('input'),
    stdout: on('output'),
    // With a TTY, stderr is merged into stdout; the kubelet drops the channel.
    stderr: on('error') && !tty,
    tty,
  };
  if (fourth !== undefined) request.uid = third;
  if (!request.stdin && !request.stdout && !request.stderr) throw new RemoteCommandRequestError('you must specify at least 1 of stdin, stdout, stderr');
  return request;
}

interface Status {
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: { causes: { reason: string; message: string }[] };
  code?: number;
}

/** The Status the kubelet writes for an outcome; `context` prefixes internal errors. */
export function statusFor(outcome: CommandOutcome, context: string): Status {
  switch (outcome.kind) {
    case 'success':
      return { status: 'Success' };
    case 'exit':
      return {
        status: 'Failure',
        message: `command terminated with non-zero exit code: exit status ${outcome.code}`,
        reason: 'NonZeroExitCode',
        details: { causes: [{ reason: 'ExitCode', message: String(outcome.code) }] },
      };
    case 'error':
      return { status: 'Failure', message: `Internal error occurred: ${context}: ${outcome.message}`, reason: 'InternalError', code: 500 };
  }
}

/** What goes on the error stream: JSON from v4, else the message of a failure only. */
export function renderStatus(protocol: string, status: Status): Buffer {
  if (protocol === 'v4.channel.k8s.io') return Buffer.from(JSON.stringify(status), 'utf8');
  return Buffer.from(status.status === 'Success' ? '' : (status.message ?? ''), 'utf8');
}

/** Newline-delimited JSON {Width, Height} objects from the resize stream. */
async function* terminalSizes(stream: Readable): AsyncGenerator<TerminalSize> {
  let pending = '';
  for await (const chunk of stream) {
    pending += (chunk as Buffer).toString('utf8');
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (line === '') continue;
      try {
        const size = JSON.parse(line) as { Width?: unknown; Height?: unknown };
        if (typeof size.Width === 'number' && typeof size.Height === 'number') yield { width: size.Width, height: size.Height };
      } catch {
        // A malformed size is skipped, as the kubelet's decoder would stop; the session goes on.
      }
    }
  }
}

export interface RemoteCommandRouteOptions {
  run(request: RemoteCommandRequest, streams: RemoteCommandStreams): Promise<CommandOutcome>;
  logger: Logger;
}

/** Handles one upgrade request on /exec/ or /attach/. */
export function handleRemoteCommandUpgrade(options: RemoteCommandRouteOptions): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    let request: RemoteCommandRequest;
    try {
      request = parseRemoteCommandRequest(req.url ?? '/');
    } catch (error) {
      if (!(error instanceof RemoteCommandRequestError)) throw error;
      rejectUpgrade(socket, 400, error.message);
      return;
    }
    const { logger } = options;
    const byType = new Map<string, SpdyStream>();
    let expected = 1 + Number(request.stdin) + Number(request.stdout) + Number(request.stderr);
    let allStreams: () => void = () => undefined;
    const streamsReady = new Promise<void>((resolve) => (allStreams = resolve));
    const upgraded = upgradeToSpdy(req, socket, head, REMOTE_COMMAND_PROTOCOLS, {
      logger,
      onStream: (stream) => {
        const type = stream.header('streamType') ?? '';
        if (!['error', 'stdin', 'stdout', 'stderr', 'resize'].includes(type) || byType.has(type)) {
          logger.debug(`${request.kind}: unexpected stream type "${type}"`);
          stream.reset();
          return;
        }
        byType.set(type, stream);
        if (byType.size === expected) allStreams();
      },
    });
    if (!upgraded) return;
    const { protocol, connection } = upgraded;
    // Resizing came with v3; a v1/v2 client opens no resize stream.
    if (request.tty && (protocol === 'v4.channel.k8s.io' || protocol === 'v3.channel.k8s.io')) expected++;
    const abort = new AbortController();
    void connection.closed.then(() => abort.abort());

    void (async () => {
      const timer = setTimeout(() => abort.abort(), STREAM_CREATION_TIMEOUT_MS);
      await Promise.race([streamsReady, new Promise<void>((resolve) => abort.signal.addEventListener('abort', () => resolve(), { once: true }))]);
      clearTimeout(timer);
      if (abort.signal.aborted) {
        logger.debug(`${request.kind} ${request.namespace}/${request.pod}: the client did not open its streams`);
        connection.destroy();
        return;
      }
      const stdin = byType.get('stdin');
      const stdout = byType.get('stdout');
      const stderr = byType.get('stderr');
      const resize = byType.get('resize');
      const streams: RemoteCommandStreams = { tty: request.tty, signal: abort.signal };
      if (stdin) streams.stdin = stdin;
      if (stdout) streams.stdout = stdout;
      if (stderr) streams.stderr = stderr;
      if (resize) streams.resize = terminalSizes(resize);
      let outcome: CommandOutcome;
      try {
        outcome = await options.run(request, streams);
      } catch (error) {
        logger.error(`${request.kind} ${request.namespace}/${request.pod}/${request.container}: ${(error as Error).stack ?? String(error)}`);
        outcome = { kind: 'error', message: (error as Error).message };
      }
      if (outcome.kind === 'error') logger.info(`${request.kind} ${request.namespace}/${request.pod}/${request.container}: ${outcome.message}`);
      const context = request.kind === 'exec' ? 'error executing command in container' : 'error attaching to container';
      const errorStream = byType.get('error');
      const ours = [stdout, stderr, errorStream].filter((s): s is SpdyStream => s !== undefined && !s.destroyed);
      for (const s of [stdout, stderr]) if (s && !s.destroyed && !s.writableEnded) s.end();
      if (errorStream && !errorStream.destroyed) errorStream.end(renderStatus(protocol, statusFor(outcome, context)));
      await Promise.all(ours.map((s) => finished(s, { readable: false }).catch(() => undefined)));
      await connection.close();
    })();
  };
}
