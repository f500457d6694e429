import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { givenOptionValues, optionFlags } from '../../cli/option-flags.js';
import { planArtifacts, type BinaryName } from '../../artifacts/index.js';
import { artifactRequest, cacheDirOf, offlineMode } from '../../cluster/programs.js';
import { resolveOptionValues } from '../../config/load.js';
import { clusterVersions } from '../../config/versions.js';

const CLUSTER_BINARIES: BinaryName[] = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubectl', 'etcdctl'];

export default class GetArtifacts extends BaseCommand<typeof GetArtifacts> {
  static override summary = 'List the binaries a cluster would use and where each comes from';
  static override examples = ['<%= config.bin %> get artifacts', 'KWOK_KUBE_VERSION=v1.35.0 <%= config.bin %> get artifacts -o wide'];
  static override flags = {
    ...optionFlags(),
    output: Flags.string({ char: 'o', description: 'output format', options: ['name', 'wide', 'json'], default: 'wide' }),
    filter: Flags.string({ description: 'kind of artifact (only binaries exist for the binary runtime)', options: ['binary'], default: 'binary' }),
  };

  async run(): Promise<void> {
    const config = await this.loadConfig();
    const values = resolveOptionValues(config.fileOptions, process.env, givenOptionValues(this.flags as Record<string, unknown>));
    const { kubeVersion: kube, etcdVersion: etcd } = clusterVersions(values);
    const plans = planArtifacts(
      CLUSTER_BINARIES.map((n) => artifactRequest(n, values, kube, etcd)),
      { cacheDir: cacheDirOf(values, this.workdir), offlineBuild: offlineMode(values) },
    );
    if (this.flags.output === 'json') {
      this.log(JSON.stringify(plans.map(({ name, version, source, origin, path, fallback }) => ({ name, version, source, origin, path, fallback })), null, 2));
      return;
    }
    if (this.flags.output === 'name') {
      for (const p of plans) this.log(p.origin);
      return;
    }
    const rows = [['NAME', 'VERSION', 'SOURCE', 'ORIGIN'], ...plans.map((p) => [p.name, p.version, p.source, p.fallback ? `${p.origin} (else ${p.fallback.origin})` : p.origin])];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows) this.log(r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]! + 2))).join(''));
  }
}
