/**
 * Following a log file as `tail -f` does: print what is there, then what is appended, starting
 * over if the file is truncated or replaced (a restarted component).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { NotFoundError } from './errors.js';

async function sizeOf(path: string): Promise<{ size: number; ino: number } | undefined> {
  try {
    const s = await stat(path);
    return { size: s.size, ino: s.ino };
  } catch {
    return undefined;
  }
}

async function copyRange(path: string, start: number, end: number, out: Writable): Promise<void> {
  if (end <= start) return;
  await new Promise<void>((resolve, reject) => {
    const stream = createReadStream(path, { start, end: end - 1 });
    stream.on('error', reject);
    stream.on('end', () => resolve());
    stream.pipe(out, { end: false });
  });
}

/** Print the whole log; with follow, keep printing until the signal aborts. */
export async function printLog(path: string, out: Writable, options: { follow: boolean; signal?: AbortSignal; pollMs?: number }): Promise<void> {
  let current = await sizeOf(path);
  if (!current && !options.follow) throw new NotFoundError(`log ${path} does not exist yet`, { hint: 'the component has not been started' });
  let offset = 0;
  if (current) {
    await copyRange(path, 0, current.size, out);
    offset = current.size;
  }
  const signal = options.signal;
  while (options.follow && signal && !signal.aborted) {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, options.pollMs ?? 250);
      signal.addEventListener('abort', () => (clearTimeout(timer), resolve(undefined)), { once: true });
    });
    const next = await sizeOf(path);
    if (!next) continue;
    if (!current || next.ino !== current.ino || next.size < offset) offset = 0;
    await copyRange(path, offset, next.size, out);
    offset = next.size;
    current = next;
  }
}
