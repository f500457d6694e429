/**
 * `export logs`: everything someone needs to debug a cluster, in one directory to attach to an
 * issue: the cluster's kwok.yaml, every component log (and the audit log), the runtime info and
 * the components' state. Never key material: the record holds paths to keys, not keys.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../util/errors.js';
import { loadCluster } from './record.js';
import { logFile, runtimeObjectName } from '../naming/naming.js';
import { shellJoinWordPerLine, shellQuote } from '../exec/shell-quote.js';
import { HOST_PLATFORM } from '../artifacts/sources.js';
import { AUDIT_LOG, readComponentLog, readContext } from './logs.js';
import { loadRuntime } from '../../runtimes/load.js';
import { renderTable, summarizeCluster } from './summary.js';

/** kwokctl's default target, inside the cluster directory. */
export function defaultExportDir(clusterRoot: string): string {
  return join(clusterRoot, 'export', 'logs');
}

export interface ExportLogsResult {
  dir: string;
  files: string[];
}

/**
 * With `print` (--dry-run), nothing is read or written: each step is printed as kwokctl prints it
 * (`mkdir -p`, `cp`, `echo ... >`; for an engine `docker info >FILE 2>&1` and `docker logs
 * CONTAINER >FILE 2>&1`, kwokts reading the same logs through the engine's API), and a log that is
 * neither a file on this host nor a container's (kind's pods) as a `#` note.
 */
export async function exportLogs(workdir: string, name: string, target?: string, print?: (line: string) => void): Promise<ExportLogsResult> {
  const cluster = await loadCluster(workdir, name);
  // kwokctl's layout: a directory you name gets a subdirectory per cluster.
  const dir = target === undefined ? defaultExportDir(cluster.paths.root) : join(target, name);
  if (target !== undefined && existsSync(dir) && readdirSync(dir).length > 0) {
    throw new UsageError(`${dir} is not empty`, { hint: 'give an empty or new directory, so nothing of yours is overwritten' });
  }
  const runtime = await loadRuntime(cluster.record.runtime);
  const mode = runtime.info().mode;
  const engine = engineInfoCommand(runtime.info());
  const infoFile = `${cluster.record.runtime}-info.txt`;
  // Go's spelling, as kwokctl writes it (linux/amd64, not Node's linux/x64).
  const info = `${HOST_PLATFORM.os}/${HOST_PLATFORM.arch}`;
  if (print) {
    const q = shellQuote;
    print(`mkdir -p ${q(dir)}`);
    print(`cp ${q(cluster.paths.config)} ${q(join(dir, 'kwok.yaml'))}`);
    print(`mkdir -p ${q(join(dir, 'components'))}`);
    if (engine) printRedirected(print, engine, join(dir, infoFile));
    else print(`echo ${q(info)} >${q(join(dir, infoFile))}`);
    for (const component of cluster.record.components) {
      const to = join(dir, 'components', `${component.name}.log`);
      if (mode === 'native') print(`cp ${q(logFile(cluster.paths, component.name))} ${q(to)}`);
      else if (engine) printRedirected(print, [engine[0]!, 'logs', runtimeObjectName(name, component.name)], to);
      else print(`# Save the log of ${component.name} to ${to}`);
    }
    if (cluster.record.options.kubeAuditPolicy) print(`cp ${q(cluster.paths.auditLog)} ${q(join(dir, 'components', `${AUDIT_LOG}.log`))}`);
    // components.txt (written below) is not printed: the transcript is kwokctl's line for line,
    // which kwok's own e2e suite compares with its golden file.
    return { dir, files: [] };
  }
  // The default directory is ours: a previous export there is replaced.
  if (target === undefined) await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  const copy = async (from: string, as: string): Promise<void> => {
    if (!existsSync(from)) return;
    await copyFile(from, join(dir, as));
    files.push(as);
  };
  await copy(cluster.paths.config, 'kwok.yaml');
  await mkdir(join(dir, 'components'), { recursive: true });
  const ctx = readContext(cluster);
  for (const component of cluster.record.components) {
    const text = await readComponentLog(runtime, component.name, ctx);
    if (!text) continue;
    const as = join('components', `${component.name}.log`);
    await writeFile(join(dir, as), text);
    files.push(as);
  }
  if (cluster.record.options.kubeAuditPolicy) await copy(cluster.paths.auditLog, join('components', `${AUDIT_LOG}.log`));
  await writeFile(join(dir, infoFile), engine ? await combinedOutput(engine) : `${info}\n`);
  files.push(infoFile);
  const summary = await summarizeCluster(workdir, name);
  const rows = summary.components.map((c) => [c.name, c.state, String(c.ready), c.detail || '-']);
  await writeFile(join(dir, 'components.txt'), `${renderTable([['NAME', 'STATUS', 'READY', 'DETAIL'], ...rows])}\n`);
  files.push('components.txt');
  return { dir, files };
}

/**
 * What kwokctl saves as `<runtime>-info.txt` for an engine: what its CLI's `info` says (versions,
 * storage, rootless or not: what a bug report needs). undefined for the host and for kind, where
 * it is the platform.
 */
function engineInfoCommand(runtime: { name: string; mode: string }): string[] | undefined {
  return runtime.mode === 'container' ? [runtime.name, 'info'] : undefined;
}

/** A command with its output redirected, in kwokctl's layout: one word per line. */
function printRedirected(print: (line: string) => void, argv: string[], file: string): void {
  for (const line of shellJoinWordPerLine(argv, [`>${shellQuote(file)}`, '2>&1']).split('\n')) print(line);
}

/** stdout and stderr of a command (as `>FILE 2>&1` keeps them), its failure included: an export never fails for its info file. */
function combinedOutput(argv: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(argv[0]!, argv.slice(1), { timeout: 30_000, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      const text = `${stdout}${stderr}`;
      resolve(error && text === '' ? `${argv.join(' ')}: ${error.message}\n` : text);
    });
  });
}
