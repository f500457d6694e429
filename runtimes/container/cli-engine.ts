/**
 * A container engine through its docker-compatible CLI (nerdctl): effects are the command lines
 * of renderArgs, reads are `inspect`/`ls` with JSON output.
 */
import type { Writable } from 'node:stream';
import { NotFoundError, PreflightError, type ExternalCommandError } from '../../src/util/errors.js';
import { commandFailed } from '../../src/util/output-tail.js';
import { shellJoin } from '../../src/exec/shell-quote.js';
import type { ContainerEngine, ContainerState, NetworkState } from './engine.js';
import { renderArgs, type CommandDialect, type ContainerOp } from './operations.js';
import { isRootless } from './api-engine.js';
import { loadExeca } from '../../src/exec/load-execa.js';

export class CliEngine implements ContainerEngine {
  constructor(private readonly dialect: CommandDialect, private readonly hints: { install: string; start: string }) {}

  private async exec(args: string[], options: { allowFailure?: boolean } = {}): Promise<{ ok: boolean; stdout: string; all: string }> {
    const execa = await loadExeca();
    const result = await execa(this.dialect.cli, args, { reject: false, all: true });
    if ((result as { code?: string }).code === 'ENOENT') {
      throw new PreflightError(`${this.dialect.cli} is not installed`, { hint: this.hints.install });
    }
    const ok = result.exitCode === 0;
    const all = String(result.all ?? '');
    if (!ok && !options.allowFailure) throw this.failure(args, result.exitCode, all);
    return { ok, stdout: String(result.stdout), all };
  }

  private failure(args: string[], exitCode: number | undefined, output: string): ExternalCommandError {
    return commandFailed([this.dialect.cli, ...args], `${shellJoin([this.dialect.cli, ...args])} failed (exit ${exitCode ?? 'none'})`, output);
  }

  async ping(): Promise<void> {
    const result = await this.exec(['info', '--format', '{{json .ServerVersion}}'], { allowFailure: true });
    if (!result.ok) throw new PreflightError(`${this.dialect.cli} cannot reach its engine: ${result.all.trim().split('\n').pop() ?? ''}`, { hint: this.hints.start });
  }

  async apply(op: ContainerOp): Promise<void> {
    const args = renderArgs(op, this.dialect);
    // Idempotent like the API engine: removing what is gone is success.
    const removal = op.op === 'rm' || op.op === 'network-rm' || op.op === 'volume-rm';
    const result = await this.exec(args, { allowFailure: removal });
    // nerdctl says "no such container" (and exits 0), "no network found matching: <name>", volume "not found".
    if (!result.ok && !/no such|not found|no network found/i.test(result.all)) throw this.failure(args, 1, result.all);
  }

  async inspectContainer(name: string): Promise<ContainerState | undefined> {
    const result = await this.exec(['container', 'inspect', '--format', '{{json .}}', name], { allowFailure: true });
    if (!result.ok) return undefined;
    const parsed = JSON.parse(result.stdout) as unknown;
    const info = (Array.isArray(parsed) ? parsed[0] : parsed) as { Id: string; State: { Status: string; Running: boolean; Restarting?: boolean; ExitCode: number }; Config?: { Labels?: Record<string, string> } };
    const s = info.State;
    // State.Status, not State.Restarting: nerdctl sets Restarting whenever the restart monitor's
    // desired state is "running" (every started container with a restart policy, even a running
    // or explicitly stopped one); its Status says "restarting" only when the monitor will restart
    // a dead container. nerdctl's Status is "" while a container has no task: never started
    // (Restarting false), or between the monitor's delete and re-create of its task (Restarting true).
    const status =
      s.Status === 'restarting' || (s.Status === '' && s.Restarting) ? 'restarting'
      : s.Status === 'running' ? 'running'
      : s.Status === 'created' || s.Status === '' ? 'created'
      : s.Status === 'exited' ? 'exited'
      : 'other';
    return { id: info.Id.slice(0, 12), status, exitCode: s.ExitCode, labels: info.Config?.Labels ?? {} };
  }

  async inspectNetwork(name: string): Promise<NetworkState | undefined> {
    const result = await this.exec(['network', 'inspect', '--format', '{{json .}}', name], { allowFailure: true });
    if (!result.ok) return undefined;
    const parsed = JSON.parse(result.stdout) as unknown;
    const info = (Array.isArray(parsed) ? parsed[0] : parsed) as { Name: string; Labels?: Record<string, string> | null; IPAM?: { Config?: Array<{ Subnet?: string }> | null } };
    const subnet = info.IPAM?.Config?.find((c) => c.Subnet && !c.Subnet.includes(':'))?.Subnet;
    return { name: info.Name, labels: info.Labels ?? {}, ...(subnet ? { subnet } : {}) };
  }

  async imageExists(image: string): Promise<boolean> {
    return (await this.exec(['image', 'inspect', image], { allowFailure: true })).ok;
  }

  async rootless(): Promise<boolean> {
    const result = await this.exec(['info', '--format', '{{json .SecurityOptions}}'], { allowFailure: true });
    if (!result.ok) return false;
    return isRootless(JSON.parse(result.stdout.trim() || 'null') as string[] | null);
  }

  async listByLabel(kind: 'container' | 'network' | 'volume', key: string, value: string): Promise<string[]> {
    const base = kind === 'container' ? ['ps', '--all'] : [kind, 'ls'];
    const format = kind === 'container' ? '{{.Names}}' : '{{.Name}}';
    const result = await this.exec([...base, '--filter', `label=${key}=${value}`, '--format', format]);
    return result.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
  }

  async logs(name: string, out: Writable, options: { follow: boolean; signal?: AbortSignal }): Promise<void> {
    const execa = await loadExeca();
    const child = execa(this.dialect.cli, ['logs', ...(options.follow ? ['--follow'] : []), name], { reject: false, all: true, ...(options.signal ? { cancelSignal: options.signal } : {}) });
    child.all?.pipe(out, { end: false });
    const result = await child;
    if (result.exitCode !== 0 && !options.signal?.aborted) throw new NotFoundError(`no log for ${name}`, { hint: 'the component has not been created; start the cluster' });
  }
}
