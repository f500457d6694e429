import type { ClusterSpec, Component } from './component.js';
import { formatGoDuration, klogVerbosity } from './args.js';

export function buildKubeControllerManager(spec: ClusterSpec): Component {
  const { ports, options, paths } = spec;
  const factor = options.heartbeatFactor;
  const args: string[] = [];
  if (options.kubeFeatureGates) args.push(`--feature-gates=${options.kubeFeatureGates}`);
  args.push(
    `--node-monitor-period=${formatGoDuration(options.kubeControllerManagerNodeMonitorPeriodMilliseconds * factor)}`,
    `--node-monitor-grace-period=${formatGoDuration(options.kubeControllerManagerNodeMonitorGracePeriodMilliseconds * factor)}`,
    `--kubeconfig=${paths.kubeconfig}`,
    '--authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics',
    `--bind-address=${options.bindAddress}`,
    `--secure-port=${ports.kubeControllerManager}`,
    // A single instance per cluster: leader election only delays a restart by a lease period.
    '--leader-elect=false',
  );
  if (options.kubeAuthorization) args.push(`--root-ca-file=${paths.caCert}`, `--service-account-private-key-file=${paths.serviceAccountKey}`);
  if (options.disableQPSLimits) args.push('--kube-api-qps=5000', '--kube-api-burst=10000');
  args.push(...klogVerbosity(spec.logLevel));
  return {
    name: 'kube-controller-manager',
    program: { artifact: 'kube-controller-manager' },
    args,
    env: {},
    links: ['kube-apiserver'],
    retriesLinks: true,
    ports: [{ name: 'https', port: ports.kubeControllerManager }],
    probe: { scheme: 'https', port: ports.kubeControllerManager, path: '/healthz', clientCert: false },
  };
}
