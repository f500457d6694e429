import { closeSync, openSync } from 'node:fs';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { PreflightError } from '../util/errors.js';
import { commandFailed } from '../util/output-tail.js';
import type { Logger } from '../util/log.js';
import type { CallSpec, Executor, KillSpec, MkdirOptions, RunSpec, SpawnSpec, WriteFileOptions } from './executor.js';
import { findProcessesByEnv, findProcessesByEnvPrefix, OWNER_ENV, readPid, terminate, unrunnable, unrunnableReason } from './process.js';
import { shellJoin } from './shell-quote.js';
import { deferExtraCaCerts } from '../util/extra-ca-certs.js';
import { loadExeca } from './load-execa.js';
import { tempSuffix } from '../util/temp-name.js';

export class RealExecutor implements Executor {
  readonly dryRun = false;
  constructor(private readonly logger: Logger) {}

  async mkdirp(dir: string, options: MkdirOptions = {}): Promise<void> {
    await mkdir(dir, { recursive: true });
    // chmod rather than mkdir's mode: that one is masked by the umask and skipped for an existing directory.
    if (options.mode !== undefined) await chmod(dir, options.mode);
  }

  /** Atomic: a reader never sees a half-written kubeconfig or key. */
  async writeFile(path: string, content: string, options: WriteFileOptions = {}): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const tmp = join(dirname(path), `.${tempSuffix()}.tmp`);
    try {
      await writeFile(tmp, content, { mode: options.mode ?? 0o644 });
      await rename(tmp, path);
    } catch (error) {
      await rm(tmp, { force: true });
      // A failed write(2) names no file ("ENOSPC: no space left on device, write"): the one we
      // were writing is what the user needs (on a full disk, where to free space).
      const errno = error as NodeJS.ErrnoException;
      if (errno.code !== undefined && errno.path === undefined) errno.path = path;
      throw error;
    }
  }

  async remove(path: string): Promise<void> {
    await rm(path, { recursive: true, force: true });
  }

  async spawnDetached(spec: SpawnSpec): Promise<number> {
    this.logger.debug(`spawn: ${shellJoin([spec.command, ...spec.args])}`);
    const reason = isAbsolute(spec.command) ? await unrunnableReason(spec.command) : undefined;
    if (reason) throw new PreflightError(`cannot start ${unrunnable(spec.command, reason)}`, { hint: 'give a binary built for this OS and architecture' });
    await mkdir(dirname(spec.logFile), { recursive: true });
    if (spec.marker) {
      const orphans = await findProcessesByEnv(OWNER_ENV, spec.marker);
      if (orphans.length > 0) this.logger.warn(`stopping ${basename(spec.command)} (pid ${orphans.join(', ')}), left running by an earlier start without its pid file`);
      await Promise.all(orphans.map((pid) => terminate(pid, 0)));
    }
    // Loaded here: node:child_process (with net and dgram under it) is start-up CPU that the
    // commands which only stop or read things (delete, get, the passthroughs' fallback) never need.
    const { spawn } = await import('node:child_process');
    const fd = openSync(spec.logFile, 'a', 0o644);
    try {
      // detached + own process group + unref: the component outlives this CLI process, as
      // kwokctl's forked components do; its output goes straight to the log file.
      const env = withNodeOptions({ ...process.env, ...spec.env, ...(spec.marker ? { [OWNER_ENV]: spec.marker } : {}) }, spec.nodeOptions ?? []);
      const child = spawn(spec.command, [...spec.args], {
        cwd: spec.cwd,
        env: spec.defersExtraCaCerts ? deferExtraCaCerts(env) : env,
        detached: true,
        stdio: ['ignore', fd, fd],
      });
      const pid = await new Promise<number>((resolve, reject) => {
        child.once('spawn', () => resolve(child.pid ?? 0));
        child.once('error', (error) =>
          reject(new PreflightError(`cannot start ${spec.command}: ${error.message}`, {
            hint: 'check that the binary exists and is executable for this OS/architecture',
          })),
        );
      });
      child.unref();
      // No newline: kwokctl parses the whole file as the number (strconv.Atoi), and reads ours.
      try {
        await this.writeFile(spec.pidFile, String(pid));
      } catch (error) {
        // Without its pid file nothing would ever stop it (stop, delete and a rollback go by the
        // file): a component left running untracked would hold its ports against the next start.
        // Not matched by command line: the child started a moment ago may already have exec'd
        // something else (a wrapper script), and the pid is still its own.
        await terminate(pid, 0);
        throw error;
      }
      return pid;
    } finally {
      closeSync(fd);
    }
  }

  async kill(spec: KillSpec): Promise<void> {
    if (spec.graceMs === 0 && spec.marker) {
      // Killed at once, nothing shuts down in an order, so the marked processes can be looked
      // for before the kill rather than after it. A stop kills every component at the same
      // moment, and lookups started together share one pass over /proc (environScan): one pass
      // per delete instead of one per component, each reading every process's environment.
      const [pid, marked] = await Promise.all([readPid(spec.pidFile), findProcessesByEnv(OWNER_ENV, spec.marker)]);
      await Promise.all([
        ...(pid === undefined ? [] : [terminate(pid, 0, spec.expectedCommand)]),
        ...marked.filter((p) => p !== pid).map((p) => terminate(p, 0)),
      ]);
    } else {
      const pid = await readPid(spec.pidFile);
      if (pid !== undefined) await terminate(pid, spec.graceMs, spec.expectedCommand);
      // Processes the pid file does not name: started just before we were killed, or their
      // children. Looked for once the named one is gone, so that it stops its own first.
      if (spec.marker) await Promise.all((await findProcessesByEnv(OWNER_ENV, spec.marker)).map((p) => terminate(p, spec.graceMs)));
    }
    await rm(spec.pidFile, { force: true });
  }

  async killMarked(match: { marker: string } | { markerPrefix: string }): Promise<number[]> {
    const pids = 'marker' in match ? await findProcessesByEnv(OWNER_ENV, match.marker) : await findProcessesByEnvPrefix(OWNER_ENV, match.markerPrefix);
    await Promise.all(pids.map((pid) => terminate(pid, 0)));
    return pids;
  }

  async run(spec: RunSpec): Promise<string> {
    this.logger.debug(`run: ${shellJoin([spec.command, ...spec.args])}`);
    const execa = await loadExeca();
    const result = await execa(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env,
      reject: false,
      all: true,
    });
    if (result.exitCode !== 0 || result.failed) {
      throw commandFailed([spec.command, ...spec.args], `${shellJoin([spec.command, ...spec.args])} failed (exit ${result.exitCode ?? 'none'})`, String(result.all ?? ''));
    }
    return String(result.stdout);
  }

  async call<T>(spec: CallSpec<T>): Promise<T> {
    this.logger.debug(spec.note ?? `call: ${shellJoin(spec.argv)}`);
    return spec.perform();
  }

  async note(message: string): Promise<void> {
    this.logger.debug(message);
  }
}

/** `options` before whatever NODE_OPTIONS the environment has, so that the user's own come later and win. */
export function withNodeOptions(env: Record<string, string | undefined>, options: readonly string[]): Record<string, string | undefined> {
  if (options.length === 0) return env;
  return { ...env, NODE_OPTIONS: [...options, ...(env.NODE_OPTIONS ? [env.NODE_OPTIONS] : [])].join(' ') };
}
