import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { detectProgressMode, phaseRunner } from '../../cli/progress.js';
import { buildClusterAutoscalerFromModule, buildClusterAutoscalerFromSource, buildFromGoModules, detectGo } from '../../artifacts/index.js';
import { cacheDirOf } from '../../cluster/artifact-request.js';
import { describeProgress } from '../../cluster/programs.js';
import { validateClusterValues } from '../../cluster/validate.js';
import { resolveOptionValues } from '../../config/load.js';
import { clusterAutoscalerVersionForKube, clusterVersions, DEFAULT_JAEGER_VERSION, DEFAULT_METRICS_SERVER_VERSION, KIND_VERSION, normalizeVersion } from '../../config/versions.js';
import { buildKindNodeImage, LOCAL_KIND_NODE_REPOSITORY } from '../../artifacts/kind-node-image.js';
import { buildControllerImage, LOCAL_NODE_BASE_REPOSITORY } from '../../artifacts/controller-image.js';
import { DEFAULT_KWOK_CONTROLLER_IMAGE } from '../../artifacts/images.js';
import { packageRoot } from '../../util/package-root.js';
import { PreflightError, UsageError } from '../../util/errors.js';

const TARGETS = ['kubernetes', 'etcd', 'cluster-autoscaler', 'metrics-server', 'jaeger', 'kind', 'kind-node-image', 'controller-image'] as const;

export default class ArtifactsBuild extends BaseCommand<typeof ArtifactsBuild> {
  static override summary = 'Build the control-plane binaries (or cluster-autoscaler) from their Go modules into the cache';
  static override description =
    'For offline and air-gapped machines: compiles exactly the Kubernetes and etcd versions a cluster uses (from k8s.io/kubernetes and go.etcd.io/etcd through the Go module proxy or GOPROXY/GOFLAGS=-mod=mod mirrors). Needs Go. Already-built binaries are kept.\n\n' +
    '`artifacts build metrics-server` and `artifacts build jaeger` build those components (sigs.k8s.io/metrics-server, github.com/jaegertracing/jaeger cmd/all-in-one) at the cluster\'s metricsServerVersion / jaegerVersion, for `--enable metrics-server` and `--jaeger-port` where their releases cannot be downloaded.\n\n' +
    '`artifacts build kind` builds kind (sigs.k8s.io/kind at kindVersion, default v' + KIND_VERSION + ') for `--runtime kind`; `artifacts build kind-node-image` makes a kind node image for the cluster\'s Kubernetes version without any registry: a Debian root filesystem (debootstrap; needs root), containerd, runc and CNI plugins from Debian packages, and the Kubernetes, etcd, CoreDNS and pause images built from source. It is tagged ' + LOCAL_KIND_NODE_REPOSITORY + ':<version> and `--runtime kind` uses it when kindest/node cannot be pulled.\n\n' +
    '`artifacts build controller-image` builds the kwok controller image (the repository\'s Dockerfile, from a built checkout) as ' + DEFAULT_KWOK_CONTROLLER_IMAGE + ' on a base made from this machine\'s node (' + LOCAL_NODE_BASE_REPOSITORY + ':<node version>), or on --base.\n\n' +
    '`artifacts build cluster-autoscaler` builds cluster-autoscaler with only its kwok cloud provider (sigs.k8s.io/cluster-autoscaler/kwok, version KWOK_CLUSTER_AUTOSCALER_VERSION, default: the Kubernetes minor) or, with --source, from a local checkout; it prints the binary\'s path.';
  static override examples = [
    '<%= config.bin %> artifacts build',
    'KWOK_KUBE_VERSION=v1.35.0 <%= config.bin %> artifacts build --only kubernetes',
    '<%= config.bin %> artifacts build metrics-server',
    '<%= config.bin %> artifacts build kind-node-image',
    '<%= config.bin %> artifacts build cluster-autoscaler --source ~/src/cluster-autoscaler',
  ];
  static override args = {
    target: Args.string({ description: 'what to build (default: kubernetes and etcd)', options: [...TARGETS] }),
  };
  static override flags = {
    only: Flags.string({ description: 'build one family only', options: ['kubernetes', 'etcd'] }),
    force: Flags.boolean({ description: 'rebuild even when the cache has them', default: false }),
    source: Flags.string({ description: 'cluster-autoscaler only: build from this local checkout instead of the module proxy' }),
    base: Flags.string({ description: 'controller-image only: the base image (node, npm, /bin/sh) instead of one made from this machine\'s node' }),
  };

