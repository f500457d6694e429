/**
 * `export logs`: everything someone needs to debug a cluster, in one directory to attach to an
 * issue: the cluster's kwok.yaml, every component log (and the audit log), the runtime info and
 * the components' state. Never key material: the record holds paths to keys, not keys.
 */
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../util/errors.js';
import { loadCluster } from './record.js';
import { logFile } from '../naming/naming.js';
import { shellQuote } from '../exec/shell-quote.js';
import { HOST_PLATFORM } from '../artifacts/sources.js';
import { AUDIT_LOG, readComponentLog, readContext } from './logs.js';
import { createRuntime } from '../../runtimes/registry.js';
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
 * (`mkdir -p`, `cp`, `echo ... >`), and a log that is not a file on this host as a `#` note.
 */
export async function exportLogs(workdir: string, name: string, target?: string, print?: (line: string) => void): Promise<ExportLogsResult> {
  const cluster = await loadCluster(workdir, name);
  // kwokctl's layout: a directory you name gets a subdirectory per cluster.
  const dir = target === undefined ? defaultExportDir(cluster.paths.root) : join(target, name);
  if (target !== undefined && existsSync(dir) && readdirSync(dir).length > 0) {
    throw new UsageError(`${dir} is not empty`, { hint: 'give an empty or new directory, so nothing of yours is overwritten' });
  }
  const runtime = createRuntime(cluster.record.runtime);
  const infoFile = `${cluster.record.runtime}-info.txt`;
  // Go's spelling, as kwokctl writes it (linux/amd64, not Node's linux/x64).
  const info = `${HOST_PLATFORM.os}/${HOST_PLATFORM.arch}`;
  if (print) {
    const q = shellQuote;
    print(`mkdir -p ${q(dir)}`);
    print(`cp ${q(cluster.paths.config)} ${q(join(dir, 'kwok.yaml'))}`);
    print(`mkdir -p ${q(join(dir, 'components'))}`);
    print(`echo ${q(info)} >${q(join(dir, infoFile))}`);
    const native = runtime.info().mode === 'native';
    for (const component of cluster.record.components) {
      const to = join(dir, 'components', `${component.name}.log`);
      print(native ? `cp ${q(logFile(cluster.paths, component.name))} ${q(to)}` : `# Save the log of ${component.name} to ${to}`);
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
  await writeFile(join(dir, infoFile), `${info}\n`);
  files.push(infoFile);
  const summary = await summarizeCluster(workdir, name);
  const rows = summary.components.map((c) => [c.name, c.state, String(c.ready), c.detail || '-']);
  await writeFile(join(dir, 'components.txt'), `${renderTable([['NAME', 'STATUS', 'READY', 'DETAIL'], ...rows])}\n`);
  files.push('components.txt');
  return { dir, files };
}
