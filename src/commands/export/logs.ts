import { Args } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { exportLogs } from '../../cluster/export-logs.js';

export default class ExportLogs extends BaseCommand<typeof ExportLogs> {
  static override summary = "Collect the cluster's config, component logs and state into a directory";
  static override description = 'Default directory: export/logs inside the cluster directory (replaced on each export). Into a directory you name, the export goes to DIR/<cluster name>, which must be empty or new.';
  static override examples = ['<%= config.bin %> export logs', '<%= config.bin %> export logs ./kwok-logs', '<%= config.bin %> --dry-run export logs'];
  static override args = {
    dir: Args.string({ description: 'output directory (the export goes into DIR/<cluster name>)' }),
  };

  async run(): Promise<void> {
    if (this.flags['dry-run']) {
      await exportLogs(this.workdir, this.flags.name, this.args.dir, (line) => process.stdout.write(`${line}\n`));
      return;
    }
    const { dir, files } = await exportLogs(this.workdir, this.flags.name, this.args.dir);
    this.logger.info(`Exported ${files.length} files to ${dir}`);
  }
}
