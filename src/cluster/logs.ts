/**
 * A component's log wherever its runtime keeps it (a file for host processes, the engine for
 * containers), and the apiserver's audit log, which is always a file in the cluster directory.
 */
import { Writable } from 'node:stream';
import { loadRuntime } from '../../runtimes/load.js';
import { RealExecutor } from '../exec/real-executor.js';
import { UsageError } from '../util/errors.js';
import { printLog } from '../util/log-file.js';
import { silentLogger } from '../util/log.js';
import type { Component, ComponentName } from '../components/index.js';
import type { Runtime, RuntimeContext } from '../../runtimes/runtime.js';
import type { LoadedCluster } from './record.js';

export { printLog } from '../util/log-file.js';

export const AUDIT_LOG = 'audit';

/** Print a component's log (or `audit`), with a clear error when the cluster has no such log. */
export async function printComponentLog(cluster: LoadedCluster, component: string, out: Writable, options: { follow: boolean; signal: AbortSignal }): Promise<void> {
  const { record, paths } = cluster;
  if (component === AUDIT_LOG) {
    if (!record.options.kubeAuditPolicy) {
      throw new UsageError(`cluster ${record.name} has no audit log`, { hint: 'create the cluster with --kube-audit-policy FILE to record one' });
    }
    await printLog(paths.auditLog, out, options);
    return;
  }
  const found = findComponent(cluster, component);
  await (await loadRuntime(record.runtime)).logs(found.name, readContext(cluster), out, options);
}

export function findComponent({ record }: LoadedCluster, component: string): Component {
  const found = record.components.find((c) => c.name === component);
  if (!found) {
    throw new UsageError(`cluster ${record.name} has no component ${JSON.stringify(component)}`, {
      hint: `one of: ${[...record.components.map((c) => c.name), ...(record.options.kubeAuditPolicy ? [AUDIT_LOG] : [])].join(', ')}`,
    });
  }
  return found;
}

/** A context for reading: logs change nothing, so no executor of the caller's is needed. */
export function readContext({ record, paths }: LoadedCluster): RuntimeContext {
  return { cluster: record.name, paths, executor: new RealExecutor(silentLogger), logger: silentLogger, programs: new Map(Object.entries(record.programs)), clusterComponents: record.components };
}

/** The whole log as text ('' when there is none yet). */
export async function readComponentLog(runtime: Runtime, component: ComponentName, ctx: RuntimeContext): Promise<string> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  try {
    await runtime.logs(component, ctx, sink, { follow: false });
  } catch {
    return '';
  }
  return Buffer.concat(chunks).toString('utf8');
}
