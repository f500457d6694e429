import { BaseCommand } from '../../cli/base-command.js';
import { GET_CLUSTERS_FLAGS } from '../../cli/command-flags.js';
import { toOclifFlags } from '../../cli/oclif-flags.js';
import type { ClusterListFormat } from '../../cluster/cluster-list-format.js';
import { listClusters } from '../../cluster/list-clusters.js';

export default class GetClusters extends BaseCommand<typeof GetClusters> {
  static override summary = 'List clusters';
  static override description =
    "Output as kwokctl's: one name per line, or with -o wide a NAME READY STATUS table (STATUS Ready, NotReady, Stopped or Unknown). -o json adds each cluster's runtime, apiserver address and component states. Clusters made by kwokctl in the same workdir are listed too.";
  static override examples = ['<%= config.bin %> get clusters', '<%= config.bin %> get clusters -o wide', '<%= config.bin %> get clusters -o json'];
  static override flags = toOclifFlags(GET_CLUSTERS_FLAGS);

  async run(): Promise<void> {
    await listClusters(this.workdir, this.flags.output as ClusterListFormat, (line) => this.log(line));
  }
}
