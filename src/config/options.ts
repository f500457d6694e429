/**
 * The cluster options users can set, described once: flag name, KWOK_* variable, config-file
 * field (KwokctlConfiguration.options) and default. Flag > env > config files > default, as in
 * kwokctl. Commands build their flags from this table; the loader resolves values from it.
 */
export type OptionType = 'string' | 'integer' | 'boolean';

export interface OptionSpec {
  /** Field name in KwokctlConfiguration.options (camelCase, as kwokctl spells it). */
  key: keyof ClusterOptionValues;
  type: OptionType;
  /** Flag name without dashes; undefined for config-only options. */
  flag?: string;
  /** Environment variable; undefined when kwokctl has none. */
  env?: string;
  description: string;
  hidden?: boolean;
}

export interface ClusterOptionValues {
  runtime: string;
  kubeVersion: string;
  etcdVersion: string;
  kubeApiserverPort: number;
  etcdPort: number;
  etcdPeerPort: number;
  kubeControllerManagerPort: number;
  kubeSchedulerPort: number;
  kwokControllerPort: number;
  prometheusPort: number;
  secureport: boolean;
  kubeAuthorization: boolean;
  kubeAdmission: boolean;
  kubeFeatureGates: string;
  kubeRuntimeConfig: string;
  kubeAuditPolicy: string;
  kubeSchedulerConfig: string;
  etcdPrefix: string;
  etcdQuotaBackendSize: string;
  disableQPSLimits: boolean;
  nodeLeaseDurationSeconds: number;
  heartbeatFactor: number;
  nodeStatusUpdateFrequencyMilliseconds: number;
  kubeControllerManagerNodeMonitorPeriodMilliseconds: number;
  kubeControllerManagerNodeMonitorGracePeriodMilliseconds: number;
  bindAddress: string;
  quietPull: boolean;
  cacheDir: string;
  kubeBinaryPrefix: string;
  etcdBinaryPrefix: string;
  kubeApiserverBinary: string;
  kubeControllerManagerBinary: string;
  kubeSchedulerBinary: string;
  kubectlBinary: string;
  etcdBinary: string;
  etcdctlBinary: string;
  prometheusBinary: string;
  prometheusVersion: string;
  /** How binaries may be obtained when downloads fail: build from Go modules (auto), never, or always. */
  buildFromSource: string;
  etcdImage: string;
  kubeApiserverImage: string;
  kubeControllerManagerImage: string;
  kubeSchedulerImage: string;
  kwokControllerImage: string;
  prometheusImage: string;
  kubeImagePrefix: string;
  etcdImagePrefix: string;
  kwokImagePrefix: string;
  prometheusImagePrefix: string;
  kindNodeImage: string;
  kindNodeImagePrefix: string;
  kindBinary: string;
}

