import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { CLUSTER_LIST_FORMATS, type ClusterListFormat } from '../../cluster/cluster-list-format.js';
import { listClusters } from '../../cluster/list-clusters.js';

export default class GetClusters extends BaseCommand<typeof GetClusters> {
  static override summary = 'List clusters';
  static override description =
    "Output as kwokctl's: one name per line, or with -o wide a NAME READY STATUS table (STATUS Ready, NotReady, Stopped or Unknown). -o json adds each cluster's runtime, apiserver address and component states. Clusters made by kwokctl in the same workdir are listed too.";
  static override examples = ['<%= config.bin %> get clusters', '<%= config.bin %> get clusters -o wide', '<%= config.bin %> get clusters -o json'];
  static override flags = {
    output: Flags.string({ char: 'o', description: 'output format', options: [...CLUSTER_LIST_FORMATS], default: 'name' }),
  };

  async run(): Promise<void> {
    await listClusters(this.workdir, this.flags.output as ClusterListFormat, (line) => this.log(line));
  }
}
