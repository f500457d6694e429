import type { ClusterSpec, Component } from './component.js';
import { formatGoDuration, klogVerbosity } from './args.js';
import { delegatedAuthArgs } from './delegated-auth.js';
import { imageOf } from './image.js';
import { componentKubeconfig, publishedPorts, listenAddress, listenPort } from './placement.js';

export function buildKubeControllerManager(spec: ClusterSpec): Component {
  const { ports, options, paths } = spec;
  const factor = options.heartbeatFactor;
  const kubeconfig = componentKubeconfig(spec);
  const args: string[] = [];
  if (options.kubeFeatureGates) args.push(`--feature-gates=${options.kubeFeatureGates}`);
  args.push(
    `--node-monitor-period=${formatGoDuration(options.kubeControllerManagerNodeMonitorPeriodMilliseconds * factor)}`,
    `--node-monitor-grace-period=${formatGoDuration(options.kubeControllerManagerNodeMonitorGracePeriodMilliseconds * factor)}`,
    `--kubeconfig=${kubeconfig}`,
    ...delegatedAuthArgs(kubeconfig, paths.caCert, options.kubeAuthorization),
    `--bind-address=${listenAddress(spec)}`,
    `--secure-port=${listenPort(spec, 'kubeControllerManager')}`,
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
    startsWhenLinksServe: true,
    ports: publishedPorts(spec, 'kube-controller-manager'),
    probe: { scheme: 'https', port: ports.kubeControllerManager, path: '/healthz', clientCert: false },
    mounts: [{ path: kubeconfig, readOnly: true }, { path: paths.pki, readOnly: true }],
    ...imageOf(spec, 'kube-controller-manager'),
  };
}