export const OPTION_SPECS: readonly OptionSpec[] = [
  { key: 'runtime', type: 'string', flag: 'runtime', env: 'KWOK_RUNTIME', description: 'Runtime of the cluster: binary, docker, podman, nerdctl or kind (default: the first of docker, podman, nerdctl that is available, else binary)' },
  { key: 'kubeVersion', type: 'string', env: 'KWOK_KUBE_VERSION', description: 'Kubernetes version' },
  { key: 'etcdVersion', type: 'string', env: 'KWOK_ETCD_VERSION', description: 'etcd version (default: paired with the Kubernetes version)' },
  { key: 'kubeApiserverPort', type: 'integer', flag: 'kube-apiserver-port', env: 'KWOK_KUBE_APISERVER_PORT', description: 'Port of the apiserver on the host (0: pick a free one)' },
  { key: 'etcdPort', type: 'integer', flag: 'etcd-port', env: 'KWOK_ETCD_PORT', description: 'Port of etcd clients on the host (0: pick a free one)' },
  { key: 'etcdPeerPort', type: 'integer', description: 'Port of etcd peers on the host (0: pick a free one)' },
  { key: 'kubeControllerManagerPort', type: 'integer', flag: 'kube-controller-manager-port', env: 'KWOK_KUBE_CONTROLLER_MANAGER_PORT', description: 'Port of kube-controller-manager (0: pick a free one)' },
  { key: 'kubeSchedulerPort', type: 'integer', flag: 'kube-scheduler-port', env: 'KWOK_KUBE_SCHEDULER_PORT', description: 'Port of kube-scheduler (0: pick a free one)' },
  { key: 'kwokControllerPort', type: 'integer', flag: 'controller-port', env: 'KWOK_CONTROLLER_PORT', description: 'Port of the kwok controller (0: pick a free one)' },
  { key: 'prometheusPort', type: 'integer', flag: 'prometheus-port', env: 'KWOK_PROMETHEUS_PORT', description: 'Port of Prometheus; non-zero enables it' },
  { key: 'secureport', type: 'boolean', flag: 'secure-port', env: 'KWOK_SECURE_PORT', description: 'Serve the apiserver over TLS' },
  { key: 'kubeAuthorization', type: 'boolean', flag: 'kube-authorization', env: 'KWOK_KUBE_AUTHORIZATION', description: 'Enable Node,RBAC authorization in the apiserver' },
  { key: 'kubeAdmission', type: 'boolean', flag: 'kube-admission', env: 'KWOK_KUBE_ADMISSION', description: 'Enable admission plugins in the apiserver' },
  { key: 'kubeFeatureGates', type: 'string', flag: 'kube-feature-gates', env: 'KWOK_KUBE_FEATURE_GATES', description: 'Feature gates of Kubernetes components' },
  { key: 'kubeRuntimeConfig', type: 'string', flag: 'kube-runtime-config', env: 'KWOK_KUBE_RUNTIME_CONFIG', description: 'API runtime config of the apiserver' },
  { key: 'kubeAuditPolicy', type: 'string', flag: 'kube-audit-policy', env: 'KWOK_KUBE_AUDIT_POLICY', description: 'Path to an audit policy file' },
  { key: 'kubeSchedulerConfig', type: 'string', flag: 'kube-scheduler-config', description: 'Path to a KubeSchedulerConfiguration file' },
  { key: 'etcdPrefix', type: 'string', flag: 'etcd-prefix', description: 'etcd key prefix of the apiserver' },
  { key: 'etcdQuotaBackendSize', type: 'string', flag: 'etcd-quota-backend-size', description: 'etcd backend quota (e.g. 8Gi)' },
  { key: 'disableQPSLimits', type: 'boolean', flag: 'disable-qps-limits', description: 'Lift client QPS limits and apiserver in-flight limits' },
  { key: 'nodeLeaseDurationSeconds', type: 'integer', flag: 'node-lease-duration-seconds', description: 'Node lease duration, before the heartbeat factor (0 disables leases)' },
  { key: 'heartbeatFactor', type: 'integer', flag: 'heartbeat-factor', description: 'Multiplier for lease, heartbeat and node-monitor periods' },
  { key: 'nodeStatusUpdateFrequencyMilliseconds', type: 'integer', description: 'Node heartbeat period without leases' },
  { key: 'kubeControllerManagerNodeMonitorPeriodMilliseconds', type: 'integer', description: 'kube-controller-manager --node-monitor-period' },
  { key: 'kubeControllerManagerNodeMonitorGracePeriodMilliseconds', type: 'integer', description: 'kube-controller-manager --node-monitor-grace-period' },
  { key: 'bindAddress', type: 'string', flag: 'bind-address', env: 'KWOK_BIND_ADDRESS', description: 'Address components listen on (loopback by default)' },
  { key: 'quietPull', type: 'boolean', flag: 'quiet-pull', env: 'KWOK_QUIET_PULL', description: 'Pull images and download binaries without progress' },
  { key: 'cacheDir', type: 'string', env: 'KWOK_CACHE_DIR', description: 'Download and build cache (default $KWOK_WORKDIR/cache)' },
  { key: 'kubeBinaryPrefix', type: 'string', env: 'KWOK_KUBE_BINARY_PREFIX', description: 'Mirror of the Kubernetes binaries' },
  { key: 'etcdBinaryPrefix', type: 'string', env: 'KWOK_ETCD_BINARY_PREFIX', description: 'Mirror of the etcd release archives' },
  { key: 'kubeApiserverBinary', type: 'string', flag: 'kube-apiserver-binary', env: 'KWOK_KUBE_APISERVER_BINARY', description: 'kube-apiserver: URL, file:// URL or path' },
  { key: 'kubeControllerManagerBinary', type: 'string', flag: 'kube-controller-manager-binary', env: 'KWOK_KUBE_CONTROLLER_MANAGER_BINARY', description: 'kube-controller-manager: URL, file:// URL or path' },
  { key: 'kubeSchedulerBinary', type: 'string', flag: 'kube-scheduler-binary', env: 'KWOK_KUBE_SCHEDULER_BINARY', description: 'kube-scheduler: URL, file:// URL or path' },
  { key: 'kubectlBinary', type: 'string', flag: 'kubectl-binary', env: 'KWOK_KUBECTL_BINARY', description: 'kubectl: URL, file:// URL or path' },
  { key: 'etcdBinary', type: 'string', flag: 'etcd-binary', env: 'KWOK_ETCD_BINARY', description: 'etcd: URL (archive#member), file:// URL or path' },
  { key: 'etcdctlBinary', type: 'string', flag: 'etcdctl-binary', env: 'KWOK_ETCDCTL_BINARY', description: 'etcdctl: URL (archive#member), file:// URL or path' },
  { key: 'prometheusBinary', type: 'string', flag: 'prometheus-binary', env: 'KWOK_PROMETHEUS_BINARY', description: 'prometheus: URL (archive#member), file:// URL or path' },
  { key: 'prometheusVersion', type: 'string', env: 'KWOK_PROMETHEUS_VERSION', description: 'Prometheus version' },
  { key: 'etcdImage', type: 'string', flag: 'etcd-image', env: 'KWOK_ETCD_IMAGE', description: 'Image of etcd (container runtimes)' },
  { key: 'kubeApiserverImage', type: 'string', flag: 'kube-apiserver-image', env: 'KWOK_KUBE_APISERVER_IMAGE', description: 'Image of kube-apiserver (container runtimes)' },
  { key: 'kubeControllerManagerImage', type: 'string', flag: 'kube-controller-manager-image', env: 'KWOK_KUBE_CONTROLLER_MANAGER_IMAGE', description: 'Image of kube-controller-manager (container runtimes)' },
  { key: 'kubeSchedulerImage', type: 'string', flag: 'kube-scheduler-image', env: 'KWOK_KUBE_SCHEDULER_IMAGE', description: 'Image of kube-scheduler (container runtimes)' },
  { key: 'kwokControllerImage', type: 'string', flag: 'kwok-controller-image', env: 'KWOK_CONTROLLER_IMAGE', description: 'Image of the kwok controller (container and kind runtimes)' },
  { key: 'prometheusImage', type: 'string', flag: 'prometheus-image', env: 'KWOK_PROMETHEUS_IMAGE', description: 'Image of Prometheus (container runtimes)' },
  { key: 'kubeImagePrefix', type: 'string', env: 'KWOK_KUBE_IMAGE_PREFIX', description: 'Registry of the Kubernetes images (default registry.k8s.io)' },
  { key: 'etcdImagePrefix', type: 'string', env: 'KWOK_ETCD_IMAGE_PREFIX', description: 'Registry of the etcd image (default registry.k8s.io)' },
  { key: 'kwokImagePrefix', type: 'string', env: 'KWOK_IMAGE_PREFIX', description: 'Registry of the kwok controller image (default ghcr.io/kwokts)' },
  { key: 'prometheusImagePrefix', type: 'string', env: 'KWOK_PROMETHEUS_IMAGE_PREFIX', description: 'Registry of the Prometheus image (default docker.io/prom)' },
  { key: 'kindNodeImage', type: 'string', flag: 'kind-node-image', env: 'KWOK_KIND_NODE_IMAGE', description: 'Node image of the kind runtime' },
  { key: 'kindNodeImagePrefix', type: 'string', env: 'KWOK_KIND_NODE_IMAGE_PREFIX', description: 'Registry of the kind node image (default docker.io/kindest)' },
  { key: 'kindBinary', type: 'string', flag: 'kind-binary', env: 'KWOK_KIND_BINARY', description: 'The kind program (default: kind on PATH)' },
  { key: 'buildFromSource', type: 'string', flag: 'build-from-source', env: 'KWOK_BUILD_FROM_SOURCE', description: 'Build binaries from Go modules when downloads fail: auto, never or always' },
];

