/**
 * Every cluster option, described once: kwokctl v0.8.0's KwokctlConfiguration.options field
 * (its config key), its `create cluster` flag, its KWOK_* variable, its type, our default,
 * kwokctl's default and how kwokts honours it. The oclif flags (src/cli/option-flags.ts), the
 * environment lookup, config-file validation, `--help` text and defaults all derive from this
 * table; nothing else lists options. Precedence, as in kwokctl (pkg/config/vars.go): flag >
 * KWOK_* variable > config files > default.
 *
 * `honour` says what we do with a value:
 * - applied: same meaning as kwokctl;
 * - differs: applied, with a difference `note` explains (usually the default);
 * - unsupported: accepted, and a value that would change anything gets one warning line naming
 *   the field. A value equal to kwokctl's own default (as `kwokctl config tidy` pins every
 *   default into the file) changes nothing, so it passes without a warning.
 */
import { etcdImageTagForKube, SCHEDULER_PLUGINS_MANIFEST_FILES } from './versions.js';

export type OptionType = 'string' | 'uint' | 'int' | 'float' | 'boolean' | 'strings';
export type Honour = 'applied' | 'differs' | 'unsupported';

export type ValueOf<T extends OptionType> = T extends 'string' ? string : T extends 'boolean' ? boolean : T extends 'strings' ? string[] : number;

/** Read access to other options' values, for defaults that kwokctl derives (image tags, URLs). */
export interface UpstreamContext {
  /** The option's value as given (config files, env), else kwokctl's default for it. */
  get(key: string): unknown;
  /** Go's runtime.GOOS / GOARCH for this machine. */
  goos: string;
  goarch: string;
  /** The defaults kwokctl derives from `cacheDir`: `$KWOK_WORKDIR`. */
  workdir: string;
}

export interface OptionSpec<K extends string = string, T extends OptionType = OptionType> {
  /** Field name in KwokctlConfiguration.options, exactly as kwokctl spells it. */
  key: K;
  type: T;
  /** What kwokts uses when nothing sets it ('' and 0 mean "derive it", as in kwokctl's code). */
  default: ValueOf<T>;
  /** kwokctl's default, when it has one worth comparing (derived ones from other options). */
  upstream?: (c: UpstreamContext) => ValueOf<T>;
  /** `create cluster` flag, without dashes. */
  flag?: string;
  /** kwokctl marks the flag deprecated (hidden from help, still accepted). */
  deprecated?: string;
  /** KWOK_* variable. */
  env?: string;
  description: string;
  honour: Honour;
  /** For `differs`: how; for `unsupported`: what would be needed. */
  note?: string;
  /** For an option kwokts honours only in part: the values it ignores and why, as --help says (`a URL: it is not downloaded`). */
  ignores?: string;
  /** A kwokts addition that kwokctl does not have. */
  kwoktsOnly?: true;
  /** The flag or variable is a kwokts addition (kwokctl has the config field only). */
  additions?: ReadonlyArray<'flag' | 'env'>;
}

function opt<const K extends string, const T extends OptionType>(spec: OptionSpec<K, T>): OptionSpec<K, T> {
  return spec;
}

const v = (s: string): string => (s.startsWith('v') ? s : `v${s}`);
const noV = (s: string): string => s.replace(/^v/, '');
const str = (c: UpstreamContext, key: string): string => String(c.get(key) ?? '');
const image = (prefix: string, name: string, tag: string): string => `${prefix}/${name}:${tag}`;
const etcdRelease = (c: UpstreamContext): string => noV(str(c, 'etcdVersion')).replace(/-0$/, '');
const etcdTar = (c: UpstreamContext): string =>
  `${str(c, 'etcdBinaryPrefix')}/etcd-v${etcdRelease(c)}-${c.goos}-${c.goarch}.${c.goos === 'linux' ? 'tar.gz' : 'zip'}`;
const archiveSuffix = (c: UpstreamContext): string => (c.goos === 'windows' ? 'zip' : 'tar.gz');

const KUBE_IMAGES = 'KWOK_KUBE_IMAGE_PREFIX';
const ONLY_BINARY = 'only for the binary runtime';
const ONLY_CONTAINERS = 'only for docker/podman/nerdctl';
const NOT_YET = 'kwokts has no such component yet';

