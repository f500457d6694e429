/**
 * `delete cluster` on the fast path. A module of its own because the bundle makes it one CommonJS
 * file (scripts/bundle.mjs, LEAN_ENTRIES): what a delete of a binary cluster runs, and nothing
 * else, required at once rather than loaded as the thirty small chunks a split build makes of it.
 * Node's ES module loader resolves, reads and links each file on its own, a sizeable part of a
 * delete's time.
 */
import { RealExecutor } from '../exec/real-executor.js';
import { deleteAndReport } from './delete-cluster.js';
import type { FastCommand } from './fast-path.js';
import { runFastly } from './fast-setup.js';

export function runFastDelete(command: Extract<FastCommand, { kind: 'delete-cluster' }>): Promise<number> {
  return runFastly(command.globals.logLevel, true, async ({ workdir, logger }) => {
    await deleteAndReport({ name: command.globals.name, workdir, kubeconfig: command.kubeconfig, executor: new RealExecutor(logger), logger, force: command.force });
    return 0;
  });
}
