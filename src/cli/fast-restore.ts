/**
 * `snapshot restore` of an etcd snapshot on the fast path (the shared bundle's chunks: a restore
 * runs for seconds, and its modules are many).
 */
import type { FastCommand } from './fast-path.js';
import { runFastly } from './fast-setup.js';

export function runFastRestore(command: Extract<FastCommand, { kind: 'snapshot-restore' }>): Promise<number> {
  return runFastly(command.globals.logLevel, true, async ({ workdir, logger, signal }) => {
    const [{ restoreAndReport }, { RealExecutor }, { DEFAULT_FILTER }] = await Promise.all([import('./snapshot-restore.js'), import('../exec/real-executor.js'), import('../snapshot/k8s-format.js')]);
    await restoreAndReport({ name: command.globals.name, workdir, path: command.path, format: 'etcd', filter: DEFAULT_FILTER, executor: new RealExecutor(logger), logger, signal });
    return 0;
  });
}
