/**
 * Reads a fake container's log file the way the kubelet reads a real one for `kubectl logs`.
 *
 * The file's format is decided by its first line, as kwok and the kubelet do: the CRI format
 * (`<RFC3339Nano> stdout|stderr F|P <text>`), Docker's JSON lines (`{"log":…,"stream":…,"time":…}`)
 * or, where kwok would refuse the file, plain text, which is returned as it is. Records of both
 * streams go to the one response, as the kubelet's containerLogs endpoint sends them.
 *
 * Options (the kubelet's): tailLines counts lines of the file; limitBytes counts bytes sent,
 * timestamp prefixes included, and may cut a line; sinceSeconds/sinceTime drop older records and
 * timestamps prefixes each line with its time. Plain text has no per-line time, so for it
 * sinceSeconds, sinceTime and timestamps are ignored.
 */
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

export interface LogReadOptions {
  /** Only the last N lines of the file; undefined: all of it. */
  tailLines?: number;
  /** Stop after this many bytes; undefined: no limit. */
  limitBytes?: number;
  /** Leave out records older than this (epoch ms); timestamped formats only. */
  sinceMs?: number;
  /** Prefix each line with its RFC 3339 time; timestamped formats only. */
  timestamps: boolean;
  /** After the end of the file, keep sending what is appended until the signal aborts. */
  follow: boolean;
}

export type LogFormat = 'cri' | 'json' | 'plain';

export interface LogRecord {
  /** The kubelet's fixed-width RFC 3339 rendering (nine fraction digits) and the instant in ms. */
  time?: { text: string; ms: number };
  /** The text as the container wrote it; ends with a newline unless it is a partial line. */
  content: Buffer;
}

const TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** RFC 3339 with up to nine fraction digits, as Go's time.RFC3339Nano parses it. */
export function parseLogTime(text: string): { text: string; ms: number } | undefined {
  const match = TIME.exec(text);
  if (!match) return undefined;
  const [, base = '', fraction = '', zone = ''] = match;
  const ms = Date.parse(`${base}.${fraction.slice(0, 3).padEnd(3, '0')}${zone}`);
  if (Number.isNaN(ms)) return undefined;
  return { text: `${base}.${fraction.padEnd(9, '0')}${zone}`, ms };
}

function parseCri(line: Buffer): LogRecord | undefined {
  const text = line.toString('utf8');
  const first = text.indexOf(' ');
  const second = first < 0 ? -1 : text.indexOf(' ', first + 1);
  const third = second < 0 ? -1 : text.indexOf(' ', second + 1);
  if (third < 0) return undefined;
  const time = parseLogTime(text.slice(0, first));
  const stream = text.slice(first + 1, second);
  if (!time || (stream !== 'stdout' && stream !== 'stderr')) return undefined;
  // Tags are "F" (full) or "P" (partial), possibly followed by ":more"; a partial record's
  // newline is the file's, not the container's.
  const partial = text.slice(second + 1, third).split(':')[0] === 'P';
  const content = Buffer.from(text.slice(third + 1), 'utf8');
  return { time, content: partial && content.at(-1) === 0x0a ? content.subarray(0, -1) : content };
}

function parseJson(line: Buffer): LogRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { log, time } = value as { log?: unknown; time?: unknown };
  const parsedTime = typeof time === 'string' ? parseLogTime(time) : undefined;
  if (typeof log !== 'string' || !parsedTime) return undefined;
  return { time: parsedTime, content: Buffer.from(log, 'utf8') };
}

/** The format of a file, from its first line. */
export function detectLogFormat(firstLine: Buffer): LogFormat {
  if (parseCri(firstLine)) return 'cri';
  if (parseJson(firstLine)) return 'json';
  return 'plain';
}

/** One line of the file (newline included) as a record; undefined for a line that does not parse. */
export function parseLogLine(line: Buffer, format: LogFormat): LogRecord | undefined {
  switch (format) {
    case 'cri':
      return parseCri(line);
    case 'json':
      return parseJson(line);
    case 'plain':
      return { content: line };
  }
}

/**
 * Renders records under the request's options: drops those before `since`, adds timestamp
 * prefixes at line starts, and cuts the output at `limitBytes`.
 */
export class LogRenderer {
  private remaining: number;
  private atLineStart = true;

  constructor(private readonly options: Pick<LogReadOptions, 'limitBytes' | 'sinceMs' | 'timestamps'>) {
    this.remaining = options.limitBytes ?? Number.POSITIVE_INFINITY;
  }

  /** True once limitBytes has been sent. */
  get exhausted(): boolean {
    return this.remaining <= 0;
  }

