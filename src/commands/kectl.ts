import { PassthroughCommand } from '../cli/passthrough-command.js';
import { kectlForCluster } from '../cluster/kectl.js';
import { runInherited } from '../cluster/passthrough.js';
import { loadCluster } from '../cluster/record.js';

export default class Kectl extends PassthroughCommand {
  static override summary = "[experimental] Run kectl (kubectl-like, straight against etcd) on the cluster's etcd";
  static override description = 'Every argument after `kectl` is passed to kectl unchanged, with --endpoints set to the cluster\'s etcd; the exit code is kectl\'s. kectl is not downloaded: set KWOK_KECTL_BINARY (or kectlBinary in the cluster\'s config) to its path, or put kectl on PATH.';
  static override examples = [
    '<%= config.bin %> kectl get no node-0 -o yaml',
    '<%= config.bin %> kectl snapshot record --path recording.yaml',
  ];

  async run(): Promise<void> {
    const { record, paths } = await loadCluster(this.workdir, this.flags.name);
    process.exitCode = await runInherited(kectlForCluster(record, paths, this.toolArgs()));
  }
}
