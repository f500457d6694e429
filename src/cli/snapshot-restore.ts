import { restoreSnapshot } from '../snapshot/restore.js';
import type { SnapshotOptions } from '../snapshot/snapshot.js';

/**
 * `snapshot restore` and its messages, shared by the command (src/commands/snapshot/restore.ts)
 * and the fast path (fast-restore.ts), so both do and say the same.
 */
export async function restoreAndReport(options: SnapshotOptions): Promise<void> {
  const started = Date.now();
  const result = await restoreSnapshot(options);
  if (options.executor.dryRun) return;
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const { logger, name, path } = options;
  if (options.format !== 'k8s') {
    logger.info(`Restored ${name} from ${path} in ${seconds}s`);
    return;
  }
  logger.info(`Restored ${name} from ${path} in ${seconds}s: ${result.created} objects created, ${result.existed} already existed`);
  if (result.replayed) logger.info(`Replayed ${result.replayed.applied} of ${result.recorded} recorded changes${result.replayed.failed > 0 ? ` (${result.replayed.failed} failed; see the warnings above)` : ''}`);
  else if (result.recorded > 0) logger.info(`${result.recorded} recorded changes in ${path} were not replayed (add --replay to play them back)`);
}
