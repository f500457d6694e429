/**
 * A full disk (ENOSPC) or an exhausted quota (EDQUOT) is fixed by freeing space where the file
 * is, not by another KWOK_WORKDIR: a cluster lives in its workdir, so `start` or `delete` pointed
 * elsewhere would not find it.
 */
import { existsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';

export function isDiskFull(code: unknown): boolean {
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** Whether a program's words (a log line, an error) say that a disk is full, as Go and C programs put it. */
export function saysDiskFull(text: string | undefined): boolean {
  return text !== undefined && /no space left on device|disk quota exceeded|\bENOSPC\b|\bEDQUOT\b/i.test(text);
}

/** `path`, or the nearest directory above it that exists (what `df` and statfs can be asked about). */
function nearestExisting(path: string): string {
  let dir = path;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * Less free space than this is worth naming when a component has died: etcd preallocates its
 * write-ahead log in segments of 64 MiB, the largest single allocation a component makes.
 */
export const LOW_SPACE_BYTES = 64 * 1024 * 1024;

/** Bytes an unprivileged writer may still use on the file system that holds `path`; undefined when it cannot be told. */
export async function freeBytes(path: string): Promise<number | undefined> {
  try {
    const fs = await statfs(nearestExisting(path));
    return fs.bavail * fs.bsize;
  } catch {
    return undefined;
  }
}

/** "is full", or "has only 12 KiB free": the words for a file system with `bytes` free. */
export function describeFreeSpace(bytes: number): string {
  if (bytes <= 0) return 'is full';
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `has only ${Math.floor(value)} ${units[unit]} free`;
}

/** The hint for a full disk at `path`: its nearest existing directory, as `df` takes it; `then`, what to do after. */
export function freeSpaceHint(path: string, then = 'try again'): string {
  const dir = nearestExisting(path);
  const shown = /^[\w@%+=:,./-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, `'\\''`)}'`;
  return `free space on the file system that holds ${dir} (see \`df -h ${shown}\`), then ${then}`;
}
