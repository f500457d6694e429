import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { listClusterNames } from '../../cluster/record.js';
import { kwokctlClusterRow, renderTable, summarizeCluster, type ClusterSummary } from '../../cluster/summary.js';
import { describeUnknown } from '../../util/errors.js';

export default class GetClusters extends BaseCommand<typeof GetClusters> {
  static override summary = 'List clusters';
  static override description =
    "Output as kwokctl's: one name per line, or with -o wide a NAME READY STATUS table (STATUS Ready, NotReady, Stopped or Unknown). -o json adds each cluster's runtime, apiserver address and component states. Clusters made by kwokctl in the same workdir are listed too.";
  static override examples = ['<%= config.bin %> get clusters', '<%= config.bin %> get clusters -o wide', '<%= config.bin %> get clusters -o json'];
  static override flags = {
    output: Flags.string({ char: 'o', description: 'output format', options: ['name', 'wide', 'json'], default: 'name' }),
  };

  async run(): Promise<void> {
    const names = listClusterNames(this.workdir);
    if (names.length === 0) {
      // kwokctl says so on a terminal only, so scripts see empty output.
      if (process.stderr.isTTY && this.flags.output !== 'json') process.stderr.write('No clusters found\n');
      if (this.flags.output === 'json') this.log('[]');
      return;
    }
    if (this.flags.output === 'name') {
      for (const name of names) this.log(name);
      return;
    }
    // Probed concurrently with short timeouts, so a stuck cluster does not stall the listing; a
    // record that cannot be read is a row saying so, never a failed listing.
    const summaries = await Promise.all(
      names.map(async (name): Promise<ClusterSummary | { name: string; error: string }> => {
        try {
          return await summarizeCluster(this.workdir, name, 800);
        } catch (error) {
          return { name, error: describeUnknown(error) };
        }
      }),
    );
    if (this.flags.output === 'json') {
      this.log(
        JSON.stringify(
          summaries.map((s) => ('error' in s ? s : { ...s, components: s.components.map((c) => ({ name: c.name, state: c.state, ready: c.ready })) })),
          null,
          2,
        ),
      );
      return;
    }
    this.log(renderTable([['NAME', 'READY', 'STATUS'], ...summaries.map((s) => ('error' in s ? [s.name, '0/0', 'Unknown'] : kwokctlClusterRow(s)))]));
  }
}
