import type { ClusterSpec, Component, ComponentMount } from './component.js';
import { klogVerbosity } from './args.js';
import { delegatedAuthArgs } from './delegated-auth.js';
import { imageOf } from './image.js';
import { componentKubeconfig, publishedPorts, listenAddress, listenPort } from './placement.js';

export function buildKubeScheduler(spec: ClusterSpec): Component {
  const { ports, options, paths } = spec;
  const kubeconfig = componentKubeconfig(spec);
  const mounts: ComponentMount[] = [{ path: kubeconfig, readOnly: true }, { path: paths.pki, readOnly: true }];
  const args: string[] = [];
  if (options.kubeFeatureGates) args.push(`--feature-gates=${options.kubeFeatureGates}`);
  if (options.kubeSchedulerConfig) {
    args.push(`--config=${paths.schedulerConfig}`);
    mounts.push({ path: paths.schedulerConfig, readOnly: true });
  } else args.push(`--kubeconfig=${kubeconfig}`, '--leader-elect=false');
  args.push(
    ...delegatedAuthArgs(kubeconfig, paths.caCert, options.kubeAuthorization),
    `--bind-address=${listenAddress(spec)}`,
    `--secure-port=${listenPort(spec, 'kubeScheduler')}`,
  );
  if (options.disableQPSLimits && !options.kubeSchedulerConfig) args.push('--kube-api-qps=5000', '--kube-api-burst=10000');
  args.push(...klogVerbosity(spec.logLevel));
  return {
    name: 'kube-scheduler',
    program: { artifact: 'kube-scheduler' },
    args,
    env: {},
    links: ['kube-apiserver'],
    retriesLinks: true,
    startsWhenLinksServe: true,
    ports: publishedPorts(spec, 'kube-scheduler'),
    probe: { scheme: 'https', port: ports.kubeScheduler, path: '/healthz', clientCert: false },
    mounts,
    ...imageOf(spec, 'kube-scheduler'),
    // scheduler-plugins' scheduler image runs as 65532 (kube-scheduler's own runs as root), who
    // cannot read the cluster's 0600 kubeconfig and keys.
    ...(spec.components.includes('scheduler-plugins') ? { runAsFileOwner: true } : {}),
  };
}
