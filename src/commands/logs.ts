import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command.js';

export default class Logs extends BaseCommand<typeof Logs> {
  static override summary = "Print a component's log (`audit` for the apiserver's audit log)";
  static override examples = ['<%= config.bin %> logs kube-apiserver', '<%= config.bin %> logs -f kwok-controller', '<%= config.bin %> logs audit'];
  static override args = {
    component: Args.string({ description: 'component name, or audit', required: true }),
  };
  static override flags = {
    follow: Flags.boolean({ char: 'f', description: 'keep printing new lines until interrupted', default: false }),
  };

  protected override announceInterrupt = false;

  async run(): Promise<void> {
    // Imported here, not at the top: the help needs the flags, not the cluster record and log code.
    const [{ loadCluster }, { printComponentLog }] = await Promise.all([import('../cluster/record.js'), import('../cluster/logs.js')]);
    const cluster = await loadCluster(this.workdir, this.flags.name);
    await printComponentLog(cluster, this.args.component, process.stdout, { follow: this.flags.follow, signal: this.abort.signal });
  }
}
