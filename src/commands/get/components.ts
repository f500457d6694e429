import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { kwokctlComponentStatus, renderTable, summarizeCluster } from '../../cluster/summary.js';

export default class GetComponents extends BaseCommand<typeof GetComponents> {
  static override summary = "List the cluster's components";
  static override description =
    "Output as kwokctl's: one name per line, or with -o wide a NAME STATUS table (STATUS Ready, NotReady or Stopped). -o json adds each component's process state (running, stopped, exited), readiness, pid or container id, ports and why it is not ready.";
  static override examples = ['<%= config.bin %> get components', '<%= config.bin %> get components -o wide', '<%= config.bin %> get components -o json'];
  static override flags = {
    output: Flags.string({ char: 'o', description: 'output format', options: ['name', 'wide', 'json'], default: 'name' }),
  };

  async run(): Promise<void> {
    const summary = await summarizeCluster(this.workdir, this.flags.name);
    if (this.flags.output === 'json') {
      this.log(JSON.stringify(summary.components, null, 2));
      return;
    }
    if (this.flags.output === 'name') {
      for (const c of summary.components) this.log(c.name);
      return;
    }
    this.log(renderTable([['NAME', 'STATUS'], ...summary.components.map((c) => [c.name, kwokctlComponentStatus(c)])]));
  }
}
