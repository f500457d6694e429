import { BaseCommand } from '../../cli/base-command.js';
import { SNAPSHOT_RESTORE_FLAGS } from '../../cli/command-flags.js';
import { toOclifFlags } from '../../cli/oclif-flags.js';
import { restoreAndReport } from '../../cli/snapshot-restore.js';
import type { SnapshotFormat } from '../../snapshot/snapshot.js';

export default class SnapshotRestore extends BaseCommand<typeof SnapshotRestore> {
  static override summary = 'Restore the cluster from a snapshot';
  static override description =
    'etcd format: etcd\'s data is replaced by the snapshot. On a running cluster etcd restarts, the restored revisions start above the old ones and every watch is invalidated, so the apiserver and the kwok controller re-list; kube-controller-manager and kube-scheduler restart once the apiserver serves the restored data (as kwokctl restarts them); the command returns once every component is ready on it. With an etcdutl older than --bump-revision, or a stopped cluster, the whole cluster is restarted. The old data is put back if etcd does not start on the snapshot. k8s format: the objects are created through the API with owner references re-linked; objects that already exist are left as they are. A recording (written by `snapshot export --record` or `snapshot save --format k8s --record`, kwokts\' or kwokctl\'s) restores its objects; with --replay (a kwokts extension) its recorded changes are then applied in order, each at its recorded moment, with the cluster\'s controllers stopped until the end.';
  static override examples = [
    '<%= config.bin %> snapshot restore --path snap.db',
    '<%= config.bin %> snapshot restore --path objects.yaml --format k8s',
    '<%= config.bin %> snapshot restore --path recording.yaml --format k8s --replay',
  ];
  static override flags = toOclifFlags(SNAPSHOT_RESTORE_FLAGS);

  async run(): Promise<void> {
    const { flags } = this;
    // The plain etcd form (no --dry-run, -c or --filter) usually runs on the fast path (src/cli/fast-path.ts) instead.
    await restoreAndReport({ name: flags.name, workdir: this.workdir, path: flags.path, format: flags.format as SnapshotFormat, filter: flags.filter, executor: this.executor(), logger: this.logger, signal: this.abort.signal, replay: flags.replay });
  }
}
