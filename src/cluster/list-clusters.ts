import { describeUnknown } from '../util/errors.js';
import { listClusterNames } from '../naming/naming.js';
import type { ClusterSummary } from './summary.js';
import type { ClusterListFormat } from './cluster-list-format.js';


/**
 * `get clusters` in kwokctl's output: one name per line, or a NAME READY STATUS table (wide), or
 * JSON with each cluster's components. Shared by the oclif command and the fast path.
 */
export async function listClusters(workdir: string, output: ClusterListFormat, log: (line: string) => void): Promise<void> {
  const names = listClusterNames(workdir);
  if (names.length === 0) {
    // kwokctl says so on a terminal only, so scripts see empty output.
    if (process.stderr.isTTY && output !== 'json') process.stderr.write('No clusters found\n');
    if (output === 'json') log('[]');
    return;
  }
  if (output === 'name') {
    for (const name of names) log(name);
    return;
  }
  // Loaded only here: probing pulls in the runtimes, which a plain listing never needs.
  const { kwokctlClusterRow, renderTable, summarizeCluster } = await import('./summary.js');
  // Probed concurrently with short timeouts, so a stuck cluster does not stall the listing; a
  // record that cannot be read is a row saying so, never a failed listing.
  const summaries = await Promise.all(
    names.map(async (name): Promise<ClusterSummary | { name: string; error: string }> => {
      try {
        return await summarizeCluster(workdir, name, 800);
      } catch (error) {
        return { name, error: describeUnknown(error) };
      }
    }),
  );
  if (output === 'json') {
    log(
      JSON.stringify(
        summaries.map((s) => ('error' in s ? s : { ...s, components: s.components.map((c) => ({ name: c.name, state: c.state, ready: c.ready })) })),
        null,
        2,
      ),
    );
    return;
  }
  log(renderTable([['NAME', 'READY', 'STATUS'], ...summaries.map((s) => ('error' in s ? [s.name, '0/0', 'Unknown'] : kwokctlClusterRow(s)))]));
}
