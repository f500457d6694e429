import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { freeSpaceHint, isDiskFull } from './disk-full.js';
import { PreflightError } from './errors.js';

/**
 * mkdir -p that says why it failed. Node's recursive mkdir reports ENOENT for a read-only file
 * system or a missing permission higher up; the real reason comes from creating the first
 * missing directory below the deepest one that exists.
 */
export async function ensureDirectory(dir: string, what: string, hint: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    if (!(await stat(dir)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    return;
  } catch (error) {
    const real = (error as NodeJS.ErrnoException).code === 'ENOENT' ? ((await firstMissingError(dir)) ?? error) : error;
    const code = (real as NodeJS.ErrnoException).code ?? '';
    const reason = REASONS[code] ?? (real as Error).message;
    throw new PreflightError(`cannot create ${what} ${dir}: ${reason}${code ? ` (${code})` : ''}`, { hint: isDiskFull(code) ? freeSpaceHint(dir) : hint, cause: real });
  }
}

const REASONS: Record<string, string> = {
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a file is in the way (not a directory)',
  EEXIST: 'a file is in the way',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
};

async function firstMissingError(dir: string): Promise<unknown> {
  let child = dir;
  let parent = dirname(dir);
  while (parent !== child) {
    try {
      await stat(parent);
      break;
    } catch {
      child = parent;
      parent = dirname(parent);
    }
  }
  try {
    await mkdir(child, { mode: 0o700 });
    return undefined;
  } catch (error) {
    return error;
  }
}
