import { BaseCommand } from '../../cli/base-command.js';
import type { CreateClusterFlags } from '../../cli/create-cluster.js';
import { optionFlags } from '../../cli/option-flags.js';
import { CREATE_CLUSTER_OWN_FLAGS } from '../../cli/command-flags.js';
import { toOclifFlags } from '../../cli/oclif-flags.js';

export default class CreateCluster extends BaseCommand<typeof CreateCluster> {
  static override summary = 'Create a cluster';
  static override description = 'Starts etcd, kube-apiserver, kube-controller-manager, kube-scheduler and the kwok controller, and adds the context kwok-<name> to your kubeconfig.';
  static override examples = ['<%= config.bin %> create cluster', '<%= config.bin %> --name ci create cluster --wait 2m', 'KWOK_KUBE_VERSION=v1.36.1 <%= config.bin %> create cluster --disable kube-scheduler'];

  // The fast path (src/cli/create-cluster-flags.ts) reads them from the same declarations.
  static override flags = {
    ...optionFlags(),
    ...toOclifFlags(CREATE_CLUSTER_OWN_FLAGS),
  };

  protected override interruptAction = 'rolling back';

  async run(): Promise<void> {
    // The plain form (no --dry-run, help or unusual flag syntax) usually runs on the fast path (src/cli/fast-path.ts) instead.
    // Imported here, not at the top: `create cluster --help` needs the flags, not the cluster code.
    const { createAndReport } = await import('../../cli/create-cluster.js');
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