  async run(): Promise<void> {
    const config = await this.loadConfig();
    const values = resolveOptionValues(config.fileOptions, process.env, {});
    // A version that is not one would fail as a Go module error that does not name it.
    validateClusterValues(values, {}, process.env);
    const { kubeVersion: kube, etcdVersion: etcd } = clusterVersions(values);
    const target = this.args.target;
    if (this.flags.only && target && this.flags.only !== target) throw new UsageError(`--only ${this.flags.only} contradicts ${target}`, { hint: 'give one of them' });
    if (this.flags.source !== undefined && target !== 'cluster-autoscaler') throw new UsageError('--source is only for `artifacts build cluster-autoscaler`');
    if (this.flags.base !== undefined && target !== 'controller-image') throw new UsageError('--base is only for `artifacts build controller-image`');
    if (target === 'controller-image') return this.buildControllerImage(cacheDirOf(values, this.workdir));
    if (!(await detectGo(undefined, this.abort.signal))) {
      throw new PreflightError('Go is not installed', { hint: 'install Go (https://go.dev/doc/install or `apt-get install golang-go`), then rerun' });
    }
    const cacheDir = cacheDirOf(values, this.workdir);
    if (target === 'cluster-autoscaler') return this.buildClusterAutoscaler(cacheDir, kube);
    if (target === 'kind' || target === 'kind-node-image') return this.buildKind(target, cacheDir, kube, normalizeVersion(values.kindVersion || KIND_VERSION));
    const only = target ?? this.flags.only;
    const metricsServer = normalizeVersion(values.metricsServerVersion || DEFAULT_METRICS_SERVER_VERSION);
    const jaeger = normalizeVersion(values.jaegerVersion || DEFAULT_JAEGER_VERSION);
    // The add-ons are built only when named: most clusters never run them.
    const families = (
      [
        ['kubernetes', kube],
        ['etcd', etcd],
        ['metrics-server', metricsServer],
        ['jaeger', jaeger],
      ] as const
    ).filter(([kind]) => (only ? only === kind : kind === 'kubernetes' || kind === 'etcd'));
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

  private async buildControllerImage(cacheDir: string): Promise<void> {
    const run = phaseRunner(detectProgressMode(this.logLevel > 4, false));
    let image = '';
    await run([
      {
        title: `Build ${DEFAULT_KWOK_CONTROLLER_IMAGE}`,
        run: async (update) => {
          const built = await buildControllerImage({ root: packageRoot(), image: DEFAULT_KWOK_CONTROLLER_IMAGE, cacheDir, signal: this.abort.signal, onStep: update, ...(this.flags.base ? { base: this.flags.base } : {}) });
          image = built.image;
          update(`built on ${built.base}`);
        },
      },
    ]);
    process.stdout.write(`${image}\n`);
  }

  private async buildKind(target: 'kind' | 'kind-node-image', cacheDir: string, kube: string, kindVersion: string): Promise<void> {
    const run = phaseRunner(detectProgressMode(this.logLevel > 4, false));
    let out = '';
    await run([
      {
        title: target === 'kind' ? `Build kind ${kindVersion}` : `Build the kind node image for Kubernetes ${kube}`,
        run: async (update) => {
          const common = { cacheDir, logger: this.logger, signal: this.abort.signal, onProgress: (e: Parameters<typeof describeProgress>[0]) => update(describeProgress(e)) };
          if (target === 'kind') {
            const result = await buildFromGoModules('kind', kindVersion, { ...common, force: this.flags.force });
            out = result.binaries.kind!;
            update(result.built ? `built in ${(result.durationMs / 1000).toFixed(0)}s` : 'already in the cache');
            return;
          }
          const result = await buildKindNodeImage({ ...common, kubeVersion: kube, kindVersion, force: this.flags.force, onStep: (line) => update(line) });
          out = result.image;
          update(result.built ? `built ${result.image} in ${(result.durationMs / 1000).toFixed(0)}s` : `${result.image} is up to date`);
        },
      },
    ]);
    process.stdout.write(`${out}\n`);
  }

  private async buildClusterAutoscaler(cacheDir: string, kube: string): Promise<void> {
    const common = { cacheDir, logger: this.logger, signal: this.abort.signal };
    if (this.flags.source !== undefined) {
      const built = await buildClusterAutoscalerFromSource(this.flags.source, common);
      this.logger.info(`built cluster-autoscaler in ${(built.durationMs / 1000).toFixed(0)}s`);
      process.stdout.write(`${built.binary}\n`);
      return;
    }
    const version = normalizeVersion(process.env['KWOK_CLUSTER_AUTOSCALER_VERSION'] || clusterAutoscalerVersionForKube(kube));
    const result = await buildClusterAutoscalerFromModule(version, { ...common, force: this.flags.force, onProgress: (e) => this.logger.debug(describeProgress(e)) });
    this.logger.info(result.built ? `built cluster-autoscaler ${version} in ${(result.durationMs / 1000).toFixed(0)}s` : `cluster-autoscaler ${version} is already in the cache`);
    process.stdout.write(`${result.binaries['cluster-autoscaler']}\n`);
  }
}

