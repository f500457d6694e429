import { deleteCluster, type DeleteClusterOptions } from '../cluster/delete.js';

/**
 * One cluster's delete and its message, shared by `delete cluster` (src/commands) and the fast
 * path (fast-delete.ts), so both say the same. A cluster that does not exist gives kwokctl's
 * warning and success, so `delete cluster` is safe in any cleanup step.
 */
export async function deleteAndReport(options: DeleteClusterOptions): Promise<void> {
  const result = await deleteCluster(options);
  if (result === 'absent') options.logger.warn(`Cluster ${options.name} does not exist; nothing to delete`);
  else if (!options.executor.dryRun) options.logger.info(`Cluster ${options.name} deleted`);
}
