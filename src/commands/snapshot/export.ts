import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { resolveToolFor } from '../../cluster/programs.js';
import { resolveOptionValues } from '../../config/load.js';
import { exportSnapshot } from '../../snapshot/snapshot.js';
import { snapshotFlags } from '../../snapshot/flags.js';

export default class SnapshotExport extends BaseCommand<typeof SnapshotExport> {
  static override summary = 'Export the objects of any cluster (by kubeconfig) as a k8s-format snapshot';
  static override description = 'The result restores into a kwokts cluster with `snapshot restore --format k8s`.';
  static override examples = ['<%= config.bin %> snapshot export --kubeconfig ~/.kube/config --path prod-objects.yaml'];
  static override flags = {
    path: snapshotFlags.path,
    filter: snapshotFlags.filter,
    kubeconfig: Flags.string({ description: 'kubeconfig of the cluster to export', required: true }),
  };

  async run(): Promise<void> {
    const { flags } = this;
    const config = await this.loadConfig();
    const kubectl = await resolveToolFor('kubectl', resolveOptionValues(config.fileOptions, process.env, {}), { workdir: this.workdir, logger: this.logger, signal: this.abort.signal });
    const count = await exportSnapshot({ kubeconfig: flags.kubeconfig, path: flags.path, filter: flags.filter, kubectl });
    this.logger.info(`Exported ${count} objects to ${flags.path}`);
  }
}
