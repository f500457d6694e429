import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { PreflightError } from '../util/errors.js';
import type { ClusterPaths } from '../naming/naming.js';
import type { ClusterRecord } from './record.js';
import { etcdClientArgs } from './etcd-client.js';

export interface ToolInvocation {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** kubectl against the cluster: our kubeconfig first, the user's arguments untouched after it. */
export function kubectlInvocation(kubectl: string, paths: ClusterPaths, userArgs: readonly string[]): ToolInvocation {
  return { command: kubectl, args: [`--kubeconfig=${paths.kubeconfig}`, ...userArgs], env: {} };
}

/**
 * etcdctl against the cluster's etcd: endpoint and client certificate from the saved record
 * (v3 is etcdctl's only API since 3.4). Ours come first, so a flag the user repeats wins.
 */
export function etcdctlInvocation(etcdctl: string, record: ClusterRecord, paths: ClusterPaths, userArgs: readonly string[]): ToolInvocation {
  const { endpoint, tlsArgs } = etcdClientArgs(record, paths);
  return { command: etcdctl, args: [`--endpoints=${endpoint}`, ...tlsArgs, ...userArgs], env: {} };
}

/**
 * Run a tool with inherited stdio and return its exit code, so pipes, `-f -` and interactive
 * use behave exactly as if the user had run it themselves. Signals reach it through the
 * shared terminal process group; we only wait. A tool killed by a signal ends this process
 * the same way (see endLikeChild), as when bin/kwokts execs the tool without Node.
 */
export async function runInherited(invocation: ToolInvocation): Promise<number> {
  if (!existsSync(invocation.command)) {
    throw new PreflightError(`${invocation.command} does not exist`, { hint: 'run `kwokts artifacts build` or pass the binary path' });
  }
  return new Promise((resolve, reject) => {
    const child = spawn(invocation.command, invocation.args, { stdio: 'inherit', env: { ...process.env, ...invocation.env } });
    const forward = (sig: NodeJS.Signals) => () => child.kill(sig);
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      if (signal) endLikeChild(signal);
      resolve(code ?? exitCodeForSignal(signal));
    });
  });
}

/** What a shell reports for a process killed by `signal`: 128 + its number (130 for SIGINT). */
export function exitCodeForSignal(signal: NodeJS.Signals | null): number {
  const number = signal ? constants.signals[signal] : undefined;
  return number === undefined ? 1 : 128 + number;
}

/**
 * Signals that end a process without a core dump and that Node itself leaves at their default
 * once nothing listens (SIGUSR1 would start the inspector, SIGPIPE is ignored by Node).
 */
const RERAISED = new Set<NodeJS.Signals>(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGKILL']);

/**
 * Die of the signal that killed the tool, so whoever runs us sees what it would see had it run
 * the tool itself (a parent's `signal`, not an exit code). Other signals fall back to the shell's
 * exit code 128 + n.
 */
function endLikeChild(signal: NodeJS.Signals): void {
  if (!RERAISED.has(signal)) return;
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
}
