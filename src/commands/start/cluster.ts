import { BaseCommand } from '../../cli/base-command.js';
import { startCluster } from '../../cluster/lifecycle.js';
import { waitFlags } from '../../cli/command-flags.js';
import { waitPlan } from '../../cli/duration-flag.js';
import { toOclifFlags } from '../../cli/oclif-flags.js';
import { refreshPassthroughFacts } from '../../cli/launcher-facts.js';

export default class StartCluster extends BaseCommand<typeof StartCluster> {
  static override summary = 'Start a stopped cluster, or restart its crashed components';
  static override description = 'Starts every component that is not running, in dependency order, and waits until the cluster is ready (--wait). Running components are left alone.';
  static override examples = ['<%= config.bin %> start cluster', '<%= config.bin %> --name ci start cluster --wait 2m'];

  static override flags = toOclifFlags(waitFlags('started'));

  async run(): Promise<void> {
    const { waitMs, waitFor } = waitPlan(this.flags.wait);
    this.armTimeout(this.flags.timeout);
    const executor = this.executor();
    const started = Date.now();
    const result = await startCluster({ name: this.flags.name, workdir: this.workdir, waitMs, waitFor, executor, logger: this.logger, signal: this.abort.signal });
    if (executor.dryRun) return;
    await refreshPassthroughFacts(this.workdir, this.flags.name, this.logger);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (waitFor === 'apiserver' && result.started.length > 0) this.logger.info(`Cluster ${this.flags.name} is started and kube-apiserver serves (${seconds}s; --wait 0: the other components were not waited for)`);
    else if (result.started.length === 0) this.logger.info(`Cluster ${this.flags.name} is already running and ready`);
    else if (result.restarted.length > 0) this.logger.info(`Cluster ${this.flags.name} is ready (${seconds}s); restarted crashed ${result.restarted.join(', ')}`);
    else this.logger.info(`Cluster ${this.flags.name} is ready (${seconds}s)`);
  }
}
