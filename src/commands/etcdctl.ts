import { PassthroughCommand } from '../cli/passthrough-command.js';
import { etcdctlInvocation, runInherited } from '../cluster/passthrough.js';
import { loadCluster } from '../cluster/record.js';
import { resolveTool } from '../cluster/programs.js';

export default class Etcdctl extends PassthroughCommand {
  static override summary = "Run etcdctl against the cluster's etcd";
  static override description = "Every argument after `etcdctl` is passed to etcdctl unchanged, with the endpoint and etcd's client certificate set (a flag you repeat wins); the exit code is etcdctl's.";
  static override examples = ['<%= config.bin %> etcdctl get /registry --prefix --keys-only'];

  async run(): Promise<void> {
    const { record, paths } = await loadCluster(this.workdir, this.flags.name);
    const etcdctl = await resolveTool('etcdctl', record, { workdir: this.workdir, logger: this.logger, signal: this.abort.signal });
    process.exitCode = await runInherited(etcdctlInvocation(etcdctl, record, paths, this.toolArgs()));
  }
}
