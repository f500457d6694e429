import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ConflictError, PreflightError } from '../util/errors.js';
import { processStartTime } from '../exec/process.js';
import { clustersDir } from '../naming/naming.js';
import { freeSpaceHint, isDiskFull } from '../util/disk-full.js';
import { ensureDirectory } from '../util/ensure-dir.js';
import { tempSuffix } from '../util/temp-name.js';

/** Who holds a cluster lock: enough to tell a live holder from a dead one without guessing by age. */
export interface LockHolder {
  pid: number;
  /** The holder's start time (/proc/<pid>/stat field 22) so a reused pid is not mistaken for it. */
  start: string;
  host: string;
}

/**
 * One mutating verb per cluster at a time. The lock is a file beside (not inside) the cluster
 * directory, so it can be taken before the directory exists and survives its removal. It names
 * its holder (pid, start time, host): a lock whose holder is gone (killed with SIGKILL, say) is
 * taken over at once, and a live holder's lock is never taken, however long it has been held.
 */
export async function lockCluster(workdir: string, name: string): Promise<() => Promise<void>> {
  const dir = clustersDir(workdir);
  await ensureDirectory(dir, 'the clusters directory', 'set KWOK_WORKDIR to a writable directory');
  // Not `.<name>.lock`: older versions kept a proper-lockfile directory there.
  const path = join(dir, `.${name}.pidlock`);
  const me: LockHolder = { pid: process.pid, start: (await processStartTime(process.pid)) ?? '', host: hostname() };
  const held = await acquire(path, me);
  if (!held) {
    const holder = await readHolder(path);
    throw new ConflictError(`cluster ${name} is being changed by another kwokts process${holder ? ` (pid ${holder.pid})` : ''}`, {
      hint: 'wait for it to finish and try again',
    });
  }
  return async () => {
    // Only remove the lock if it is still ours.
    const holder = await readHolder(path);
    if (holder && sameHolder(holder, me)) await unlink(path).catch(() => undefined);
  };
}

/** Take the lock, or take over a dead holder's; false when a live process holds it. */
export async function acquire(path: string, me: LockHolder, isLive: (h: LockHolder) => Promise<boolean> = holderIsLive): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await createExclusive(path, me)) return true;
    const holder = await readHolder(path);
    if (holder === undefined) continue; // removed between our attempt and the read: try again
    if (await isLive(holder)) return false;
    // Dead holder: move its lock aside atomically, so two processes taking over cannot both win.
    const tomb = `${path}.stale-${tempSuffix()}`;
    try {
      await rename(path, tomb);
    } catch {
      continue; // someone else moved it first
    }
    const moved = await readHolder(tomb);
    if (moved && !sameHolder(moved, holder) && (await isLive(moved))) {
      // Another process took the lock over between our read and our rename: give it back.
      await link(tomb, path).catch(() => undefined);
      await unlink(tomb).catch(() => undefined);
      return false;
    }
    await unlink(tomb).catch(() => undefined);
  }
  return false;
}

/** The lock file appears complete or not at all: written aside, then hard-linked into place. */
async function createExclusive(path: string, me: LockHolder): Promise<boolean> {
  const temp = `${path}.${tempSuffix()}.tmp`;
  try {
    await writeFile(temp, JSON.stringify(me) + '\n', { mode: 0o600 });
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw workdirError(error, path);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

async function readHolder(path: string): Promise<LockHolder | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid === 'number') return { pid: value.pid, start: String(value.start ?? ''), host: String(value.host ?? '') };
  } catch {
    /* fall through */
  }
  // Unreadable content (an old or damaged lock): nobody can be shown to hold it.
  return { pid: 0, start: '', host: hostname() };
}

function sameHolder(a: LockHolder, b: LockHolder): boolean {
  return a.pid === b.pid && a.start === b.start && a.host === b.host;
}

/** Live = same host, the pid exists and it started when the holder did. Another host's lock counts as live. */
export async function holderIsLive(holder: LockHolder): Promise<boolean> {
  if (holder.host !== hostname()) return true;
  if (holder.pid <= 0) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const start = await processStartTime(holder.pid);
  // Without /proc (macOS) the pid alone decides.
  return start === undefined || holder.start === '' || start === holder.start;
}

function workdirError(error: unknown, path: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'ENOTDIR' || code === 'EEXIST' || isDiskFull(code)) {
    return new PreflightError(`cannot write the kwokts workdir (${path}): ${(error as Error).message.replace(/^[A-Z]+: /, '')}`, {
      hint: isDiskFull(code) ? freeSpaceHint(path) : 'set KWOK_WORKDIR to a writable directory',
      cause: error,
    });
  }
  return error;
}
