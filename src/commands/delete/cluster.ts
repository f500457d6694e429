import { BaseCommand } from '../../cli/base-command.js';
import { DELETE_CLUSTER_FLAGS } from '../../cli/command-flags.js';
import { toOclifFlags } from '../../cli/oclif-flags.js';
import { deleteAndReport } from '../../cli/delete-cluster.js';
import { listClusterNames } from '../../cluster/record.js';

export default class DeleteCluster extends BaseCommand<typeof DeleteCluster> {
  static override summary = 'Delete a cluster';
  static override description = 'Stops its components, removes its directory and its kubeconfig context. A cluster that does not exist gives a warning and exit 0 (as kwokctl), so cleanup steps may run it unconditionally.';
  static override examples = ['<%= config.bin %> delete cluster', '<%= config.bin %> --name ci delete cluster', '<%= config.bin %> delete cluster --all'];

  static override flags = toOclifFlags(DELETE_CLUSTER_FLAGS);

  async run(): Promise<void> {
    const names = this.flags.all ? listClusterNames(this.workdir) : [this.flags.name];
    const executor = this.executor();
    // The plain form (one cluster, no --dry-run) usually runs on the fast path (src/cli/fast-path.ts) instead.
    for (const name of names) await deleteAndReport({ name, workdir: this.workdir, kubeconfig: this.flags.kubeconfig, executor, logger: this.logger, force: this.flags.force });
    if (this.flags.all && names.length === 0) this.logger.info('No clusters to delete');
  }
}
