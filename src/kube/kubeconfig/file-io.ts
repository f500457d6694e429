/**
 * Reading, locking and atomically replacing a user's kubeconfig. A crash or a concurrent
 * kubectl must never see a half-written file, and two writers must never both win.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { ConflictError, OperationError, PreflightError } from '../../util/errors.js';
import { tempSuffix } from '../../util/temp-name.js';

export type FileState =
  | { existed: false; target: string }
  | { existed: true; target: string; content: string; mode: number; uid: number; gid: number };

/**
 * The file's content and metadata. `target` is where writes must go: through a symlink
 * (dotfile managers link ~/.kube/config) so that rename does not replace the link itself.
 */
export async function readFileState(path: string): Promise<FileState> {
  const target = await resolveSymlink(path);
  try {
    const [content, info] = await Promise.all([readFile(target, 'utf8'), stat(target)]);
    return { existed: true, target, content, mode: info.mode & 0o7777, uid: info.uid, gid: info.gid };
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return { existed: false, target };
    throw fileError(error, path, 'read');
  }
}

async function resolveSymlink(path: string): Promise<string> {
  try {
    if ((await lstat(path)).isSymbolicLink()) return await realpath(path);
  } catch (error) {
    if (!isErrno(error, 'ENOENT')) throw fileError(error, path, 'read');
  }
  return path;
}

export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return false;
    throw fileError(error, path, 'read');
  }
}

/** kubeconfigs hold credentials: at most 0600, or the file's own stricter mode. */
export function secretMode(existingMode: number | undefined): number {
  return existingMode === undefined ? 0o600 : existingMode & 0o600;
}

export interface AtomicWriteOptions {
  mode: number;
  /** Kept when we may (running as root for another user's file); ignored otherwise. */
  owner?: { uid: number; gid: number };
}

/**
 * Writes a sibling temp file, flushes it and renames it over `target`: readers see the old
 * or the new file, never a mix. The temp file is in the same directory so rename stays
 * within one filesystem.
 */
export async function writeFileAtomic(target: string, content: string, options: AtomicWriteOptions): Promise<void> {
  const dir = dirname(target);
  const temp = join(dir, `.${basename(target)}.kwokts-${tempSuffix()}.tmp`);
  try {
    const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, options.mode);
    try {
      await handle.writeFile(content, 'utf8');
      // open()'s mode is filtered by the umask; chmod makes it exact.
      await handle.chmod(options.mode);
      if (options.owner !== undefined && process.getuid?.() === 0) {
        await handle.chown(options.owner.uid, options.owner.gid).catch(() => undefined);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw fileError(error, target, 'write');
  }
  await syncDirectory(dir);
}

/** Makes the rename itself durable; best effort, since some filesystems refuse it. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Durability only; the write has already happened.
  }
}

export async function removeFile(target: string): Promise<void> {
  try {
    await rm(target, { force: true });
  } catch (error) {
    throw fileError(error, target, 'remove');
  }
}

export async function ensureParentDirectory(path: string): Promise<void> {
  try {
    // 0755 like kubectl's `mkdir -p ~/.kube`.
    await mkdir(dirname(path), { recursive: true, mode: 0o755 });
  } catch (error) {
    throw fileError(error, dirname(path), 'create the directory');
  }
}

export interface LockOptions {
  /** How long to wait for another writer, in ms. */
  waitMs?: number;
}

/**
 * Runs `fn` while holding `<path>.lock`. proper-lockfile makes it a directory with mkdir,
 * which is atomic; kubectl's own lock for the same file is `<path>.lock` created with
 * O_EXCL, so kwokts and kubectl exclude each other too. The parent directory must exist.
 */
export interface HeldLock {
  /** Throws if the lock was lost (taken over as stale); call right before writing. */
  assertHeld(): void;
}

export async function withFileLock<T>(path: string, fn: (lock: HeldLock) => Promise<T>, options: LockOptions = {}): Promise<T> {
  const waitMs = options.waitMs ?? 20_000;
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(path, {
      realpath: false,
      stale: 10_000,
      update: 2_000,
      retries: { retries: Math.max(1, Math.ceil(waitMs / 100)), factor: 1, minTimeout: 50, maxTimeout: 150, randomize: true },
      // The default throws from a timer and would crash the process; fail this edit instead.
      onCompromised: (error) => {
        compromised = error;
      },
    });
  } catch (error) {
    if (isErrno(error, 'ELOCKED')) {
      throw new ConflictError(`another process is editing ${path}`, {
        cause: error,
        hint: `retry; if no kubectl or kwokts is running, remove ${path}.lock`,
      });
    }
    throw fileError(error, path, 'lock');
  }
  const lock: HeldLock = {
    assertHeld() {
      if (compromised === undefined) return;
      throw new OperationError(`lost the lock on ${path} while editing it`, { cause: compromised, hint: 'check the file, then retry' });
    },
  };
  try {
    return await fn(lock);
  } finally {
    await release().catch(() => undefined);
  }
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

function fileError(error: unknown, path: string, verb: string): Error {
  if (isErrno(error, 'EACCES') || isErrno(error, 'EPERM') || isErrno(error, 'EROFS')) {
    return new PreflightError(`cannot ${verb} ${path}: permission denied`, {
      cause: error,
      hint: 'pass --kubeconfig with a writable path, or fix the permissions',
    });
  }
  if (isErrno(error, 'EISDIR')) return new PreflightError(`cannot ${verb} ${path}: it is a directory`, { cause: error });
  return new OperationError(`cannot ${verb} ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}