  render(record: LogRecord): Buffer | undefined {
    if (this.exhausted) return undefined;
    const { time, content } = record;
    if (time && this.options.sinceMs !== undefined && time.ms < this.options.sinceMs) return undefined;
    let out = content;
    if (time && this.options.timestamps && this.atLineStart) out = Buffer.concat([Buffer.from(`${time.text} `), content]);
    if (content.length > 0) this.atLineStart = content.at(-1) === 0x0a;
    if (out.length > this.remaining) out = out.subarray(0, this.remaining);
    this.remaining -= out.length;
    return out.length > 0 ? out : undefined;
  }
}

const BLOCK = 64 * 1024;

/**
 * Where the last `lines` lines of the file start. A final line without a newline counts as a
 * line; the newline ending the file does not start another.
 */
export async function findTailStart(handle: Pick<FileHandle, 'read'>, size: number, lines: number): Promise<number> {
  if (lines <= 0) return size;
  let newlines = 0;
  let end = size;
  // The file's last byte ends the last line when it is a newline; skip it.
  let skipLast = true;
  const buffer = Buffer.alloc(BLOCK);
  while (end > 0) {
    const start = Math.max(0, end - BLOCK);
    const { bytesRead } = await handle.read(buffer, 0, end - start, start);
    for (let i = bytesRead - 1; i >= 0; i--) {
      if (buffer[i] !== 0x0a) {
        skipLast = false;
        continue;
      }
      if (skipLast) {
        skipLast = false;
        continue;
      }
      if (++newlines === lines) return start + i + 1;
    }
    end = start;
  }
  return 0;
}

/** An opened log file; opening first lets the caller answer "not found" before any output. */
export interface OpenLogFile {
  path: string;
  handle: FileHandle;
  ino: number;
  size: number;
}

export async function openLogFile(path: string): Promise<OpenLogFile> {
  const handle = await open(path, 'r');
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error(`${path} is not a file`);
    return { path, handle, ino: info.ino, size: info.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Where rendered output goes; resolves when the receiver can take more. */
export type LogSink = (chunk: Buffer) => Promise<void>;

const FOLLOW_POLL_MS = 250;

/**
 * Sends the file's records to `sink` under `options`, then, when following, what is appended,
 * also across truncation and replacement (log rotation), until `signal` aborts. Closes the file.
 */
export async function streamLogFile(file: OpenLogFile, options: LogReadOptions, sink: LogSink, signal: AbortSignal): Promise<void> {
  const renderer = new LogRenderer(options);
  let format: LogFormat | undefined;
  let handle = file.handle;
  let ino = file.ino;
  let position = options.tailLines === undefined ? 0 : await findTailStart(handle, file.size, options.tailLines);
  let pending = Buffer.alloc(0);
  const buffer = Buffer.alloc(BLOCK);
  let watcher: FSWatcher | undefined;

  const emit = async (line: Buffer): Promise<void> => {
    format ??= detectLogFormat(line);
    const record = parseLogLine(line, format);
    const chunk = record && renderer.render(record);
    if (chunk) await sink(chunk);
  };
  /** Reads from `position` up to `until` (or the end), emitting complete lines. */
  const drain = async (until: number): Promise<void> => {
    while (position < until && !renderer.exhausted && !signal.aborted) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(BLOCK, until - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      let data = Buffer.concat([pending, buffer.subarray(0, bytesRead)]);
      let newline = data.indexOf(0x0a);
      while (newline >= 0 && !renderer.exhausted) {
        await emit(data.subarray(0, newline + 1));
        data = data.subarray(newline + 1);
        newline = data.indexOf(0x0a);
      }
      pending = Buffer.from(data);
    }
  };

  try {
    if (!options.follow) {
      // What the file holds now; a last line without a newline is still a line.
      await drain(file.size);
      if (pending.length > 0 && !renderer.exhausted) await emit(pending);
      return;
    }
    let wake: (() => void) | undefined;
    try {
      watcher = watch(file.path, { persistent: false }, () => wake?.());
      watcher.on('error', () => undefined);
    } catch {
      // Polling alone still works (e.g. on file systems without inotify).
    }
    const onAbort = (): void => wake?.();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      while (!signal.aborted && !renderer.exhausted) {
        const { size } = await handle.stat();
        if (size < position) {
          // Truncated in place: start again from its beginning.
          position = 0;
          pending = Buffer.alloc(0);
        }
        await drain(size);
        const current = await stat(file.path).catch(() => undefined);
        if (current && current.ino !== ino) {
          // Replaced (rotated): finish the old file, then read the new one from its start.
          await drain((await handle.stat()).size);
          await handle.close();
          handle = await open(file.path, 'r');
          ino = current.ino;
          position = 0;
          pending = Buffer.alloc(0);
          continue;
        }
        if (renderer.exhausted || signal.aborted) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, FOLLOW_POLL_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  } finally {
    watcher?.close();
    await handle.close().catch(() => undefined);
  }
}
