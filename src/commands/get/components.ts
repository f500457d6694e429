import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { renderTable, summarizeCluster } from '../../cluster/summary.js';

export default class GetComponents extends BaseCommand<typeof GetComponents> {
  static override summary = "List the cluster's components with their state and readiness";
  static override examples = ['<%= config.bin %> get components', '<%= config.bin %> get components -o wide', '<%= config.bin %> get components -o json'];
  static override flags = {
    output: Flags.string({ char: 'o', description: 'output format', options: ['table', 'wide', 'json'], default: 'table' }),
  };

  async run(): Promise<void> {
    const summary = await summarizeCluster(this.workdir, this.flags.name);
    if (this.flags.output === 'json') {
      this.log(JSON.stringify(summary.components, null, 2));
      return;
    }
    const wide = this.flags.output === 'wide';
    const head = ['NAME', 'STATE', 'READY', ...(wide ? ['PID', 'PORTS', 'DETAIL'] : [])];
    const rows = summary.components.map((c) => [c.name, c.state, String(c.ready), ...(wide ? [c.id ?? '-', c.ports.join(',') || '-', c.detail || '-'] : [])]);
    this.log(renderTable([head, ...rows]));
  }
}
