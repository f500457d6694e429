import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { startCluster } from '../../cluster/lifecycle.js';
import { parseGoDuration } from '../../util/duration.js';
import { UsageError } from '../../util/errors.js';

export default class StartCluster extends BaseCommand<typeof StartCluster> {
  static override summary = 'Start a stopped cluster, or restart its crashed components';
  static override description = 'Starts every component that is not running, in dependency order, and waits until the cluster is ready. Running components are left alone.';
  static override examples = ['<%= config.bin %> start cluster', '<%= config.bin %> --name ci start cluster --wait 2m'];

  static override flags = {
    wait: Flags.string({ description: 'how long to wait for the cluster to be ready (e.g. 30s, 2m); exits non-zero when it is not', default: '0s' }),
    timeout: Flags.string({ description: 'alias of --wait', hidden: true }),
  };

  async run(): Promise<void> {
    const waitText = this.flags.timeout ?? this.flags.wait;
    const waitMs = parseGoDuration(waitText);
    if (waitMs === undefined || waitMs < 0) throw new UsageError(`invalid duration ${JSON.stringify(waitText)} for --wait`, { hint: 'use a Go duration such as 30s, 2m or 1h' });
    const executor = this.executor();
    const started = Date.now();
    const result = await startCluster({ name: this.flags.name, workdir: this.workdir, waitMs, executor, logger: this.logger, signal: this.abort.signal });
    if (executor.dryRun) return;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (result.started.length === 0) this.logger.info(`Cluster ${this.flags.name} is already running and ready`);
    else if (result.restarted.length > 0) this.logger.info(`Cluster ${this.flags.name} is ready (${seconds}s); restarted crashed ${result.restarted.join(', ')}`);
    else this.logger.info(`Cluster ${this.flags.name} is ready (${seconds}s)`);
  }
}
