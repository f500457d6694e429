import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { SNAPSHOT_FLAGS } from '../../cli/command-flags.js';
import { toOclifFlags } from '../../cli/oclif-flags.js';
import { resolveOptionValues } from '../../config/load.js';
import { UsageError } from '../../util/errors.js';

export default class SnapshotExport extends BaseCommand<typeof SnapshotExport> {
  static override summary = 'Export the objects of any cluster (by kubeconfig) as a k8s-format snapshot';
  static override description =
    'The result restores into a kwokts cluster with `snapshot restore --format k8s`. With --record, the export goes on: every change to those objects is appended (as a ResourcePatch) until Ctrl-C, and `snapshot restore --format k8s --replay` plays them back.';
  static override examples = [
    '<%= config.bin %> snapshot export --kubeconfig ~/.kube/config --path prod-objects.yaml',
    '<%= config.bin %> snapshot export --path objs.yaml --as alice --as-group devs --page-size 100',
    '<%= config.bin %> snapshot export --path recording.yaml --record',
  ];
  static override flags = {
    ...toOclifFlags({ path: SNAPSHOT_FLAGS.path, filter: SNAPSHOT_FLAGS.filter }),
    kubeconfig: Flags.string({ description: 'kubeconfig of the cluster to export', defaultHelp: async () => '$KUBECONFIG or ~/.kube/config' }),
    as: Flags.string({ description: 'user to impersonate for the listing (a user or system:serviceaccount:NAMESPACE:NAME)' }),
    'as-group': Flags.string({ description: 'group to impersonate (repeatable or comma-separated)', multiple: true, delimiter: ',' }),
    'page-size': Flags.integer({ description: 'objects per list request', default: 500, min: 1 }),
    'page-buffer-size': Flags.integer({ description: 'pages kwokctl buffers ahead; ignored by kwokts, which lists one page at a time (another value gets a warning)', default: 10 }),
    record: Flags.boolean({ description: 'after the export, keep appending every change to the exported objects until Ctrl-C', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = this;
    if (flags['page-buffer-size'] !== 10) this.logger.warn(`--page-buffer-size ${flags['page-buffer-size']} has no effect: kwokts lists one page at a time`);
    // Imported here, not at the top: the help needs the flags, not the snapshot and kube client code.
    const [{ resolveToolFor }, { resolveUserKubeconfigPath }, { exportSnapshot, recordSnapshot }] = await Promise.all([
      import('../../cluster/programs.js'),
      import('../../kube/index.js'),
      import('../../snapshot/snapshot.js'),
    ]);
    const kubeconfig = resolveUserKubeconfigPath(flags.kubeconfig);
    if (flags.record) {
      if (flags.as || (flags['as-group'] ?? []).length > 0) throw new UsageError('--record cannot impersonate (--as, --as-group)', { hint: 'record with a kubeconfig whose user may list and watch the filtered resources' });
      this.announceInterrupt = false;
      const result = await recordSnapshot({
        kubeconfig,
        path: flags.path,
        filter: flags.filter,
        logger: this.logger,
        signal: this.abort.signal,
        onRecording: (objects) => this.logger.info(`Exported ${objects} objects to ${flags.path}; recording their changes, press Ctrl+C to stop`),
      });
      this.logger.info(`Recorded ${result.changes} changes to ${flags.path}`);
      return;
    }
    const config = await this.loadConfig();
    const kubectl = await resolveToolFor('kubectl', resolveOptionValues(config.fileOptions, process.env, {}), { workdir: this.workdir, logger: this.logger, signal: this.abort.signal });
    const count = await exportSnapshot({
      kubeconfig,
      path: flags.path,
      filter: flags.filter,
      kubectl,
      ...(flags.as ? { as: flags.as } : {}),
      asGroups: flags['as-group'] ?? [],
      pageSize: flags['page-size'],
    });
    this.logger.info(`Exported ${count} objects to ${flags.path}`);
  }
}
