import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { resolveToolFor } from '../../cluster/programs.js';
import { resolveOptionValues } from '../../config/load.js';
import { resolveUserKubeconfigPath } from '../../kube/index.js';
import { exportSnapshot } from '../../snapshot/snapshot.js';
import { snapshotFlags } from '../../snapshot/flags.js';
import { UsageError } from '../../util/errors.js';

export default class SnapshotExport extends BaseCommand<typeof SnapshotExport> {
  static override summary = 'Export the objects of any cluster (by kubeconfig) as a k8s-format snapshot';
  static override description = 'The result restores into a kwokts cluster with `snapshot restore --format k8s`.';
  static override examples = [
    '<%= config.bin %> snapshot export --kubeconfig ~/.kube/config --path prod-objects.yaml',
    '<%= config.bin %> snapshot export --path objs.yaml --as alice --as-group devs --page-size 100',
  ];
  static override flags = {
    path: snapshotFlags.path,
    filter: snapshotFlags.filter,
    kubeconfig: Flags.string({ description: 'kubeconfig of the cluster to export', defaultHelp: async () => '$KUBECONFIG or ~/.kube/config' }),
    as: Flags.string({ description: 'user to impersonate for the listing (a user or system:serviceaccount:NAMESPACE:NAME)' }),
    'as-group': Flags.string({ description: 'group to impersonate (repeatable or comma-separated)', multiple: true, delimiter: ',' }),
    'page-size': Flags.integer({ description: 'objects per list request', default: 500, min: 1 }),
    'page-buffer-size': Flags.integer({ description: 'pages kwokctl buffers ahead; kwokts lists one page at a time, so any other value only gets a warning', default: 10 }),
    record: Flags.boolean({ description: 'keep recording changes after the export (not supported yet: exits 2)', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = this;
    if (flags.record) throw new UsageError('snapshot export --record is not supported yet', { hint: 'export without --record (a snapshot of the objects as they are now)' });
    if (flags['page-buffer-size'] !== 10) this.logger.warn(`--page-buffer-size ${flags['page-buffer-size']} has no effect: kwokts lists one page at a time`);
    const config = await this.loadConfig();
    const kubectl = await resolveToolFor('kubectl', resolveOptionValues(config.fileOptions, process.env, {}), { workdir: this.workdir, logger: this.logger, signal: this.abort.signal });
    const count = await exportSnapshot({
      kubeconfig: resolveUserKubeconfigPath(flags.kubeconfig),
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
