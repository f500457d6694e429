import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { createAndReport, type CreateClusterFlags } from '../../cli/create-cluster.js';
import { optionFlags } from '../../cli/option-flags.js';
import { waitFlags } from '../../cli/duration-flag.js';

export default class CreateCluster extends BaseCommand<typeof CreateCluster> {
  static override summary = 'Create a cluster';
  static override description = 'Starts etcd, kube-apiserver, kube-controller-manager, kube-scheduler and the kwok controller, and adds the context kwok-<name> to your kubeconfig.';
  static override examples = ['<%= config.bin %> create cluster', '<%= config.bin %> --name ci create cluster --wait 2m', 'KWOK_KUBE_VERSION=v1.36.1 <%= config.bin %> create cluster --disable kube-scheduler'];

  // The fast path (src/cli/create-cluster-fast.ts) reads these flags as CREATE_CLUSTER_FLAGS
  // (src/cli/create-cluster-flags.ts); a unit test keeps the two equal.
  static override flags = {
    ...optionFlags(),
    'extra-args': Flags.string({ description: 'extra argument for a component, COMPONENT=KEY=VALUE (repeatable), e.g. kube-apiserver=v=4', multiple: true, default: [] }),
    kubeconfig: Flags.string({ description: 'kubeconfig to add the context to (default $KUBECONFIG or ~/.kube/config; "" to skip)' }),
    ...waitFlags('created'),
    retain: Flags.boolean({ description: 'keep a cluster whose create failed, for debugging', default: false }),
  };

  protected override interruptAction = 'rolling back';

  async run(): Promise<void> {
    // The plain form (no --dry-run, help or unusual flag syntax) usually runs on the fast path (src/cli/fast-path.ts) instead.
    await createAndReport(this.flags as CreateClusterFlags, {
      workdir: this.workdir,
      logger: this.logger,
      logLevel: this.logLevel,
      executor: this.executor(),
      abort: this.abort,
      commit: () => this.ignoreInterrupts(),
    });
  }
}
