import { PassthroughCommand } from '../cli/passthrough-command.js';

export default class Kwok extends PassthroughCommand {
  static override summary = 'Run the kwok controller against any cluster';
  static override description = "The embedded controller, out of cluster, with kwok's own flags (e.g. --kubeconfig, --manage-all-nodes, --manage-nodes-with-annotation-selector, --config, --cidr, --node-ip). Every argument after `kwok` is the controller's; `kwokts kwok --help` lists them. Runs until interrupted.";
  static override examples = [
    '<%= config.bin %> kwok --kubeconfig ~/.kube/config --manage-all-nodes=false --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake --config stages.yaml',
  ];

  async run(): Promise<void> {
    // Imported here, not at the top: `kwokts --help` lists this command without loading the controller.
    const { runKwokController } = await import('../kwok/index.js');
    await runKwokController(this.toolArgs(), { signal: this.abort.signal, logger: this.logger });
  }
}
