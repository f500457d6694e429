import { BaseCommand } from '../../cli/base-command.js';
import { stopCluster } from '../../cluster/lifecycle.js';

export default class StopCluster extends BaseCommand<typeof StopCluster> {
  static override summary = 'Stop a cluster, keeping its data';
  static override description = 'Stops every component: processes get 10 s to exit, containers are stopped at once (as kwokctl stops them). Objects, certificates and configuration are kept; `start cluster` brings the same cluster back.';
  static override examples = ['<%= config.bin %> stop cluster', '<%= config.bin %> --name ci stop cluster'];

  async run(): Promise<void> {
    const executor = this.executor();
    const { stopped } = await stopCluster({ name: this.flags.name, workdir: this.workdir, executor, logger: this.logger, signal: this.abort.signal });
    if (executor.dryRun) return;
    if (stopped.length === 0) this.logger.info(`Cluster ${this.flags.name} was already stopped`);
    else this.logger.info(`Cluster ${this.flags.name} stopped (${stopped.join(', ')})`);
  }
}
