import { BaseCommand } from '../../cli/base-command.js';
import { saveSnapshot, type SnapshotFormat } from '../../snapshot/snapshot.js';
import { snapshotFlags } from '../../snapshot/flags.js';

export default class SnapshotSave extends BaseCommand<typeof SnapshotSave> {
  static override summary = 'Save a snapshot of the cluster (etcd snapshot or Kubernetes YAML)';
  static override description = 'The path must not exist yet; a failed save leaves nothing behind.';
  static override examples = ['<%= config.bin %> snapshot save --path snap.db', '<%= config.bin %> snapshot save --path objects.yaml --format k8s'];
  static override flags = { ...snapshotFlags };

  async run(): Promise<void> {
    const { flags } = this;
    const path = await saveSnapshot({ name: flags.name, workdir: this.workdir, path: flags.path, format: flags.format as SnapshotFormat, filter: flags.filter, executor: this.executor(), logger: this.logger, signal: this.abort.signal });
    if (!flags['dry-run']) this.logger.info(`Saved ${flags.format} snapshot of ${flags.name} to ${path}`);
  }
}
