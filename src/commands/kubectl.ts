import { PassthroughCommand } from '../cli/passthrough-command.js';
import { kubectlInvocation, runInherited } from '../cluster/passthrough.js';
import { loadCluster } from '../cluster/record.js';
import { resolveTool } from '../cluster/programs.js';

export default class Kubectl extends PassthroughCommand {
  static override summary = 'Run kubectl against the cluster';
  static override description = 'Every argument after `kubectl` is passed to kubectl unchanged; stdin, stdout and stderr are inherited and the exit code is kubectl\'s.';
  static override examples = ['<%= config.bin %> kubectl get ns', '<%= config.bin %> --name ci kubectl apply -f - < deploy.yaml'];

  async run(): Promise<void> {
    const { record, paths } = await loadCluster(this.workdir, this.flags.name);
    const kubectl = await resolveTool('kubectl', record, { workdir: this.workdir, logger: this.logger, signal: this.abort.signal });
    process.exitCode = await runInherited(kubectlInvocation(kubectl, paths, this.toolArgs()));
  }
}
