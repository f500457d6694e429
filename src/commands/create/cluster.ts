import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { deprecatedFlagWarnings, givenOptionValues, optionFlags } from '../../cli/option-flags.js';
import { detectProgressMode, phaseRunner } from '../../cli/progress.js';
import { createCluster } from '../../cluster/create.js';
import { refreshPassthroughFacts } from '../../cli/launcher-facts.js';
import { resolveUserKubeconfigPath } from '../../kube/index.js';
import { waitFlags, waitPlan } from '../../cli/duration-flag.js';
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
    ...waitFlags('created'),
    retain: Flags.boolean({ description: 'keep a cluster whose create failed, for debugging', default: false }),
  };

  protected override interruptAction = 'rolling back';

  async run(): Promise<void> {
    const flags = this.flags;
    const { waitMs, waitFor } = waitPlan(flags.wait);
    this.armTimeout(flags.timeout);
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
      sources: { flags: given, env: process.env },
      userKubeconfig: flags.kubeconfig === '' ? '' : resolveUserKubeconfigPath(flags.kubeconfig),
      waitMs,
      waitFor,
      retain: flags.retain,
      logLevel: this.logLevel,
      executor,
      logger: this.logger,
      signal: this.abort.signal,
      runPhases: phaseRunner(detectProgressMode(this.logLevel > 4, flags['dry-run'])),
      onCommit: () => this.ignoreInterrupts(),
    });
    if (executor.dryRun) return;
    await refreshPassthroughFacts(this.workdir, result.name, this.logger);
    if (result.alreadyExisted) {
      this.logger.info(`Cluster ${result.name} already exists and is ready`);
      return;
    }
    const state = waitFor === 'apiserver' ? 'is started and kube-apiserver serves (--wait 0: the other components were not waited for)' : 'is ready';
    this.logger.info(`Cluster ${result.name} ${state} (${(result.elapsedMs / 1000).toFixed(1)}s); context ${result.context}`);
    this.logger.info(`You can now use it: kwokts --name ${result.name} kubectl get ns`);
  }
}
