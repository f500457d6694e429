import { readdirSync, readFileSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';

/** The environment variable that marks a process as one of a cluster's components. */
export const OWNER_ENV = 'KWOKTS_OWNER';

/**
 * Liveness of a pid we started. A zombie (state Z: exited, never reaped because PID 1 here does
 * not reap orphans) is dead once its last thread has exited; a pid reused by an unrelated program
 * is not ours.
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
    if (!statSaysRunning(stat)) return false;
    if (expectedCommand) {
      const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
      if (!cmdline.includes(expectedCommand) && !(await isScript(expectedCommand))) return false;
    }
    return true;
  } catch {
    // No /proc (macOS): the signal-0 check above is all we have.
    return process.platform !== 'linux';
  }
}

/**
 * Whether a /proc/<pid>/stat line is of a process that still runs. A killed process's main thread
 * turns zombie while its other threads are still exiting and still hold its files, listening
 * sockets included: it is gone once only that thread is left (fields 3, the state, and 20, the
 * threads, counted after the parenthesised command name, which may itself hold spaces or parens).
 */
export function statSaysRunning(stat: string): boolean {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  if (state === 'Z' || state === 'X') return Number(fields[17]) > 1;
  return true;
}

/**
 * A `#!` script that ends in `exec` (kwok's own e2e passes one as --kwok-controller-binary:
 * `exec node run.js kwok "$@"`) leaves its path nowhere in the cmdline of the process it became,
 * so for a script the command cannot tell a reused pid from ours; the pid alone has to do.
 */
async function isScript(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer.toString('latin1') === '#!';
  } catch {
    return false;
  } finally {
    await handle?.close();
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
  // A killed process is gone within milliseconds: look again soon, then less often.
  const killDeadline = Date.now() + 5000;
  for (let wait = 5; Date.now() < killDeadline; wait = Math.min(wait * 2, 50)) {
    if (!(await isProcessAlive(pid))) return;
    await new Promise((r) => setTimeout(r, wait));
  }
}

/** A process's start time in clock ticks since boot (/proc/<pid>/stat field 22); undefined without /proc. */
export async function processStartTime(pid: number): Promise<string | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name start at field 3; starttime is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * Every live process (of this user) whose environment has name=value. Linux only (/proc);
 * elsewhere the pid files are all there is. Reading every process's environment is the costly
 * part, so callers asking at the same time (a delete stopping every component at once) share
 * one pass over /proc.
 */
export async function findProcessesByEnv(name: string, value: string): Promise<number[]> {
  const found = (await environScan(name)).get(value) ?? [];
  const live = await Promise.all(found.map(async (pid) => ((await isProcessAlive(pid)) ? pid : undefined)));
  return live.filter((p): p is number => p !== undefined).sort((a, b) => a - b);
}

/** Every live process whose variable `name` starts with `prefix` (see findProcessesByEnv). */
export async function findProcessesByEnvPrefix(name: string, prefix: string): Promise<number[]> {
  const found = [...(await environScan(name)).entries()].filter(([value]) => value.startsWith(prefix)).flatMap(([, pids]) => pids);
  const live = await Promise.all(found.map(async (pid) => ((await isProcessAlive(pid)) ? pid : undefined)));
  return live.filter((p): p is number => p !== undefined).sort((a, b) => a - b);
}

const scans = new Map<string, Promise<Map<string, number[]>>>();

/** Pids by the value of the variable `name`, from one pass over /proc, shared while it runs. */
function environScan(name: string): Promise<Map<string, number[]>> {
  let scan = scans.get(name);
  if (!scan) {
    scan = scanEnviron(name).finally(() => scans.delete(name));
    scans.set(name, scan);
  }
  return scan;
}

async function scanEnviron(name: string): Promise<Map<string, number[]>> {
  const byValue = new Map<string, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return byValue;
  }
  const prefix = `${name}=`;
  // Synchronous on purpose: a hundred small /proc reads take about a millisecond in a row, and
  // several times that as promises queued on libuv's four threads (a delete waits on this).
  for (const e of entries) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${e}/environ`, 'utf8');
    } catch {
      continue; // gone, or another user's
    }
    const entry = environ.split('\0').find((v) => v.startsWith(prefix));
    if (entry === undefined) continue;
    const value = entry.slice(prefix.length);
    byValue.set(value, [...(byValue.get(value) ?? []), Number(e)]);
  }
  return byValue;
}

/**
 * Why `path` cannot run as a program here, or undefined when it looks runnable: it must be an
 * executable file that starts like a program (ELF, Mach-O or a #! script). Anything else would
 * be handed to /bin/sh by execvp and fail with a shell syntax error in the component's log.
 */
/** "<path> does not exist", "<path> is not executable (chmod +x it)": a reason of unrunnableReason said of a path. */
export function unrunnable(path: string, reason: string): string {
  return reason === 'does not exist' ? `${path} ${reason}` : `${path} is ${reason}`;
}

export async function unrunnableReason(path: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, 'r');
    const info = await handle.stat();
    if (!info.isFile()) return 'not a regular file';
    if ((info.mode & 0o111) === 0) return 'not executable (chmod +x it)';
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4), 0, 4, 0);
    const head = buffer.subarray(0, bytesRead);
    const magic = head.readUInt32BE(0);
    const isElf = head.length === 4 && head.toString('latin1') === '\x7fELF';
    const isMachO = head.length === 4 && [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe].includes(magic);
    const isScript = head.subarray(0, 2).toString('latin1') === '#!';
    return isElf || isMachO || isScript ? undefined : 'not a program (no ELF, Mach-O or #! header)';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'does not exist';
    if (code === 'EACCES') return 'not readable';
    if (code === 'ERR_OUT_OF_RANGE' || error instanceof RangeError) return 'not a program (too short)';
    return (error as Error).message;
  } finally {
    await handle?.close();
  }
}
