import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { renderTable, summarizeCluster } from '../../cluster/summary.js';

export default class GetComponents extends BaseCommand<typeof GetComponents> {
  static override summary = "List the cluster's components with their state and readiness";
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
    // kwokctl's NAME STATUS first, then what we know beyond it.
    const rows = summary.components.map((c) => [c.name, c.state, String(c.ready), c.id ?? '-', c.ports.join(',') || '-', c.detail || '-']);
    this.log(renderTable([['NAME', 'STATUS', 'READY', 'PID', 'PORTS', 'DETAIL'], ...rows]));
  }
}