export const OPTION_SPECS = [
  opt({ key: 'enableCRDs', type: 'strings', default: [], flag: 'enable-crds', description: 'Kinds served as custom resources instead of config (Stage, Attach, ClusterAttach, Exec, ClusterExec, PortForward, ClusterPortForward, Logs, ClusterLogs, ResourceUsage, ClusterResourceUsage, Metric)', honour: 'applied' }),
  opt({ key: 'kubeApiserverPort', type: 'uint', default: 0, flag: 'kube-apiserver-port', env: 'KWOK_KUBE_APISERVER_PORT', description: 'Port of the apiserver (default random)', honour: 'applied' }),
  opt({ key: 'kubeApiserverInsecurePort', type: 'uint', default: 0, flag: 'kube-apiserver-insecure-port', env: 'KWOK_KUBE_APISERVER_INSECURE_PORT', description: 'Insecure (plain http) port of the apiserver', honour: 'unsupported', note: 'needs the kube-apiserver-insecure-proxy component' }),
  opt({ key: 'insecureKubeconfig', type: 'boolean', default: false, description: 'Write a kubeconfig for the insecure port (with kubeApiserverInsecurePort)', honour: 'unsupported', note: 'needs kubeApiserverInsecurePort' }),
  opt({ key: 'runtime', type: 'string', default: '', flag: 'runtime', env: 'KWOK_RUNTIME', description: 'Runtime of the cluster (binary, docker, podman, nerdctl or kind); default: the first of options.runtimes that is available', honour: 'differs', note: "kwokctl's finch, lima and kind-<engine> runtimes are refused" }),
  opt({ key: 'runtimes', type: 'strings', default: [], upstream: () => ['docker', 'podman', 'nerdctl', 'binary'], description: 'Runtimes to try, in order, when runtime is not set', honour: 'differs', note: 'entries other than docker, podman, nerdctl and binary are skipped (with a note); kwokctl\'s default order, pinned in a config file, means kwokts\'s detection' }),
  opt({ key: 'prometheusPort', type: 'uint', default: 0, flag: 'prometheus-port', env: 'KWOK_PROMETHEUS_PORT', description: 'Port to expose Prometheus on; non-zero enables Prometheus', honour: 'applied' }),
  opt({ key: 'jaegerPort', type: 'uint', default: 0, flag: 'jaeger-port', env: 'KWOK_JAEGER_PORT', description: 'Port to expose the Jaeger UI on; non-zero enables Jaeger', honour: 'applied' }),
  opt({ key: 'jaegerOtlpGrpcPort', type: 'uint', default: 0, description: 'Port to expose the OTLP gRPC collector of Jaeger on', honour: 'applied' }),
  opt({ key: 'kwokVersion', type: 'string', default: '', upstream: () => 'v0.8.0', env: 'KWOK_VERSION', description: 'Version of kwok (the controller binary and image kwokctl would fetch)', honour: 'unsupported', note: 'kwokts runs its own controller' }),
  opt({ key: 'kubeVersion', type: 'string', default: '', upstream: () => 'v1.36.1', env: 'KWOK_KUBE_VERSION', description: 'Kubernetes version', honour: 'applied' }),
  opt({ key: 'etcdVersion', type: 'string', default: '', upstream: (c) => etcdImageTagForKube(str(c, 'kubeVersion')), env: 'KWOK_ETCD_VERSION', description: 'etcd version (default: paired with the Kubernetes version)', honour: 'applied' }),
  opt({ key: 'kectlVersion', type: 'string', default: '', upstream: () => '0.0.10', description: 'Version of kectl', honour: 'unsupported', note: 'kectl is not downloaded: `kwokts kectl` runs the one kectlBinary, KWOK_KECTL_BINARY or PATH gives, whatever its version' }),
  opt({ key: 'dashboardVersion', type: 'string', default: '', upstream: () => 'v2.7.0', env: 'KWOK_DASHBOARD_VERSION', description: 'Version of the Kubernetes dashboard (deprecated by kwokctl)', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'dashboardMetricsScraperVersion', type: 'string', default: '', upstream: () => 'v1.0.9', env: 'KWOK_DASHBOARD_METRICS_SCRAPER_VERSION', description: 'Version of the dashboard metrics scraper (deprecated by kwokctl)', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'prometheusVersion', type: 'string', default: '', upstream: () => 'v3.12.0', env: 'KWOK_PROMETHEUS_VERSION', description: 'Prometheus version', honour: 'applied' }),
  opt({ key: 'jaegerVersion', type: 'string', default: '', upstream: () => 'v1.76.0', env: 'KWOK_JAEGER_VERSION', description: 'Jaeger version', honour: 'applied' }),
  opt({ key: 'metricsServerVersion', type: 'string', default: '', upstream: () => 'v0.8.1', env: 'KWOK_METRICS_SERVER_VERSION', description: 'metrics-server version', honour: 'differs', note: 'default v0.9.0: 0.8.1 is not served by the Go module proxy, so it could not be built where releases cannot be downloaded' }),
  opt({ key: 'schedulerPluginsVersion', type: 'string', default: '', upstream: () => 'v0.34.7', env: 'KWOK_SCHEDULER_PLUGINS_VERSION', description: 'scheduler-plugins version', honour: 'applied' }),
  opt({ key: 'kueueVersion', type: 'string', default: '', upstream: () => 'v0.18.1', env: 'KWOK_KUEUE_VERSION', description: 'kueue version', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'jobsetVersion', type: 'string', default: '', upstream: () => 'v0.12.0', env: 'KWOK_JOBSET_VERSION', description: 'jobset version', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'lwsVersion', type: 'string', default: '', upstream: () => 'v0.9.0', env: 'KWOK_LWS_VERSION', description: 'lws version', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'deschedulerVersion', type: 'string', default: '', upstream: () => 'v0.36.0', env: 'KWOK_DESCHEDULER_VERSION', description: 'descheduler version', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'kindVersion', type: 'string', default: '', upstream: () => 'v0.32.0', env: 'KWOK_KIND_VERSION', description: 'Version of kind (the kind binary kwokctl would fetch)', honour: 'unsupported', note: 'kwokts uses the kind on PATH or kindBinary' }),
  opt({ key: 'securePort', type: 'boolean', default: true, upstream: () => true, flag: 'secure-port', env: 'KWOK_SECURE_PORT', description: 'Serve the apiserver over HTTPS with authentication and authorization (not available before Kubernetes 1.13)', honour: 'differs', note: 'the apiserver always serves TLS; false is not supported', ignores: 'false: the apiserver always serves TLS' }),
  opt({ key: 'quietPull', type: 'boolean', default: false, flag: 'quiet-pull', env: 'KWOK_QUIET_PULL', description: 'Pull images and download binaries without printing progress', honour: 'applied' }),
  opt({ key: 'kubeSchedulerConfig', type: 'string', default: '', flag: 'kube-scheduler-config', description: 'Path to a kube-scheduler configuration file', honour: 'applied' }),
  opt({ key: 'components', type: 'strings', default: [], upstream: () => ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller'], flag: 'components', description: 'The base set of components, before --enable/--disable', honour: 'applied' }),
  opt({ key: 'disable', type: 'strings', default: [], flag: 'disable', description: 'Components to disable', honour: 'applied' }),
  opt({ key: 'enable', type: 'strings', default: [], flag: 'enable', description: 'Components to enable', honour: 'applied' }),
  opt({ key: 'disableKubeScheduler', type: 'boolean', default: false, flag: 'disable-kube-scheduler', deprecated: 'use --disable kube-scheduler', env: 'KWOK_DISABLE_KUBE_SCHEDULER', description: 'Disable kube-scheduler', honour: 'applied' }),
  opt({ key: 'disableKubeControllerManager', type: 'boolean', default: false, flag: 'disable-kube-controller-manager', deprecated: 'use --disable kube-controller-manager', env: 'KWOK_DISABLE_KUBE_CONTROLLER_MANAGER', description: 'Disable kube-controller-manager', honour: 'applied' }),
  opt({ key: 'enableMetricsServer', type: 'boolean', default: false, flag: 'enable-metrics-server', deprecated: 'use --enable metrics-server', description: 'Enable metrics-server', honour: 'applied' }),
  opt({ key: 'kubeImagePrefix', type: 'string', default: '', upstream: () => 'registry.k8s.io', env: KUBE_IMAGES, description: 'Registry of the Kubernetes images', honour: 'applied' }),
  opt({ key: 'etcdImagePrefix', type: 'string', default: '', upstream: (c) => str(c, 'kubeImagePrefix'), env: 'KWOK_ETCD_IMAGE_PREFIX', description: 'Registry of the etcd image (default: the Kubernetes one)', honour: 'applied' }),
  opt({ key: 'kwokImagePrefix', type: 'string', default: '', upstream: () => 'registry.k8s.io/kwok', env: 'KWOK_IMAGE_PREFIX', description: 'Registry of the kwok controller image', honour: 'differs', note: "default ghcr.io/kwokts (kwokts's own controller image); kwokctl's registry.k8s.io/kwok counts as the default" }),
  opt({ key: 'dashboardImagePrefix', type: 'string', default: '', upstream: () => 'docker.io/kubernetesui', env: 'KWOK_DASHBOARD_IMAGE_PREFIX', description: 'Registry of the dashboard images', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'prometheusImagePrefix', type: 'string', default: '', upstream: () => 'docker.io/prom', env: 'KWOK_PROMETHEUS_IMAGE_PREFIX', description: 'Registry of the Prometheus image', honour: 'applied' }),
  opt({ key: 'jaegerImagePrefix', type: 'string', default: '', upstream: () => 'docker.io/jaegertracing', env: 'KWOK_JAEGER_IMAGE_PREFIX', description: 'Registry of the Jaeger image', honour: 'applied' }),
  opt({ key: 'metricsServerImagePrefix', type: 'string', default: '', upstream: () => 'registry.k8s.io/metrics-server', env: 'KWOK_METRICS_SERVER_IMAGE_PREFIX', description: 'Registry of the metrics-server image', honour: 'applied' }),
  opt({ key: 'schedulerPluginsImagePrefix', type: 'string', default: '', upstream: () => 'registry.k8s.io/scheduler-plugins', env: 'KWOK_SCHEDULER_PLUGINS_IMAGE_PREFIX', description: 'Registry of the scheduler-plugins images', honour: 'applied' }),
  opt({ key: 'kueueImagePrefix', type: 'string', default: '', upstream: () => 'registry.k8s.io/kueue', env: 'KWOK_KUEUE_IMAGE_PREFIX', description: 'Registry of the kueue images', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'jobsetImagePrefix', type: 'string', default: '', upstream: () => 'registry.k8s.io/jobset', env: 'KWOK_JOBSET_IMAGE_PREFIX', description: 'Registry of the jobset image', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'lwsImagePrefix', type: 'string', default: '', upstream: () => 'registry.k8s.io/lws', env: 'KWOK_LWS_IMAGE_PREFIX', description: 'Registry of the lws image', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'deschedulerImagePrefix', type: 'string', default: '', upstream: () => 'registry.k8s.io/descheduler', env: 'KWOK_DESCHEDULER_IMAGE_PREFIX', description: 'Registry of the descheduler image', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'etcdImage', type: 'string', default: '', upstream: (c) => image(str(c, 'etcdImagePrefix'), 'etcd', noV(str(c, 'etcdVersion'))), flag: 'etcd-image', env: 'KWOK_ETCD_IMAGE', description: `Image of etcd, ${ONLY_CONTAINERS} (\${KWOK_ETCD_IMAGE_PREFIX}/etcd:\${KWOK_ETCD_VERSION} when unset)`, honour: 'applied' }),
  opt({ key: 'kubeApiserverImage', type: 'string', default: '', upstream: (c) => image(str(c, 'kubeImagePrefix'), 'kube-apiserver', str(c, 'kubeVersion')), flag: 'kube-apiserver-image', env: 'KWOK_KUBE_APISERVER_IMAGE', description: `Image of kube-apiserver, ${ONLY_CONTAINERS} (\${${KUBE_IMAGES}}/kube-apiserver:\${KWOK_KUBE_VERSION} when unset)`, honour: 'applied' }),
  opt({ key: 'kubeControllerManagerImage', type: 'string', default: '', upstream: (c) => image(str(c, 'kubeImagePrefix'), 'kube-controller-manager', str(c, 'kubeVersion')), flag: 'kube-controller-manager-image', env: 'KWOK_KUBE_CONTROLLER_MANAGER_IMAGE', description: `Image of kube-controller-manager, ${ONLY_CONTAINERS} (\${${KUBE_IMAGES}}/kube-controller-manager:\${KWOK_KUBE_VERSION} when unset)`, honour: 'applied' }),
  opt({ key: 'kubeSchedulerImage', type: 'string', default: '', upstream: (c) => image(str(c, 'kubeImagePrefix'), 'kube-scheduler', str(c, 'kubeVersion')), flag: 'kube-scheduler-image', env: 'KWOK_KUBE_SCHEDULER_IMAGE', description: `Image of kube-scheduler, ${ONLY_CONTAINERS} (\${${KUBE_IMAGES}}/kube-scheduler:\${KWOK_KUBE_VERSION} when unset)`, honour: 'applied' }),
  opt({ key: 'kubectlImage', type: 'string', default: '', upstream: (c) => image(str(c, 'kubeImagePrefix'), 'kubectl', str(c, 'kubeVersion')), env: 'KWOK_KUBECTL_IMAGE', description: 'Image of kubectl', honour: 'unsupported', note: 'kwokts runs kubectl on the host' }),
  opt({ key: 'kwokControllerImage', type: 'string', default: '', upstream: (c) => image(str(c, 'kwokImagePrefix'), 'kwok', str(c, 'kwokVersion')), flag: 'kwok-controller-image', env: 'KWOK_CONTROLLER_IMAGE', description: 'Image of the kwok controller, for docker/podman/nerdctl/kind (${KWOK_IMAGE_PREFIX}/kwok:<kwokts version> when unset)', honour: 'differs', note: "default is kwokts's own controller image; kwokctl's default (registry.k8s.io/kwok/kwok:<kwokVersion>) counts as the default" }),
  opt({ key: 'dashboardImage', type: 'string', default: '', upstream: (c) => image(str(c, 'dashboardImagePrefix'), 'dashboard', str(c, 'dashboardVersion')), flag: 'dashboard-image', deprecated: 'the Kubernetes dashboard has been retired', env: 'KWOK_DASHBOARD_IMAGE', description: 'Image of the dashboard', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'dashboardMetricsScraperImage', type: 'string', default: '', upstream: (c) => image(str(c, 'dashboardImagePrefix'), 'metrics-scraper', str(c, 'dashboardMetricsScraperVersion')), env: 'KWOK_DASHBOARD_METRICS_SCRAPER_IMAGE', description: 'Image of the dashboard metrics scraper', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'prometheusImage', type: 'string', default: '', upstream: (c) => image(str(c, 'prometheusImagePrefix'), 'prometheus', str(c, 'prometheusVersion')), flag: 'prometheus-image', env: 'KWOK_PROMETHEUS_IMAGE', description: 'Image of Prometheus, for docker/podman/nerdctl/kind (${KWOK_PROMETHEUS_IMAGE_PREFIX}/prometheus:${KWOK_PROMETHEUS_VERSION} when unset)', honour: 'applied' }),
  opt({ key: 'jaegerImage', type: 'string', default: '', upstream: (c) => image(str(c, 'jaegerImagePrefix'), 'all-in-one', noV(str(c, 'jaegerVersion'))), flag: 'jaeger-image', env: 'KWOK_JAEGER_IMAGE', description: 'Image of Jaeger, for docker/podman/nerdctl/kind (${KWOK_JAEGER_IMAGE_PREFIX}/all-in-one:${KWOK_JAEGER_VERSION} when unset)', honour: 'applied' }),
  opt({ key: 'metricsServerImage', type: 'string', default: '', upstream: (c) => image(str(c, 'metricsServerImagePrefix'), 'metrics-server', v(str(c, 'metricsServerVersion'))), flag: 'metrics-server-image', env: 'KWOK_METRICS_SERVER_IMAGE', description: 'Image of metrics-server, for docker/podman/nerdctl/kind (${KWOK_METRICS_SERVER_IMAGE_PREFIX}/metrics-server:${KWOK_METRICS_SERVER_VERSION} when unset)', honour: 'applied' }),
  opt({ key: 'metricsServerManifests', type: 'strings', default: [], upstream: (c) => [`https://github.com/kubernetes-sigs/metrics-server/releases/download/${str(c, 'metricsServerVersion')}/components.yaml`], env: 'KWOK_METRICS_SERVER_MANIFESTS', description: 'URLs of the metrics-server manifests', honour: 'unsupported', note: 'kwokts applies its own Service and APIService for metrics-server instead of the upstream manifest' }),
  opt({ key: 'schedulerPluginsControllerImage', type: 'string', default: '', upstream: (c) => image(str(c, 'schedulerPluginsImagePrefix'), 'controller', str(c, 'schedulerPluginsVersion')), env: 'KWOK_SCHEDULER_PLUGINS_CONTROLLER_IMAGE', description: 'Image of the scheduler-plugins controller', honour: 'applied' }),
  opt({ key: 'schedulerPluginsSchedulerImage', type: 'string', default: '', upstream: (c) => image(str(c, 'schedulerPluginsImagePrefix'), 'kube-scheduler', str(c, 'schedulerPluginsVersion')), env: 'KWOK_SCHEDULER_PLUGINS_SCHEDULER_IMAGE', description: 'Image of the scheduler-plugins scheduler', honour: 'applied' }),
  opt({ key: 'schedulerPluginsManifests', type: 'strings', default: [], upstream: (c) => SCHEDULER_PLUGINS_MANIFEST_FILES.map((m) => `https://github.com/kubernetes-sigs/scheduler-plugins/raw/refs/tags//${v(str(c, 'schedulerPluginsVersion'))}/manifests/${m}.yaml`), env: 'KWOK_SCHEDULER_PLUGINS_MANIFESTS', description: 'The scheduler-plugins manifests whose CRDs and scheduler RBAC are applied: URLs (fetched once into the cache; GitHub tag URLs of kubernetes-sigs repositories are taken from the Go module proxy instead), or local paths and kustomize sources (kubectl kustomize)', honour: 'applied' }),
  opt({ key: 'kueueImage', type: 'string', default: '', upstream: (c) => image(str(c, 'kueueImagePrefix'), 'kueue', str(c, 'kueueVersion')), env: 'KWOK_KUEUE_IMAGE', description: 'Image of kueue', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'kueueManifests', type: 'strings', default: [], upstream: (c) => [`https://github.com/kubernetes-sigs/kueue/releases/download/${str(c, 'kueueVersion')}/manifests.yaml`], env: 'KWOK_KUEUE_MANIFESTS', description: 'URLs of the kueue manifests', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'jobsetImage', type: 'string', default: '', upstream: (c) => image(str(c, 'jobsetImagePrefix'), 'jobset', str(c, 'jobsetVersion')), env: 'KWOK_JOBSET_IMAGE', description: 'Image of jobset', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'jobsetManifests', type: 'strings', default: [], upstream: (c) => [`https://github.com/kubernetes-sigs/jobset/releases/download/${str(c, 'jobsetVersion')}/manifests.yaml`], env: 'KWOK_JOBSET_MANIFESTS', description: 'URLs of the jobset manifests', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'lwsImage', type: 'string', default: '', upstream: (c) => image(str(c, 'lwsImagePrefix'), 'lws', str(c, 'lwsVersion')), env: 'KWOK_LWS_IMAGE', description: 'Image of lws', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'lwsManifests', type: 'strings', default: [], upstream: (c) => [`https://github.com/kubernetes-sigs/lws/releases/download/${str(c, 'lwsVersion')}/manifests.yaml`], env: 'KWOK_LWS_MANIFESTS', description: 'URLs of the lws manifests', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'deschedulerImage', type: 'string', default: '', upstream: (c) => image(str(c, 'deschedulerImagePrefix'), 'descheduler', str(c, 'deschedulerVersion')), env: 'KWOK_DESCHEDULER_IMAGE', description: 'Image of the descheduler', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'deschedulerManifests', type: 'strings', default: [], upstream: (c) => [`github.com/kubernetes-sigs/descheduler/kubernetes/deployment?ref=${str(c, 'deschedulerVersion')}`], env: 'KWOK_DESCHEDULER_MANIFESTS', description: 'Kustomize URLs of the descheduler manifests', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'kueuevizFrontendImage', type: 'string', default: '', upstream: (c) => image(str(c, 'kueueImagePrefix'), 'kueueviz-frontend', str(c, 'kueueVersion')), env: 'KWOK_KUEUEVIZ_FRONTEND_IMAGE', description: 'Image of the kueueviz frontend', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'kueuevizBackendImage', type: 'string', default: '', upstream: (c) => image(str(c, 'kueueImagePrefix'), 'kueueviz-backend', str(c, 'kueueVersion')), env: 'KWOK_KUEUEVIZ_BACKEND_IMAGE', description: 'Image of the kueueviz backend', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'kindNodeImagePrefix', type: 'string', default: '', upstream: () => 'docker.io/kindest', env: 'KWOK_KIND_NODE_IMAGE_PREFIX', description: 'Registry of the kind node image', honour: 'applied' }),
  opt({ key: 'kindNodeImage', type: 'string', default: '', upstream: (c) => image(str(c, 'kindNodeImagePrefix'), 'node', str(c, 'kubeVersion')), flag: 'kind-node-image', env: 'KWOK_KIND_NODE_IMAGE', description: 'Image of the kind node, only for kind (${KWOK_KIND_NODE_IMAGE_PREFIX}/node:${KWOK_KUBE_VERSION} when unset)', honour: 'applied' }),
  opt({ key: 'binSuffix', type: 'string', default: '', description: 'Suffix of every binary (.exe on Windows)', honour: 'unsupported', note: 'kwokts runs on Linux and macOS only' }),
  opt({ key: 'kubeBinaryPrefix', type: 'string', default: '', upstream: (c) => `https://dl.k8s.io/release/${str(c, 'kubeVersion')}/bin/${c.goos}/${c.goarch}`, env: 'KWOK_KUBE_BINARY_PREFIX', description: 'Where the Kubernetes binaries are downloaded from', honour: 'applied' }),
  opt({ key: 'kubeApiserverBinary', type: 'string', default: '', upstream: (c) => `${str(c, 'kubeBinaryPrefix')}/kube-apiserver`, flag: 'kube-apiserver-binary', env: 'KWOK_KUBE_APISERVER_BINARY', description: `Binary of kube-apiserver (URL or path), ${ONLY_BINARY}`, honour: 'applied' }),
  opt({ key: 'kubeControllerManagerBinary', type: 'string', default: '', upstream: (c) => `${str(c, 'kubeBinaryPrefix')}/kube-controller-manager`, flag: 'kube-controller-manager-binary', env: 'KWOK_KUBE_CONTROLLER_MANAGER_BINARY', description: `Binary of kube-controller-manager (URL or path), ${ONLY_BINARY}`, honour: 'applied' }),
  opt({ key: 'kubeSchedulerBinary', type: 'string', default: '', upstream: (c) => `${str(c, 'kubeBinaryPrefix')}/kube-scheduler`, flag: 'kube-scheduler-binary', env: 'KWOK_KUBE_SCHEDULER_BINARY', description: `Binary of kube-scheduler (URL or path), ${ONLY_BINARY}`, honour: 'applied' }),
  opt({ key: 'kubectlBinary', additions: ['flag'], type: 'string', default: '', upstream: (c) => `https://dl.k8s.io/release/${str(c, 'kubeVersion')}/bin/${c.goos}/${c.goarch}/kubectl`, flag: 'kubectl-binary', env: 'KWOK_KUBECTL_BINARY', description: 'Binary of kubectl (URL or path)', honour: 'differs', note: 'kwokctl has no flag for it (config and env only)' }),
  opt({ key: 'etcdBinaryPrefix', type: 'string', default: '', upstream: (c) => `https://github.com/etcd-io/etcd/releases/download/v${etcdRelease(c)}`, env: 'KWOK_ETCD_BINARY_PREFIX', description: 'Where the etcd release archives are downloaded from', honour: 'applied' }),
  opt({ key: 'etcdctlBinary', additions: ['flag', 'env'], type: 'string', default: '', upstream: (c) => `${str(c, 'etcdBinaryTar')}#etcdctl`, flag: 'etcdctl-binary', env: 'KWOK_ETCDCTL_BINARY', description: 'Binary of etcdctl (URL, archive.tar.gz#member or path)', honour: 'differs', note: 'kwokctl has neither flag nor variable for it (config only)' }),
  opt({ key: 'etcdutlBinary', type: 'string', default: '', upstream: (c) => `${str(c, 'etcdBinaryTar')}#etcdutl`, description: 'Binary of etcdutl (URL, archive.tar.gz#member or path)', honour: 'unsupported', note: 'snapshots use etcdctl' }),
  opt({ key: 'kectlBinary', additions: ['env'], type: 'string', default: '', upstream: (c) => `https://github.com/kwok-ci/kectl/releases/download/${v(str(c, 'kectlVersion'))}/kectl_${c.goos}_${c.goarch}`, env: 'KWOK_KECTL_BINARY', description: 'Binary of kectl (path)', honour: 'differs', note: 'the kectl `kwokts kectl` runs (unset: kectl on PATH); a URL is not downloaded (warned)' }),
  opt({ key: 'etcdBinary', type: 'string', default: '', upstream: (c) => `${str(c, 'etcdBinaryTar')}#etcd`, flag: 'etcd-binary', env: 'KWOK_ETCD_BINARY', description: `Binary of etcd (URL, archive.tar.gz#member or path), ${ONLY_BINARY}`, honour: 'applied' }),
  opt({ key: 'etcdBinaryTar', type: 'string', default: '', upstream: etcdTar, flag: 'etcd-binary-tar', deprecated: 'use --etcd-binary', env: 'KWOK_ETCD_BINARY_TAR', description: 'Archive of etcd; etcd and etcdctl are taken from it unless --etcd-binary is set', honour: 'applied' }),
  opt({ key: 'etcdPrefix', type: 'string', default: '/registry', flag: 'etcd-prefix', description: 'etcd key prefix of the apiserver', honour: 'applied' }),
  opt({ key: 'kwokBinaryPrefix', type: 'string', default: '', upstream: (c) => `https://github.com/kubernetes-sigs/kwok/releases/download/${str(c, 'kwokVersion')}`, env: 'KWOK_BINARY_PREFIX', description: 'Where the kwok binary is downloaded from', honour: 'differs', note: 'a local directory runs its kwok-<os>-<arch> as the controller; a URL is not downloaded (warned)' }),
  opt({ key: 'kwokControllerBinary', type: 'string', default: '', upstream: (c) => `${str(c, 'kwokBinaryPrefix')}/kwok-${c.goos}-${c.goarch}`, flag: 'kwok-controller-binary', env: 'KWOK_CONTROLLER_BINARY', description: `Binary of the kwok controller (path), ${ONLY_BINARY}; default: kwokts's own controller`, honour: 'differs', note: "a path runs that program with kwokctl's controller flags; a URL other than kwokctl's default is not downloaded (warned)", ignores: 'a URL: it is not downloaded' }),
  opt({ key: 'prometheusBinaryPrefix', type: 'string', default: '', upstream: (c) => `https://github.com/prometheus/prometheus/releases/download/${str(c, 'prometheusVersion')}`, env: 'KWOK_PROMETHEUS_BINARY_PREFIX', description: 'Where the Prometheus release archive is downloaded from', honour: 'applied' }),
  opt({ key: 'prometheusBinary', type: 'string', default: '', upstream: (c) => `${str(c, 'prometheusBinaryTar')}#prometheus`, flag: 'prometheus-binary', env: 'KWOK_PROMETHEUS_BINARY', description: `Binary of Prometheus (URL, archive.tar.gz#member or path), ${ONLY_BINARY}`, honour: 'applied' }),
  opt({ key: 'prometheusBinaryTar', type: 'string', default: '', upstream: (c) => `${str(c, 'prometheusBinaryPrefix')}/prometheus-${noV(str(c, 'prometheusVersion'))}.${c.goos}-${c.goarch}.${archiveSuffix(c)}`, flag: 'prometheus-binary-tar', deprecated: 'use --prometheus-binary', env: 'KWOK_PROMETHEUS_BINARY_TAR', description: 'Archive of Prometheus, used unless --prometheus-binary is set', honour: 'applied' }),
  opt({ key: 'jaegerBinaryPrefix', type: 'string', default: '', upstream: (c) => `https://github.com/jaegertracing/jaeger/releases/download/${str(c, 'jaegerVersion')}`, env: 'KWOK_JAEGER_BINARY_PREFIX', description: 'Where the Jaeger release archive is downloaded from', honour: 'applied' }),
  opt({ key: 'jaegerBinary', type: 'string', default: '', upstream: (c) => `${str(c, 'jaegerBinaryTar')}#jaeger-all-in-one`, flag: 'jaeger-binary', env: 'KWOK_JAEGER_BINARY', description: `Binary of Jaeger, ${ONLY_BINARY}`, honour: 'applied' }),
  opt({ key: 'jaegerBinaryTar', type: 'string', default: '', upstream: (c) => `${str(c, 'jaegerBinaryPrefix')}/jaeger-${noV(str(c, 'jaegerVersion'))}-${c.goos}-${c.goarch}.${archiveSuffix(c)}`, flag: 'jaeger-binary-tar', deprecated: 'use --jaeger-binary', env: 'KWOK_JAEGER_BINARY_TAR', description: 'Archive of Jaeger, used unless --jaeger-binary is set', honour: 'applied' }),
  opt({ key: 'metricsServerBinaryPrefix', type: 'string', default: '', upstream: (c) => `https://github.com/kubernetes-sigs/metrics-server/releases/download/${str(c, 'metricsServerVersion')}`, env: 'KWOK_METRICS_SERVER_BINARY_PREFIX', description: 'Where the metrics-server binary is downloaded from', honour: 'applied' }),
  opt({ key: 'metricsServerBinary', type: 'string', default: '', upstream: (c) => `${str(c, 'metricsServerBinaryPrefix')}/metrics-server-${c.goos}-${c.goarch}`, flag: 'metrics-server-binary', env: 'KWOK_METRICS_SERVER_BINARY', description: `Binary of metrics-server, ${ONLY_BINARY}`, honour: 'applied' }),
  opt({ key: 'kindBinaryPrefix', type: 'string', default: '', upstream: (c) => `https://github.com/kubernetes-sigs/kind/releases/download/${str(c, 'kindVersion')}`, env: 'KWOK_KIND_BINARY_PREFIX', description: 'Where the kind binary is downloaded from', honour: 'unsupported', note: 'kwokts does not download kind; give kindBinary' }),
  opt({ key: 'kindBinary', type: 'string', default: '', upstream: (c) => `${str(c, 'kindBinaryPrefix')}/kind-${c.goos}-${c.goarch}`, flag: 'kind-binary', env: 'KWOK_KIND_BINARY', description: 'The kind program, only for kind (default: kind on PATH)', honour: 'differs', note: 'a path only: kind is not downloaded; kwokctl\'s default URL counts as "kind on PATH"', ignores: 'a URL: kind is not downloaded' }),
  opt({ key: 'kubeFeatureGates', type: 'string', default: '', flag: 'kube-feature-gates', env: 'KWOK_KUBE_FEATURE_GATES', description: 'key=value pairs that describe feature gates for alpha/experimental features of Kubernetes', honour: 'applied' }),
  opt({ key: 'kubeRuntimeConfig', type: 'string', default: '', flag: 'kube-runtime-config', env: 'KWOK_KUBE_RUNTIME_CONFIG', description: 'key=value pairs that enable or disable built-in APIs', honour: 'applied' }),
  opt({ key: 'kubeAuditPolicy', type: 'string', default: '', flag: 'kube-audit-policy', env: 'KWOK_KUBE_AUDIT_POLICY', description: 'Path to the file that defines the audit policy configuration', honour: 'applied' }),
  opt({ key: 'kubeAuthorization', type: 'boolean', default: true, upstream: (c) => c.get('securePort') === true, flag: 'kube-authorization', env: 'KWOK_KUBE_AUTHORIZATION', description: 'Enable authorization (Node,RBAC) for kube-apiserver; unset, it follows --secure-port', honour: 'applied' }),
  opt({ key: 'kubeAdmission', type: 'boolean', default: true, upstream: (c) => c.get('kubeAuthorization') === true, flag: 'kube-admission', env: 'KWOK_KUBE_ADMISSION', description: 'Enable admission plugins for kube-apiserver; unset, it follows --kube-authorization', honour: 'differs', note: 'kwokctl v0.8.0 reads KWOK_KUBE_ADMISSION but never applies it; kwokts does' }),
  opt({ key: 'etcdPeerPort', type: 'uint', default: 0, description: 'Port of etcd peers on the host (default random)', honour: 'applied' }),
  opt({ key: 'etcdPort', type: 'uint', default: 0, flag: 'etcd-port', env: 'KWOK_ETCD_PORT', description: 'Port of etcd given to the host (default random)', honour: 'applied' }),
  opt({ key: 'kubeControllerManagerPort', type: 'uint', default: 0, flag: 'kube-controller-manager-port', env: 'KWOK_KUBE_CONTROLLER_MANAGER_PORT', description: 'Port of kube-controller-manager given to the host (default random)', honour: 'applied' }),
  opt({ key: 'kubeSchedulerPort', type: 'uint', default: 0, flag: 'kube-scheduler-port', env: 'KWOK_KUBE_SCHEDULER_PORT', description: 'Port of kube-scheduler given to the host (default random)', honour: 'applied' }),
  opt({ key: 'dashboardPort', type: 'uint', default: 0, flag: 'dashboard-port', deprecated: 'the Kubernetes dashboard has been retired', description: 'Port of the dashboard given to the host', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'kueuevizPort', type: 'uint', default: 0, flag: 'kueueviz-port', description: 'Port of kueueviz given to the host', honour: 'unsupported', note: NOT_YET }),
  opt({ key: 'kwokControllerPort', type: 'uint', default: 0, flag: 'controller-port', env: 'KWOK_CONTROLLER_PORT', description: 'Port of the kwok controller given to the host (default random)', honour: 'applied' }),
  opt({ key: 'metricsServerPort', type: 'uint', default: 0, description: 'Port of metrics-server given to the host', honour: 'applied' }),
  opt({ key: 'cacheDir', additions: ['env'], type: 'string', default: '', upstream: (c) => `${c.workdir}/cache`, env: 'KWOK_CACHE_DIR', description: 'Download and build cache (default $KWOK_WORKDIR/cache)', honour: 'differs', note: 'KWOK_CACHE_DIR is a kwokts addition' }),
  opt({ key: 'kubeControllerManagerNodeMonitorPeriodMilliseconds', type: 'int', default: 5000, description: 'kube-controller-manager --node-monitor-period, before the heartbeat factor', honour: 'applied' }),
  opt({ key: 'kubeControllerManagerNodeMonitorGracePeriodMilliseconds', type: 'int', default: 40000, description: 'kube-controller-manager --node-monitor-grace-period, before the heartbeat factor', honour: 'applied' }),
  opt({ key: 'nodeStatusUpdateFrequencyMilliseconds', type: 'int', default: 10000, description: 'Node heartbeat period without leases, before the heartbeat factor', honour: 'applied' }),
  opt({ key: 'nodeLeaseDurationSeconds', type: 'uint', default: 40, flag: 'node-lease-duration-seconds', description: 'Duration of the node lease in seconds, before the heartbeat factor', honour: 'applied' }),
  opt({ key: 'kwokControllerShards', type: 'uint', default: 1, flag: 'kwok-controller-shards', env: 'KWOK_CONTROLLER_SHARDS', description: 'Kwok controller processes sharing the nodes (each node leased by exactly one; see --shard of `kwokts kwok`)', honour: 'applied', kwoktsOnly: true }),
  opt({ key: 'heartbeatFactor', type: 'float', default: 5, flag: 'heartbeat-factor', description: 'Scale factor for everything about heartbeats (lease duration, status update frequency, node monitor periods)', honour: 'applied' }),
  opt({ key: 'bindAddress', additions: ['flag', 'env'], type: 'string', default: '127.0.0.1', upstream: () => '0.0.0.0', flag: 'bind-address', env: 'KWOK_BIND_ADDRESS', description: 'Address components listen on', honour: 'differs', note: 'default 127.0.0.1 (loopback) instead of 0.0.0.0, which in a config file (as `kwokctl config tidy` pins it) also means loopback; --bind-address and KWOK_BIND_ADDRESS (kwokts additions) are taken as given' }),
  opt({ key: 'kubeApiserverCertSANs', type: 'strings', default: [], description: "Extra Subject Alternative Names (DNS names or IPs) for the apiserver's certificate", honour: 'applied' }),
  opt({ key: 'disableQPSLimits', type: 'boolean', default: false, flag: 'disable-qps-limits', description: 'Disable QPS limits for components', honour: 'applied' }),
  opt({ key: 'etcdQuotaBackendSize', type: 'string', default: '8Gi', flag: 'etcd-quota-backend-size', description: 'Quota backend size for etcd', honour: 'applied' }),
  // kwokts additions.
  opt({ key: 'buildFromSource', type: 'string', default: 'auto', flag: 'build-from-source', env: 'KWOK_BUILD_FROM_SOURCE', description: 'Build binaries from Go modules when downloads fail: auto, never or always', honour: 'applied', kwoktsOnly: true }),
] as const;

export type OptionKey = (typeof OPTION_SPECS)[number]['key'];

/** Every option's value after resolution, typed from the table. */
export type ClusterOptionValues = { -readonly [S in (typeof OPTION_SPECS)[number] as S['key']]: ValueOf<S['type']> };

export const SPEC_BY_KEY: ReadonlyMap<string, OptionSpec> = new Map(OPTION_SPECS.map((s) => [s.key, s as OptionSpec]));

export function defaultOptionValues(): ClusterOptionValues {
  const out: Record<string, unknown> = {};
  for (const spec of OPTION_SPECS) out[spec.key] = Array.isArray(spec.default) ? [...(spec.default as readonly string[])] : spec.default;
  return out as ClusterOptionValues;
}

/** Go's GOOS and GOARCH names for this machine (the parts of kwokctl's default URLs). */
export function goPlatform(platform: string = process.platform, arch: string = process.arch): { goos: string; goarch: string } {
  const goos = platform === 'win32' ? 'windows' : platform;
  const goarch = arch === 'x64' ? 'amd64' : arch === 'ia32' ? '386' : arch;
  return { goos, goarch };
}

/**
 * kwokctl's default for every option that has one, derived the way kwokctl derives it from the
 * values that are given (so a file pinned at kubeVersion v1.30.0 has v1.30.0 images).
 */
export function upstreamDefaults(given: Readonly<Record<string, unknown>>, workdir: string, platform = goPlatform()): Map<string, unknown> {
  const memo = new Map<string, unknown>();
  const computing = new Set<string>();
  const ctx: UpstreamContext = {
    ...platform,
    workdir,
    get(key: string): unknown {
      const value = given[key];
      if (value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0)) return value;
      return upstreamOf(key);
    },
  };
  function upstreamOf(key: string): unknown {
    if (memo.has(key)) return memo.get(key);
    const spec = SPEC_BY_KEY.get(key);
    if (!spec || computing.has(key)) return spec?.default;
    computing.add(key);
    const value = spec.upstream ? spec.upstream(ctx) : spec.default;
    computing.delete(key);
    memo.set(key, value);
    return value;
  }
  for (const spec of OPTION_SPECS) upstreamOf(spec.key);
  return memo;
}
