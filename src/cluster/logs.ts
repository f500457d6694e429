/**
 * Where a component's log is, and following it as `tail -f` does: print what is there, then
 * what is appended, starting over if the file is truncated or replaced (a restarted component).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { createRuntime } from '../../runtimes/registry.js';
import { RealExecutor } from '../exec/real-executor.js';
import { NotFoundError, UsageError } from '../util/errors.js';
import { silentLogger } from '../util/log.js';
import type { LoadedCluster } from './record.js';

export const AUDIT_LOG = 'audit';

/** The log file of a component (or the apiserver's audit log), with a clear error when there is none. */
export function componentLogPath({ record, paths }: LoadedCluster, component: string): string {
  if (component === AUDIT_LOG) {
    if (!record.options.kubeAuditPolicy) {
      throw new UsageError(`cluster ${record.name} has no audit log`, { hint: 'create the cluster with --kube-audit-policy FILE to record one' });
    }
    return paths.auditLog;
  }
  const found = record.components.find((c) => c.name === component);
  if (!found) {
    throw new UsageError(`cluster ${record.name} has no component ${JSON.stringify(component)}`, {
      hint: `one of: ${[...record.components.map((c) => c.name), ...(record.options.kubeAuditPolicy ? [AUDIT_LOG] : [])].join(', ')}`,
    });
  }
  const runtime = createRuntime(record.runtime);
  return runtime.logPath(found.name, { cluster: record.name, paths, executor: new RealExecutor(silentLogger), logger: silentLogger, programs: new Map() });
}

async function sizeOf(path: string): Promise<{ size: number; ino: number } | undefined> {
  try {
    const s = await stat(path);
    return { size: s.size, ino: s.ino };
  } catch {
    return undefined;
  }
}

async function copyRange(path: string, start: number, end: number, out: Writable): Promise<void> {
  if (end <= start) return;
  await new Promise<void>((resolve, reject) => {
    const stream = createReadStream(path, { start, end: end - 1 });
    stream.on('error', reject);
    stream.on('end', () => resolve());
    stream.pipe(out, { end: false });
  });
}

/** Print the whole log; with follow, keep printing until the signal aborts. */
export async function printLog(path: string, out: Writable, options: { follow: boolean; signal: AbortSignal; pollMs?: number }): Promise<void> {
  let current = await sizeOf(path);
  if (!current && !options.follow) throw new NotFoundError(`log ${path} does not exist yet`, { hint: 'the component has not been started' });
  let offset = 0;
  if (current) {
    await copyRange(path, 0, current.size, out);
    offset = current.size;
  }
  while (options.follow && !options.signal.aborted) {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, options.pollMs ?? 250);
      options.signal.addEventListener('abort', () => (clearTimeout(timer), resolve(undefined)), { once: true });
    });
    const next = await sizeOf(path);
    if (!next) continue;
    if (!current || next.ino !== current.ino || next.size < offset) offset = 0;
    await copyRange(path, offset, next.size, out);
    offset = next.size;
    current = next;
  }
}
