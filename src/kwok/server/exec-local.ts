/**
 * Runs a `kubectl exec` command on the controller's host, as kwok's `local` exec target does: the
 * command itself (no shell), with the target's environment added to the controller's, its working
 * directory and its runAsUser/runAsGroup. Without a TTY the channels are pipes; with one the command
 * gets a pseudo-terminal (from @lydell/node-pty, an optional dependency) that follows the client's
 * resize events, and its output goes to stdout alone.
 *
 * The outcome is the kubelet's: exit 0 is success, another exit code is reported as such (kubectl
 * exits with it), and a command that cannot start or dies of a signal is an error.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { SpawnOptions } from 'node:child_process';
import type { ExecLocal } from '../api/streaming-schema.js';
import type { CommandOutcome, RemoteCommandStreams, TerminalSize } from './remote-command.js';

/** The process options a target asks for. */
export function processOptions(target: ExecLocal, env: NodeJS.ProcessEnv = process.env): { cwd?: string; env: NodeJS.ProcessEnv; uid?: number; gid?: number } {
  const options: { cwd?: string; env: NodeJS.ProcessEnv; uid?: number; gid?: number } = { env: { ...env } };
  for (const { name, value } of target.envs) options.env[name] = value;
  if (target.workDir) options.cwd = target.workDir;
  if (target.securityContext?.runAsUser !== undefined) options.uid = target.securityContext.runAsUser;
  if (target.securityContext?.runAsGroup !== undefined) options.gid = target.securityContext.runAsGroup;
  return options;
}

/** A command as kwok's errors print it: the name, a space, the arguments (a bare name keeps the space). */
export function commandLine(command: readonly string[]): string {
  return `${command[0] ?? ''} ${command.slice(1).join(' ')}`;
}

/** Go's wording for a command that cannot start, which is what kwok users see. */
export function startFailure(command: readonly string[], error: NodeJS.ErrnoException): string {
  const name = command[0] ?? '';
  const argv = commandLine(command);
  if (error.code === 'ENOENT') {
    return name.includes('/') ? `cmd start: ${argv}: fork/exec ${name}: no such file or directory` : `cmd start: ${argv}: exec: "${name}": executable file not found in $PATH`;
  }
  if (error.code === 'EACCES') return `cmd start: ${argv}: fork/exec ${name}: permission denied`;
  return `cmd start: ${argv}: ${error.message}`;
}

export async function runLocalCommand(target: ExecLocal, command: readonly string[], streams: RemoteCommandStreams): Promise<CommandOutcome> {
  if (command.length === 0) return { kind: 'error', message: 'no command given' };
  return streams.tty ? runWithTty(target, command, streams) : runWithPipes(target, command, streams);
}

function runWithPipes(target: ExecLocal, command: readonly string[], streams: RemoteCommandStreams): Promise<CommandOutcome> {
  const [file = '', ...args] = command;
  const spawnOptions: SpawnOptions = {
    ...processOptions(target),
    stdio: [streams.stdin ? 'pipe' : 'ignore', streams.stdout ? 'pipe' : 'ignore', streams.stderr ? 'pipe' : 'ignore'],
  };
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: CommandOutcome): void => {
      if (settled) return;
      settled = true;
      streams.signal.removeEventListener('abort', kill);
      resolve(outcome);
    };
    const child = spawn(file, args, spawnOptions);
    const kill = (): void => {
      child.kill('SIGKILL');
    };
    streams.signal.addEventListener('abort', kill, { once: true });
    child.once('error', (error: NodeJS.ErrnoException) => settle({ kind: 'error', message: startFailure(command, error) }));
    if (streams.stdin && child.stdin) {
      // The command may exit without reading all of stdin; that is not an error of the session.
      child.stdin.on('error', () => undefined);
      streams.stdin.pipe(child.stdin);
    }
    if (streams.stdout && child.stdout) child.stdout.pipe(streams.stdout, { end: false });
    if (streams.stderr && child.stderr) child.stderr.pipe(streams.stderr, { end: false });
    // 'close' comes after stdout and stderr have ended, so their data is already passed on.
    child.once('close', (code, signal) => {
      if (streams.stdin && child.stdin) streams.stdin.unpipe(child.stdin);
      if (code === 0) settle({ kind: 'success' });
      else if (code !== null) settle({ kind: 'exit', code });
      else settle({ kind: 'error', message: `cmd wait: ${commandLine(command)}: signal: ${signal ?? 'unknown'}` });
    });
  });
}

