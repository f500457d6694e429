import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { listClusterNames } from '../../cluster/record.js';

export default class GetClusters extends BaseCommand<typeof GetClusters> {
  static override summary = 'List clusters';
  static override examples = ['<%= config.bin %> get clusters'];
  static override flags = {
    output: Flags.string({ char: 'o', description: 'output format', options: ['name', 'json'], default: 'name' }),
  };

  async run(): Promise<void> {
    const names = listClusterNames(this.workdir);
    if (this.flags.output === 'json') this.log(JSON.stringify(names.map((name) => ({ name })), null, 2));
    else for (const name of names) this.log(name);
  }
}
