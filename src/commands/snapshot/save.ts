import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { SNAPSHOT_FLAGS } from '../../cli/command-flags.js';
import { toOclifFlags } from '../../cli/oclif-flags.js';
import { loadCluster } from '../../cluster/record.js';
import type { SnapshotFormat } from '../../snapshot/snapshot.js';
import { UsageError } from '../../util/errors.js';

export default class SnapshotSave extends BaseCommand<typeof SnapshotSave> {
  static override summary = 'Save a snapshot of the cluster (etcd snapshot or Kubernetes YAML)';
  static override description =
    'The path must not exist yet; a failed save leaves nothing behind. With --format k8s --record (a kwokts extension; kwokctl records with `snapshot export --record`), the save goes on: every change to the saved objects is appended until Ctrl-C, for `snapshot restore --format k8s --replay`.';
  static override examples = [
    '<%= config.bin %> snapshot save --path snap.db',
    '<%= config.bin %> snapshot save --path objects.yaml --format k8s',
    '<%= config.bin %> snapshot save --path recording.yaml --format k8s --record',
  ];
  static override flags = {
    ...toOclifFlags(SNAPSHOT_FLAGS),
    record: Flags.boolean({ description: 'k8s format: after the save, keep appending every change to the saved objects until Ctrl-C', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = this;
    // Imported here, not at the top: the help needs the flags, not the snapshot code.
    const { recordSnapshot, saveSnapshot } = await import('../../snapshot/snapshot.js');
    if (flags.record && !flags['dry-run']) {
      if (flags.format !== 'k8s') throw new UsageError('--record needs --format k8s', { hint: 'an etcd snapshot is one moment; a recording is a k8s-format file' });
      const { paths } = await loadCluster(this.workdir, flags.name);
      this.announceInterrupt = false;
      const result = await recordSnapshot({
        kubeconfig: paths.kubeconfig,
        path: flags.path,
        filter: flags.filter,
        logger: this.logger,
        signal: this.abort.signal,
        onRecording: (objects) => this.logger.info(`Saved ${objects} objects of ${flags.name} to ${flags.path}; recording their changes, press Ctrl+C to stop`),
      });
      this.logger.info(`Recorded ${result.changes} changes to ${flags.path}`);
      return;
    }
    const path = await saveSnapshot({ name: flags.name, workdir: this.workdir, path: flags.path, format: flags.format as SnapshotFormat, filter: flags.filter, executor: this.executor(), logger: this.logger, signal: this.abort.signal });
    if (!flags['dry-run']) this.logger.info(`Saved ${flags.format} snapshot of ${flags.name} to ${path}`);
  }
}
