import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { restoreSnapshot, type SnapshotFormat } from '../../snapshot/snapshot.js';
import { snapshotFlags } from '../../snapshot/flags.js';

export default class SnapshotRestore extends BaseCommand<typeof SnapshotRestore> {
  static override summary = 'Restore the cluster from a snapshot';
  static override description =
    'etcd format: etcd\'s data is replaced by the snapshot. On a running cluster only etcd restarts, the restored revisions start above the old ones and every watch is invalidated, so the apiserver and the controllers re-list; the command returns once the apiserver serves the restored data. With an etcdutl older than --bump-revision, or a stopped cluster, the whole cluster is restarted. The old data is put back if etcd does not start on the snapshot. k8s format: the objects are created through the API with owner references re-linked; objects that already exist are left as they are. A recording (written by `snapshot export --record` or `snapshot save --format k8s --record`, kwokts\' or kwokctl\'s) restores its objects; with --replay (a kwokts extension) its recorded changes are then applied in order, each at its recorded moment, with the cluster\'s controllers stopped until the end.';
  static override examples = [
    '<%= config.bin %> snapshot restore --path snap.db',
    '<%= config.bin %> snapshot restore --path objects.yaml --format k8s',
    '<%= config.bin %> snapshot restore --path recording.yaml --format k8s --replay',
  ];
  static override flags = {
    ...snapshotFlags,
    replay: Flags.boolean({ description: 'k8s format: after the objects, replay the recorded changes with their timing', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = this;
    const started = Date.now();
    const result = await restoreSnapshot({ name: flags.name, workdir: this.workdir, path: flags.path, format: flags.format as SnapshotFormat, filter: flags.filter, executor: this.executor(), logger: this.logger, signal: this.abort.signal, replay: flags.replay });
    if (flags['dry-run']) return;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (flags.format !== 'k8s') {
      this.logger.info(`Restored ${flags.name} from ${flags.path} in ${seconds}s`);
      return;
    }
    this.logger.info(`Restored ${flags.name} from ${flags.path} in ${seconds}s: ${result.created} objects created, ${result.existed} already existed`);
    if (result.replayed) this.logger.info(`Replayed ${result.replayed.applied} of ${result.recorded} recorded changes${result.replayed.failed > 0 ? ` (${result.replayed.failed} failed; see the warnings above)` : ''}`);
    else if (result.recorded > 0) this.logger.info(`${result.recorded} recorded changes in ${flags.path} were not replayed (add --replay to play them back)`);
  }
}
