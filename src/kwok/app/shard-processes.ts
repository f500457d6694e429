/**
 * `--shards N`: one controller command that runs N shard processes, for `kwokts create cluster
 * --kwok-controller-shards N` (one component, one pid file and port, as for a single controller).
 * This process is shard 0; it starts N-1 children of the same program with the same flags plus
 * --shard and their own --id and a server port of their own (port 0), restarts a child that exits,
 * and stops them when it stops. A child whose parent dies (SIGKILL) stops by itself, so no shard
 * outlives `kwokts delete cluster`.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Logger } from '../../util/log.js';
import type { ParsedFlags } from './options.js';
import { deferExtraCaCerts } from '../../util/extra-ca-certs.js';

export const shardParentEnv = 'KWOKTS_SHARD_PARENT_PID';

/** Flags of child `index`: the parent's, without --shards, --id and --server-address, plus the child's own. */
export function shardChildArgs(flags: ParsedFlags, id: string, index: number, listenHost: string | undefined): string[] {
  const args: string[] = [];
  for (const [name, values] of flags) {
    if (name === 'shards' || name === 'id' || name === 'server-address' || name === 'shard' || name === 'help') continue;
    for (const value of values) args.push(`--${name}=${value}`);
  }
  args.push('--shard=true', `--id=${id}-${index}`);
  if (listenHost !== undefined) args.push(`--server-address=${listenHost.includes(':') ? `[${listenHost}]` : listenHost}:0`);
  return args;
}

export interface ShardChildrenOptions {
  flags: ParsedFlags;
  id: string;
  count: number;
  listenHost: string | undefined;
  logger: Logger;
  /** The program to start (default: this process's node, its flags and its script). */
  command?: { file: string; args: string[] };
}

/** Runs children 1..count-1 until `signal` aborts, restarting any that exit (1 s, doubling to 30 s). */
export async function runShardChildren(options: ShardChildrenOptions, signal: AbortSignal): Promise<void> {
  const command = options.command ?? { file: process.execPath, args: [...process.execArgv, process.argv[1] ?? ''] };
  const runOne = async (index: number): Promise<void> => {
    let delay = 1000;
    while (!signal.aborted) {
      const started = Date.now();
      const child: ChildProcess = spawn(command.file, [...command.args, ...shardChildArgs(options.flags, options.id, index, options.listenHost)], {
        stdio: ['ignore', 'inherit', 'inherit'],
        // Its own Node entry, like this one: it takes a deferred NODE_EXTRA_CA_CERTS back itself.
        env: deferExtraCaCerts({ ...process.env, [shardParentEnv]: String(process.pid) }),
      });
      const stop = (): void => void child.kill('SIGTERM');
      signal.addEventListener('abort', stop, { once: true });
      const code = await new Promise<number | string>((resolve) => {
        child.once('exit', (exit, sig) => resolve(exit ?? sig ?? 'unknown'));
        child.once('error', (error) => resolve(error.message));
      });
      signal.removeEventListener('abort', stop);
      if (signal.aborted) return;
      if (Date.now() - started > 60_000) delay = 1000;
      options.logger.warn(`shard ${options.id}-${index} exited (${code}); restarting in ${delay / 1000}s`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 30_000);
    }
  };
  await Promise.all(Array.from({ length: options.count - 1 }, (_, i) => runOne(i + 1)));
}

export interface ShardParentWatch {
  env?: NodeJS.ProcessEnv;
  /** How long the clean stop may take once the parent is gone. */
  graceMs?: number;
  /** Ends the process when the clean stop overruns the grace. */
  exit?: () => void;
}

/**
 * In a child: when the parent is gone (its pid is no longer our parent's), call `onGone` to stop
 * cleanly, and `exit` if the process is still here `graceMs` later. The watch lasts as long as the
 * process, not just until the controllers stop: a child told to stop by its parent's SIGTERM whose
 * stop then hangs (writes retrying against an apiserver deleted with the cluster) must still end
 * once nobody is left to SIGKILL it.
 */
export function watchShardParent(onGone: () => void, watch: ShardParentWatch = {}): void {
  const parent = Number((watch.env ?? process.env)[shardParentEnv]);
  if (!Number.isInteger(parent) || parent <= 0) return;
  const graceMs = watch.graceMs ?? 10_000;
  const exit = watch.exit ?? ((): never => process.exit(1));
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    setTimeout(exit, graceMs).unref();
    onGone();
  }, 1000);
  timer.unref();
}
