import { basename } from 'node:path';
import type { CallSpec, Executor, KillSpec, MkdirOptions, RunSpec, SpawnSpec, WriteFileOptions } from './executor.js';
import { shellJoin, shellJoinWordPerLine, shellQuote } from './shell-quote.js';

/**
 * Prints each effect the way kwokctl's --dry-run does (one shell-like block per effect) and
 * changes nothing. Reads still happen elsewhere (probes), so ports and versions shown are real.
 */
export class DryRunExecutor implements Executor {
  readonly dryRun = true;
  constructor(private readonly out: (text: string) => void = (t) => process.stdout.write(t + '\n')) {}

  async mkdirp(dir: string, options: MkdirOptions = {}): Promise<void> {
    this.out(`mkdir -p ${shellQuote(dir)}`);
    if (options.mode !== undefined) this.out(`chmod ${options.mode.toString(8)} ${shellQuote(dir)}`);
  }

  async writeFile(path: string, content: string, options: WriteFileOptions = {}): Promise<void> {
    const body = content.endsWith('\n') ? content : content + '\n';
    this.out(`cat <<'EOF' >${shellQuote(path)}\n${body}EOF`);
    if (options.mode !== undefined) this.out(`chmod ${options.mode.toString(8)} ${shellQuote(path)}`);
  }

  async remove(path: string): Promise<void> {
    this.out(`rm -rf ${shellQuote(path)}`);
  }

  async spawnDetached(spec: SpawnSpec): Promise<number> {
    const lines = [`cd ${shellQuote(spec.cwd)} && \\`];
    for (const [k, v] of Object.entries(spec.env ?? {})) lines.push(`${k}=${shellQuote(v)} \\`);
    lines.push(`${shellQuote(spec.command)} \\`);
    for (const arg of spec.args) lines.push(`  ${shellQuote(arg)} \\`);
    lines.push(`  >${shellQuote(spec.logFile)} \\`, `  2>&1 &`, `echo $! >${shellQuote(spec.pidFile)}`);
    this.out(lines.join('\n'));
    return 0;
  }

  async kill(spec: KillSpec): Promise<void> {
    this.out(`kill ${spec.graceMs > 0 ? '' : '-9 '}$(cat ${shellQuote(spec.pidFile)})\nrm ${shellQuote(spec.pidFile)}`);
  }

  async killMarked(): Promise<number[]> {
    return [];
  }

  async run(spec: RunSpec): Promise<string> {
    const prefix = spec.cwd ? `cd ${shellQuote(spec.cwd)} && ` : '';
    const env = Object.entries(spec.env ?? {}).map(([k, v]) => `${k}=${shellQuote(v)} `).join('');
    this.out(`${prefix}${env}${[basename(spec.command), ...spec.args].map(shellQuote).join(' ')}`);
    return '';
  }

  async call<T>(spec: CallSpec<T>): Promise<T> {
    this.out(spec.note !== undefined ? `# ${spec.note}` : spec.wordPerLine ? shellJoinWordPerLine(spec.argv) : shellJoin(spec.argv));
    return spec.dryRunResult;
  }

  async note(message: string): Promise<void> {
    this.out(`# ${message}`);
  }
}
