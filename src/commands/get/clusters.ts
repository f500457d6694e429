import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { listClusterNames } from '../../cluster/record.js';
import { renderTable, summarizeCluster, type ClusterSummary } from '../../cluster/summary.js';

export default class GetClusters extends BaseCommand<typeof GetClusters> {
  static override summary = 'List clusters';
  static override description = 'Plain output is one name per line (for scripts); -o wide adds runtime, readiness and status; -o json has everything.';
  static override examples = ['<%= config.bin %> get clusters', '<%= config.bin %> get clusters -o wide', '<%= config.bin %> get clusters -o json'];
  static override flags = {
    output: Flags.string({ char: 'o', description: 'output format', options: ['name', 'wide', 'json'], default: 'name' }),
  };

  async run(): Promise<void> {
    const names = listClusterNames(this.workdir);
    if (this.flags.output === 'name') {
      for (const name of names) this.log(name);
      return;
    }
    // Probed concurrently with short timeouts, so a stuck cluster does not stall the listing.
    const summaries: ClusterSummary[] = await Promise.all(names.map((name) => summarizeCluster(this.workdir, name, 800)));
    if (this.flags.output === 'json') {
      this.log(JSON.stringify(summaries.map(({ components, ...rest }) => ({ ...rest, components: components.map((c) => ({ name: c.name, state: c.state, ready: c.ready })) })), null, 2));
      return;
    }
    // kwokctl's columns first (NAME READY STATUS), ours after them.
    const rows = summaries.map((s) => [s.name, `${s.ready}/${s.total}`, s.status, s.runtime, s.apiserver]);
    this.log(renderTable([['NAME', 'READY', 'STATUS', 'RUNTIME', 'APISERVER'], ...rows]));
  }
}
