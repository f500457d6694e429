import { BaseCommand } from '../../cli/base-command.js';
import { restoreSnapshot, type SnapshotFormat } from '../../snapshot/snapshot.js';
import { snapshotFlags } from '../../snapshot/flags.js';

export default class SnapshotRestore extends BaseCommand<typeof SnapshotRestore> {
  static override summary = 'Restore the cluster from a snapshot';
  static override description = 'etcd format: the cluster is stopped, its etcd data replaced by the snapshot (the old data is put back if the cluster does not start on it) and started again. k8s format: the objects are created through the API with owner references re-linked; objects that already exist are left as they are.';
  static override examples = ['<%= config.bin %> snapshot restore --path snap.db', '<%= config.bin %> snapshot restore --path objects.yaml --format k8s'];
  static override flags = { ...snapshotFlags };

  async run(): Promise<void> {
    const { flags } = this;
    const started = Date.now();
    const result = await restoreSnapshot({ name: flags.name, workdir: this.workdir, path: flags.path, format: flags.format as SnapshotFormat, filter: flags.filter, executor: this.executor(), logger: this.logger, signal: this.abort.signal });
    if (flags['dry-run']) return;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (flags.format === 'k8s') this.logger.info(`Restored ${flags.name} from ${flags.path} in ${seconds}s: ${result.created} objects created, ${result.existed} already existed`);
    else this.logger.info(`Restored ${flags.name} from ${flags.path} in ${seconds}s`);
  }
}
