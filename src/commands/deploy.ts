import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command.js';
import { DEFAULT_KWOK_CONTROLLER_IMAGE } from '../artifacts/images.js';
import { deploy } from '../deploy/deploy.js';
import { renderDeployManifests } from '../deploy/manifests.js';
import { resolveUserKubeconfigPath } from '../kube/index.js';

export default class Deploy extends BaseCommand<typeof Deploy> {
  static override summary = 'Run the kwok controller in an existing cluster (print or apply kwok.yaml and stage-fast.yaml)';
  static override description =
    "Applies, with server-side apply, the Stage CRD, the controller's ServiceAccount and least-privilege RBAC, a Service and a Deployment in kube-system (image pinned to this version, leader election on), then the default Stages. With --dry-run or -o yaml the manifests are printed instead (kwok's release assets kwok.yaml and stage-fast.yaml). Nodes annotated kwok.x-k8s.io/node=fake are managed, including nodes created before the controller or the stages.";
  static override examples = [
    '<%= config.bin %> deploy --kubeconfig ~/.kube/config',
    '<%= config.bin %> deploy --context prod-sim --no-stages',
    '<%= config.bin %> deploy -o yaml > kwok-in-cluster.yaml',
  ];
  static override flags = {
    kubeconfig: Flags.string({ description: 'kubeconfig of the target cluster (default: $KUBECONFIG, then ~/.kube/config)' }),
    context: Flags.string({ description: 'kubeconfig context to use (default: its current context)' }),
    output: Flags.string({ char: 'o', description: 'print the manifests instead of applying them', options: ['yaml'] }),
    stages: Flags.boolean({ description: 'also apply the default Stages (stage-fast.yaml)', default: true, allowNo: true }),
    replicas: Flags.integer({ description: 'controller replicas; above 1 they share the nodes as shards (--shard) instead of electing a leader', default: 1, min: 1 }),
    image: Flags.string({ description: `controller image (default ${DEFAULT_KWOK_CONTROLLER_IMAGE}); for a mirror registry` }),
  };

  async run(): Promise<void> {
    const { flags } = this;
    const render = { stages: flags.stages, replicas: flags.replicas, ...(flags.image ? { image: flags.image } : {}) };
    if (flags['dry-run'] || flags.output === 'yaml') {
      process.stdout.write(renderDeployManifests(render));
      return;
    }
    const kubeconfig = resolveUserKubeconfigPath(flags.kubeconfig);
    const applied = await deploy({
      ...render,
      kubeconfig,
      ...(flags.context ? { context: flags.context } : {}),
      onApplied: (reference) => process.stdout.write(`${reference} serverside-applied\n`),
      signal: this.abort.signal,
    });
    this.logger.info(`applied ${applied.length} objects; watch the rollout with: kubectl -n kube-system rollout status deployment/kwok-controller`);
  }
}
