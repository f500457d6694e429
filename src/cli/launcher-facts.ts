import { loadRecordQuickly } from '../cluster/record-quick.js';
import { recordIdentity, writePassthroughFacts } from '../cluster/passthrough-facts.js';
import { clusterPaths } from '../naming/naming.js';
import type { Logger } from '../util/log.js';

/**
 * After a create or start: leave bin/kwokts the facts for the cluster's passthroughs, so the
 * first `kwokts kubectl` already runs without Node. A cache: failing to write it is no error.
 */
export async function refreshPassthroughFacts(workdir: string, name: string, logger: Logger): Promise<void> {
  try {
    const identity = await recordIdentity(clusterPaths(workdir, name));
    if (!identity) return;
    const { record, paths } = await loadRecordQuickly(workdir, name);
    await writePassthroughFacts(record, paths, identity);
  } catch (error) {
    logger.debug(`passthrough facts not written: ${String(error)}`);
  }
}
