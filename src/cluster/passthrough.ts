import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
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
 * shared terminal process group; we only wait.
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
      resolve(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1));
    });
  });
}
