/**
 * The kubelet's `GET /containerLogs/{namespace}/{pod}/{container}`, which kube-apiserver calls
 * for `kubectl logs` (it finds this "kubelet" through the Node's addresses and
 * status.daemonEndpoints.kubeletEndpoint.Port, both written by the node stages).
 *
 * Query parameters, as the apiserver forwards them: follow, previous, tailLines (or the old
 * `tail`, where "all" means everything), limitBytes, timestamps, sinceSeconds and sinceTime.
 * `insecureSkipTLSVerifyBackend` concerns the apiserver's side only, and `stream` (split
 * stdout/stderr, feature PodLogsQuerySplitStreams) is ignored: both streams are sent, as
 * without it.
 *
 * Failures are 400 with a one-line text, as the kubelet (and kwok) answer: the apiserver turns
 * a 400 into `Error from server (BadRequest): <text>` for kubectl, where a 404 would lose the
 * text. Following needs both the request's follow and the entry's `follow: true`; otherwise the
 * current content is sent and the response ends.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../util/log.js';
import type { LogLookup } from '../controllers/logs-registry.js';
import { openLogFile, parseLogTime, streamLogFile } from './log-file-reader.js';
import type { LogReadOptions, OpenLogFile } from './log-file-reader.js';

export const CONTAINER_LOGS_PREFIX = '/containerLogs/';

export interface ContainerLogsRequest {
  namespace: string;
  pod: string;
  container: string;
  follow: boolean;
  previous: boolean;
  tailLines?: number;
  limitBytes?: number;
  sinceMs?: number;
  timestamps: boolean;
}

/** A request the route cannot serve, with the kubelet-style text to answer it with. */
export class ContainerLogsError extends Error {}

/** Kubernetes' query-to-bool conversion: present and not "false"/"0" means true. */
function flag(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  return value !== null && value !== 'false' && value !== '0';
}

function integer(query: URLSearchParams, name: string, min: number): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (!/^-?\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new ContainerLogsError(`invalid ${name} ${JSON.stringify(value)}: want an integer of at least ${min}`);
  }
  return Number(value);
}

/** Pure: path and query of a containerLogs request, `now` for sinceSeconds. */
export function parseContainerLogsRequest(url: string, now: number): ContainerLogsRequest {
  const parsed = new URL(url, 'http://kubelet');
  if (!parsed.pathname.startsWith(CONTAINER_LOGS_PREFIX)) throw new ContainerLogsError(`not a containerLogs path: ${parsed.pathname}`);
  const segments = parsed.pathname.slice(CONTAINER_LOGS_PREFIX.length).split('/');
  let parts: string[];
  try {
    parts = segments.map((s) => decodeURIComponent(s));
  } catch {
    throw new ContainerLogsError('invalid path encoding');
  }
  if (parts.length !== 3) throw new ContainerLogsError('want /containerLogs/{namespace}/{pod}/{container}');
  const [namespace = '', pod = '', container = ''] = parts;
  if (namespace === '') throw new ContainerLogsError('Missing podNamespace.');
  if (pod === '') throw new ContainerLogsError('Missing podID.');
  if (container === '') throw new ContainerLogsError('Missing container name.');

  const query = parsed.searchParams;
  // The older `tail` parameter wins over tailLines, and "all" means no tail (as in the kubelet).
  const tail = query.get('tail');
  if (tail === 'all') query.delete('tailLines');
  else if (tail !== null && tail !== '') query.set('tailLines', tail);
  const request: ContainerLogsRequest = {
    namespace,
    pod,
    container,
    follow: flag(query, 'follow'),
    previous: flag(query, 'previous'),
    timestamps: flag(query, 'timestamps'),
  };
  const tailLines = integer(query, 'tailLines', 0);
  if (tailLines !== undefined) request.tailLines = tailLines;
  const limitBytes = integer(query, 'limitBytes', 1);
  if (limitBytes !== undefined) request.limitBytes = limitBytes;
  // Both may be given; the later instant wins, as in the kubelet.
  const sinceSeconds = integer(query, 'sinceSeconds', 1);
  if (sinceSeconds !== undefined) request.sinceMs = now - sinceSeconds * 1000;
  const sinceTime = query.get('sinceTime');
  if (sinceTime !== null) {
    const ms = parseLogTime(sinceTime)?.ms;
    if (ms === undefined) throw new ContainerLogsError(`invalid sinceTime ${JSON.stringify(sinceTime)}: want an RFC 3339 time`);
    request.sinceMs = Math.max(request.sinceMs ?? ms, ms);
  }
  return request;
}

export interface ContainerLogsRouteOptions {
  lookup(namespace: string, pod: string, container: string): LogLookup;
  logger: Logger;
  now?: () => number;
}

/** Writes to the response, waiting for 'drain' when the client reads slowly. */
function sinkFor(res: ServerResponse, signal: AbortSignal): (chunk: Buffer) => Promise<void> {
  return (chunk) =>
    new Promise<void>((resolve) => {
      if (signal.aborted || res.write(chunk)) return resolve();
      const done = (): void => {
        res.off('drain', done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      res.on('drain', done);
      signal.addEventListener('abort', done, { once: true });
    });
}

export function handleContainerLogs(options: ContainerLogsRouteOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const fail = (message: string): void => {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(message);
    };
    let request: ContainerLogsRequest;
    try {
      request = parseContainerLogsRequest(req.url ?? '/', (options.now ?? Date.now)());
    } catch (error) {
      if (error instanceof ContainerLogsError) return fail(error.message);
      throw error;
    }
    const { namespace, pod, container } = request;
    const ref = `${namespace}/${pod}`;
    const found = options.lookup(namespace, pod, container);
    if (!found.found) return fail(found.message);
    const path = request.previous ? found.entry.previousLogsFile : found.entry.logsFile;
    if (!path) return fail(`previous terminated container "${container}" in pod "${ref}" not found (${found.from} sets no previousLogsFile)`);

    let file: OpenLogFile;
    try {
      file = await openLogFile(path);
    } catch (error) {
      options.logger.warn(`containerLogs ${ref}/${container}: ${(error as Error).message}`);
      return fail(`failed to open log file "${path}" for container "${container}" in pod "${ref}": ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const abort = new AbortController();
    // The client (kube-apiserver) going away ends a follow; so does the server closing.
    res.on('close', () => abort.abort());
    const read: LogReadOptions = {
      timestamps: request.timestamps,
      follow: request.follow && found.entry.follow,
      ...(request.tailLines !== undefined ? { tailLines: request.tailLines } : {}),
      ...(request.limitBytes !== undefined ? { limitBytes: request.limitBytes } : {}),
      ...(request.sinceMs !== undefined ? { sinceMs: request.sinceMs } : {}),
    };
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' });
    // Send the headers now: a follow on an empty file must still look started to the client.
    res.flushHeaders();
    try {
      await streamLogFile(file, read, sinkFor(res, abort.signal), abort.signal);
    } catch (error) {
      // Headers are sent; all that is left is to end the stream and say why in the log.
      options.logger.warn(`containerLogs ${ref}/${container}: reading ${path}: ${(error as Error).message}`);
    }
    res.end();
  };
}
