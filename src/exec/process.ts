import { readFile } from 'node:fs/promises';

/**
 * Liveness of a pid we started. A zombie (state Z: exited, never reaped because PID 1 here does
 * not reap orphans) is dead; a pid reused by an unrelated program is not ours.
 */
export async function isProcessAlive(pid: number, expectedCommand?: string): Promise<boolean> {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Field 3, after the parenthesised command name (which may itself contain spaces or parens).
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    if (state === 'Z' || state === 'X') return false;
    if (expectedCommand) {
      const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
      if (!cmdline.includes(expectedCommand)) return false;
    }
    return true;
  } catch {
    // No /proc (macOS): the signal-0 check above is all we have.
    return process.platform !== 'linux';
  }
}

export async function readPid(pidFile: string): Promise<number | undefined> {
  try {
    const n = Number((await readFile(pidFile, 'utf8')).trim());
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** TERM, then KILL after the grace period; resolves once the process is gone (or a zombie). */
export async function terminate(pid: number, graceMs: number, expectedCommand?: string): Promise<void> {
  const signalGroup = (sig: NodeJS.Signals): void => {
    // Components are started as group leaders (detached), so the group takes helpers down too.
    try {
      process.kill(-pid, sig);
    } catch {
      try {
        process.kill(pid, sig);
      } catch {
        /* already gone */
      }
    }
  };
  if (!(await isProcessAlive(pid, expectedCommand))) return;
  if (graceMs > 0) {
    signalGroup('SIGTERM');
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline) {
      if (!(await isProcessAlive(pid))) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  signalGroup('SIGKILL');
  const killDeadline = Date.now() + 5000;
  while (Date.now() < killDeadline) {
    if (!(await isProcessAlive(pid))) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
