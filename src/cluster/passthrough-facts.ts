/**
 * The facts bin/kwokts (the installed POSIX sh launcher) needs to run `kwokts kubectl ...` and
 * `kwokts etcdctl ...` without starting Node: per tool, a small text file in the cluster's
 * directory holding the program and the fixed leading arguments that kubectlInvocation /
 * etcdctlInvocation compute from the record. They are derived data, a cache: written after a
 * create and whenever the Node passthrough finds them missing or older than the record, removed
 * with the cluster directory. The launcher trusts a file only when it is not older than
 * kwok.yaml and was written for the same spelling of the cluster directory; else it runs Node.
 *
 * Format (one value a line, none empty, none with a newline):
 *   kwokts-passthrough 1 <N>
 *   <the cluster directory, as path.join spelled it>
 *   <the program, an absolute path>
 *   <N fixed arguments, each on its own line>
 */
import { rename, stat, unlink, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { ClusterPaths } from '../naming/naming.js';
import { etcdctlInvocation, kubectlInvocation, type ToolInvocation } from './passthrough.js';
import type { ClusterRecord } from './record.js';
import { tempSuffix } from '../util/temp-name.js';

export const LAUNCHER_TOOLS = ['kubectl', 'etcdctl'] as const;
export type LauncherTool = (typeof LAUNCHER_TOOLS)[number];

const HEADER = 'kwokts-passthrough 1';

export function passthroughFactsPath(paths: ClusterPaths, tool: LauncherTool): string {
  return join(paths.root, `passthrough-${tool}.args`);
}

/**
 * The invocation the Node passthrough would make with no user arguments, or undefined when the
 * launcher must leave the tool to Node: a tool the record does not name (Node resolves it), a
 * record with no etcd endpoint (Node reports it), extra environment (the launcher sets none).
 */
export function launcherInvocation(tool: LauncherTool, record: ClusterRecord, paths: ClusterPaths): ToolInvocation | undefined {
  const program = record.programs[tool];
  if (!program) return undefined;
  try {
    const invocation = tool === 'kubectl' ? kubectlInvocation(program, paths, []) : etcdctlInvocation(program, record, paths, []);
    return Object.keys(invocation.env).length === 0 ? invocation : undefined;
  } catch {
    return undefined;
  }
}

/** The file's text, or undefined when a value cannot be written one a line (or the program is not absolute). */
export function renderPassthroughFacts(root: string, invocation: ToolInvocation): string | undefined {
  const values = [root, invocation.command, ...invocation.args];
  if (!isAbsolute(invocation.command) || values.some((v) => v === '' || /[\n\r\0]/.test(v))) return undefined;
  return [`${HEADER} ${invocation.args.length}`, ...values].join('\n') + '\n';
}

/**
 * Write (or remove, when there are no facts) each tool's file for this record. `recordStat` is
 * kwok.yaml's identity when the record was read: if the record changed since, the files are
 * removed again rather than left vouching for a record they were not made from. Best effort:
 * the launcher falls back to Node without them, so errors are the caller's to ignore.
 */
export async function writePassthroughFacts(record: ClusterRecord, paths: ClusterPaths, recordStat: RecordIdentity): Promise<void> {
  for (const tool of LAUNCHER_TOOLS) {
    const path = passthroughFactsPath(paths, tool);
    const invocation = launcherInvocation(tool, record, paths);
    const text = invocation && renderPassthroughFacts(paths.root, invocation);
    if (text === undefined) {
      await unlink(path).catch(() => undefined);
      continue;
    }
    const temp = `${path}.${tempSuffix()}.tmp`;
    try {
      await writeFile(temp, text, { mode: 0o600 });
      await rename(temp, path);
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }
  if (!sameIdentity(recordStat, await recordIdentity(paths))) {
    await Promise.all(LAUNCHER_TOOLS.map((tool) => unlink(passthroughFactsPath(paths, tool)).catch(() => undefined)));
  }
}

/** kwok.yaml as it is now: enough to tell that it was rewritten. */
export interface RecordIdentity {
  ino: number;
  size: number;
  mtimeNs: bigint;
}

export async function recordIdentity(paths: ClusterPaths): Promise<RecordIdentity | undefined> {
  try {
    const s = await stat(paths.config, { bigint: true });
    return { ino: Number(s.ino), size: Number(s.size), mtimeNs: s.mtimeNs };
  } catch {
    return undefined;
  }
}

function sameIdentity(a: RecordIdentity | undefined, b: RecordIdentity | undefined): boolean {
  return a !== undefined && b !== undefined && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

/** Whether the tool's file is there and not older than the record (the launcher's own test). */
export async function passthroughFactsFresh(paths: ClusterPaths, tool: LauncherTool): Promise<boolean> {
  try {
    const [facts, config] = await Promise.all([stat(passthroughFactsPath(paths, tool), { bigint: true }), stat(paths.config, { bigint: true })]);
    return facts.mtimeNs >= config.mtimeNs;
  } catch {
    return false;
  }
}