/** Why `name` cannot be run as execvp would look it up, or nothing when it can. */
export function findExecutable(name: string, path: string, cwd: string): NodeJS.ErrnoException | undefined {
  const runnable = (candidate: string): boolean => {
    try {
      accessSync(candidate, constants.X_OK);
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  };
  const fail = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: ${name}`), { code });
  if (name.includes('/')) {
    const full = isAbsolute(name) ? name : resolve(cwd, name);
    return runnable(full) ? undefined : fail('ENOENT');
  }
  for (const dir of path.split(delimiter)) if (dir !== '' && runnable(join(resolve(cwd, dir), name))) return undefined;
  return fail('ENOENT');
}

/** node-pty's surface as used here. */
interface Pty {
  onData(listener: (data: string) => void): { dispose(): void };
  onExit(listener: (event: { exitCode: number; signal?: number }) => void): { dispose(): void };
  write(data: string): void;
  resize(cols: number, rows: number): void;
  kill(signal?: string): void;
}
interface PtyModule {
  spawn(file: string, args: string[], options: { name?: string; cols?: number; rows?: number; cwd?: string; env?: NodeJS.ProcessEnv; uid?: number; gid?: number; encoding?: string | null }): Pty;
}

let ptyModule: Promise<PtyModule> | undefined;

function loadPty(): Promise<PtyModule> {
  ptyModule ??= import('@lydell/node-pty').then((m) => m as unknown as PtyModule);
  return ptyModule;
}

/**
 * How long a TTY session waits for the client's first terminal size before starting the command.
 * kubectl sends its window size as soon as the session opens, but that message travels on its own
 * stream and can come after the command would have started: a script that reads `stty size` at
 * once then saw 24x80 on a loaded machine. A client that opens the resize stream and never writes
 * to it (client-go without a size queue) only delays its command by this much.
 */
export const FIRST_SIZE_WAIT_MS = 2_000;

/**
 * The first usable size from `sizes` (zero sizes are skipped, as the kubelet ignores them), or none
 * if the stream ends, the session is aborted, or FIRST_SIZE_WAIT_MS pass; `rest` is the pending read
 * to go on from, so no size is lost when the wait gives up.
 */
export async function firstTerminalSize(
  sizes: AsyncIterator<TerminalSize>,
  signal: AbortSignal,
  waitMs = FIRST_SIZE_WAIT_MS,
): Promise<{ size: TerminalSize | undefined; rest: Promise<IteratorResult<TerminalSize>> | undefined }> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const giveUp = new Promise<'give-up'>((resolve) => {
    timer = setTimeout(() => resolve('give-up'), waitMs);
    onAbort = () => resolve('give-up');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    for (;;) {
      const pending = sizes.next();
      const result = await Promise.race([pending, giveUp]);
      if (result === 'give-up') return { size: undefined, rest: pending };
      if (result.done === true) return { size: undefined, rest: undefined };
      if (usable(result.value)) return { size: result.value, rest: sizes.next() };
    }
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

function usable(size: TerminalSize): boolean {
  return size.width > 0 && size.height > 0;
}

async function runWithTty(target: ExecLocal, command: readonly string[], streams: RemoteCommandStreams): Promise<CommandOutcome> {
  let pty: PtyModule;
  try {
    pty = await loadPty();
  } catch (error) {
    ptyModule = undefined;
    return { kind: 'error', message: `a TTY is not available on this controller (@lydell/node-pty cannot be loaded: ${(error as Error).message}); run exec without -t` };
  }
  const [file = '', ...args] = command;
  const { cwd, env, uid, gid } = processOptions(target);
  // In a terminal a missing program would only show as execvp's text and exit 1; say it as exec without -t does.
  const missing = findExecutable(file, env.PATH ?? '', cwd ?? process.cwd());
  if (missing) return { kind: 'error', message: startFailure(command, missing) };
  const sizes = streams.resize?.[Symbol.asyncIterator]();
  const first = sizes ? await firstTerminalSize(sizes, streams.signal) : { size: undefined, rest: undefined };
  if (streams.signal.aborted) {
    first.rest?.catch(() => undefined);
    return { kind: 'error', message: 'the client went away before the command started' };
  }
  let term: Pty;
  try {
    term = pty.spawn(file, args, {
      name: 'xterm',
      cols: first.size?.width ?? 80,
      rows: first.size?.height ?? 24,
      env,
      ...(cwd ? { cwd } : {}),
      ...(uid !== undefined ? { uid } : {}),
      ...(gid !== undefined ? { gid } : {}),
    });
  } catch (error) {
    return { kind: 'error', message: startFailure(command, error as NodeJS.ErrnoException) };
  }
  // Follows the client's window until the resize stream ends (with the session).
  void (async () => {
    if (!sizes || !first.rest) return;
    for (let next = await first.rest; next.done !== true; next = await sizes.next()) {
      if (!usable(next.value)) continue;
      try {
        term.resize(next.value.width, next.value.height);
      } catch {
        // The terminal may be gone already.
      }
    }
  })().catch(() => undefined);
  const onInput = (chunk: Buffer): void => term.write(chunk.toString('utf8'));
  streams.stdin?.on('data', onInput);
  const output = term.onData((data) => streams.stdout?.write(data));
  const kill = (): void => term.kill('SIGKILL');
  streams.signal.addEventListener('abort', kill, { once: true });
  const exit = await new Promise<{ exitCode: number; signal?: number }>((resolve) => term.onExit(resolve));
  streams.signal.removeEventListener('abort', kill);
  streams.stdin?.off('data', onInput);
  output.dispose();
  if (exit.signal) return { kind: 'error', message: `cmd wait: ${commandLine(command)}: signal: ${exit.signal}` };
  return exit.exitCode === 0 ? { kind: 'success' } : { kind: 'exit', code: exit.exitCode };
}
