import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { detectProgressMode, phaseRunner } from '../../cli/progress.js';
import { buildFromGoModules, detectGo } from '../../artifacts/index.js';
import { cacheDirOf, describeProgress } from '../../cluster/programs.js';
import { resolveOptionValues } from '../../config/load.js';
import { DEFAULT_KUBE_VERSION, etcdVersionForKube, normalizeVersion } from '../../config/versions.js';
import { PreflightError } from '../../util/errors.js';

export default class ArtifactsBuild extends BaseCommand<typeof ArtifactsBuild> {
  static override summary = 'Build the control-plane binaries from their Go modules into the cache';
  static override description = 'For offline and air-gapped machines: compiles exactly the Kubernetes and etcd versions a cluster uses (from k8s.io/kubernetes and go.etcd.io/etcd through the Go module proxy or GOPROXY/GOFLAGS=-mod=mod mirrors). Needs Go. Already-built binaries are kept.';
  static override examples = ['<%= config.bin %> artifacts build', 'KWOK_KUBE_VERSION=v1.35.0 <%= config.bin %> artifacts build --only kubernetes'];
  static override flags = {
    only: Flags.string({ description: 'build one family only', options: ['kubernetes', 'etcd'] }),
    force: Flags.boolean({ description: 'rebuild even when the cache has them', default: false }),
  };

  async run(): Promise<void> {
    const config = await this.loadConfig();
    const values = resolveOptionValues(config.fileOptions, process.env, {});
    const kube = normalizeVersion(values.kubeVersion || DEFAULT_KUBE_VERSION);
    const etcd = values.etcdVersion ? normalizeVersion(values.etcdVersion) : etcdVersionForKube(kube);
    if (!(await detectGo(undefined, this.abort.signal))) {
      throw new PreflightError('Go is not installed', { hint: 'install Go (https://go.dev/doc/install or `apt-get install golang-go`), then rerun' });
    }
    const cacheDir = cacheDirOf(values, this.workdir);
    const families = ([['kubernetes', kube], ['etcd', etcd]] as const).filter(([kind]) => !this.flags.only || this.flags.only === kind);
    const run = phaseRunner(detectProgressMode(this.logLevel > 4, false));
    await run(
      families.map(([kind, version]) => ({
        title: `Build ${kind} ${version}`,
        run: async (update) => {
          const result = await buildFromGoModules(kind, version, {
            cacheDir,
            logger: this.logger,
            signal: this.abort.signal,
            force: this.flags.force,
            onProgress: (e) => update(describeProgress(e)),
          });
          update(result.built ? `built in ${(result.durationMs / 1000).toFixed(0)}s` : 'already in the cache');
        },
      })),
    );
    this.logger.info(`Binaries are in ${cacheDir}/gobuild`);
  }
}
