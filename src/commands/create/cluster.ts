import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { deprecatedFlagWarnings, givenOptionValues, optionFlags } from '../../cli/option-flags.js';
import { detectProgressMode, phaseRunner } from '../../cli/progress.js';
import { createCluster } from '../../cluster/create.js';
import { resolveUserKubeconfigPath } from '../../kubeconfig/index.js';
import { parseGoDuration } from '../../util/duration.js';
import { UsageError } from '../../util/errors.js';
import { parseExtraArgs } from '../../config/extra-args.js';
import { resolveOptionValues, unsupportedOptionWarnings } from '../../config/resolve.js';

export default class CreateCluster extends BaseCommand<typeof CreateCluster> {
  static override summary = 'Create a cluster';
  static override description = 'Starts etcd, kube-apiserver, kube-controller-manager, kube-scheduler and the kwok controller, and adds the context kwok-<name> to your kubeconfig.';
  static override examples = ['<%= config.bin %> create cluster', '<%= config.bin %> --name ci create cluster --wait 2m', 'KWOK_KUBE_VERSION=v1.36.1 <%= config.bin %> create cluster --disable kube-scheduler'];

  static override flags = {
    ...optionFlags(),
    'extra-args': Flags.string({ description: 'extra argument for a component, COMPONENT=KEY=VALUE (repeatable), e.g. kube-apiserver=v=4', multiple: true, default: [] }),
    kubeconfig: Flags.string({ description: 'kubeconfig to add the context to (default $KUBECONFIG or ~/.kube/config; "" to skip)' }),
    wait: Flags.string({ description: 'how long to wait for the cluster to be ready (e.g. 30s, 2m); exits non-zero when it is not', default: '0s' }),
    timeout: Flags.string({ description: 'alias of --wait for the whole create', hidden: true }),
    retain: Flags.boolean({ description: 'keep a cluster whose create failed, for debugging', default: false }),
  };

  async run(): Promise<void> {
    const flags = this.flags;
    const waitText = flags.timeout ?? flags.wait;
    const waitMs = parseGoDuration(waitText);
    if (waitMs === undefined || waitMs < 0) throw new UsageError(`invalid duration ${JSON.stringify(waitText)} for --wait`, { hint: 'use a Go duration such as 30s, 2m or 1h' });
    const config = await this.loadConfig();
    // Flags come after config files, so their arguments land last and win.
    config.componentsPatches = [...config.componentsPatches, ...parseExtraArgs(flags['extra-args'])];
    const given = givenOptionValues(flags as Record<string, unknown>);
    const values = resolveOptionValues(config.fileOptions, process.env, given);
    for (const line of [...deprecatedFlagWarnings(given), ...unsupportedOptionWarnings({ fileOptions: config.fileOptions, optionSources: config.optionSources, env: process.env, flags: given }, this.workdir)]) {
      this.logger.warn(line);
    }
    const executor = this.executor();
    const result = await createCluster({
      name: flags.name,
      workdir: this.workdir,
      config,
      values,
      userKubeconfig: flags.kubeconfig === '' ? '' : resolveUserKubeconfigPath(flags.kubeconfig),
      waitMs,
      retain: flags.retain,
      logLevel: this.logLevel,
      executor,
      logger: this.logger,
      signal: this.abort.signal,
      runPhases: phaseRunner(detectProgressMode(this.logLevel > 4, flags['dry-run'])),
    });
    if (executor.dryRun) return;
    if (result.alreadyExisted) {
      this.logger.info(`Cluster ${result.name} already exists and is ready`);
      return;
    }
    this.logger.info(`Cluster ${result.name} is ready (${(result.elapsedMs / 1000).toFixed(1)}s); context ${result.context}`);
    this.logger.info(`You can now use it: kwokts --name ${result.name} kubectl get ns`);
  }
}
