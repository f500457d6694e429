/**
 * `get clusters` on the fast path. A module of its own because the bundle makes it one file
 * (scripts/bundle.mjs, LEAN_ENTRIES), as fast-delete.ts says why.
 */
import type { FastCommand } from './fast-path.js';
import { runFastly } from './fast-setup.js';

export function runFastGetClusters(command: Extract<FastCommand, { kind: 'get-clusters' }>): Promise<number> {
  return runFastly(command.globals.logLevel, true, async ({ workdir }) => {
    // Loaded here: a name listing never needs the YAML parser, and this module is shared by none.
    const { listClusters } = await import('../cluster/list-clusters.js');
    await listClusters(workdir, command.output, (line) => process.stdout.write(line + '\n'));
    return 0;
  });
}
