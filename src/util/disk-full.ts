/**
 * A full disk (ENOSPC) or an exhausted quota (EDQUOT) is fixed by freeing space where the file
 * is, not by another KWOK_WORKDIR: a cluster lives in its workdir, so `start` or `delete` pointed
 * elsewhere would not find it.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';

export function isDiskFull(code: unknown): boolean {
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** Whether a program's words (a log line, an error) say that a disk is full, as Go and C programs put it. */
export function saysDiskFull(text: string | undefined): boolean {
  return text !== undefined && /no space left on device|disk quota exceeded|\bENOSPC\b|\bEDQUOT\b/i.test(text);
}

/** The hint for a full disk at `path`: its nearest existing directory, as `df` takes it. */
export function freeSpaceHint(path: string): string {
  let dir = path;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  const shown = /^[\w@%+=:,./-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, `'\\''`)}'`;
  return `free space on the file system that holds ${dir} (see \`df -h ${shown}\`), then try again`;
}