export function defaultOptionValues(): ClusterOptionValues {
  return {
    runtime: '',
    kubeVersion: '',
    etcdVersion: '',
    kubeApiserverPort: 0,
    etcdPort: 0,
    etcdPeerPort: 0,
    kubeControllerManagerPort: 0,
    kubeSchedulerPort: 0,
    kwokControllerPort: 0,
    prometheusPort: 0,
    secureport: true,
    kubeAuthorization: true,
    kubeAdmission: true,
    kubeFeatureGates: '',
    kubeRuntimeConfig: '',
    kubeAuditPolicy: '',
    kubeSchedulerConfig: '',
    etcdPrefix: '/registry',
    etcdQuotaBackendSize: '8Gi',
    disableQPSLimits: false,
    nodeLeaseDurationSeconds: 40,
    heartbeatFactor: 5,
    nodeStatusUpdateFrequencyMilliseconds: 10000,
    kubeControllerManagerNodeMonitorPeriodMilliseconds: 5000,
    kubeControllerManagerNodeMonitorGracePeriodMilliseconds: 40000,
    bindAddress: '127.0.0.1',
    quietPull: false,
    cacheDir: '',
    kubeBinaryPrefix: '',
    etcdBinaryPrefix: '',
    kubeApiserverBinary: '',
    kubeControllerManagerBinary: '',
    kubeSchedulerBinary: '',
    kubectlBinary: '',
    etcdBinary: '',
    etcdctlBinary: '',
    prometheusBinary: '',
    prometheusVersion: '',
    buildFromSource: 'auto',
    etcdImage: '',
    kubeApiserverImage: '',
    kubeControllerManagerImage: '',
    kubeSchedulerImage: '',
    kwokControllerImage: '',
    prometheusImage: '',
    kubeImagePrefix: '',
    etcdImagePrefix: '',
    kwokImagePrefix: '',
    prometheusImagePrefix: '',
    kindNodeImage: '',
    kindNodeImagePrefix: '',
    kindBinary: '',
  };
}
