import { readFile } from 'node:fs/promises';
import { BaseCommand } from '../../cli/base-command.js';
import { loadCluster } from '../../cluster/record.js';

export default class GetKubeconfig extends BaseCommand<typeof GetKubeconfig> {
  static override summary = "Print the cluster's kubeconfig";
  static override examples = ['<%= config.bin %> get kubeconfig > kwok.kubeconfig'];

  async run(): Promise<void> {
    const { paths } = await loadCluster(this.workdir, this.flags.name);
    process.stdout.write(await readFile(paths.kubeconfig, 'utf8'));
  }
}
