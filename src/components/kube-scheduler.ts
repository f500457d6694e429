import type { ClusterSpec, Component } from './component.js';
import { klogVerbosity } from './args.js';

export function buildKubeScheduler(spec: ClusterSpec): Component {
  const { ports, options, paths } = spec;
  const args: string[] = [];
  if (options.kubeFeatureGates) args.push(`--feature-gates=${options.kubeFeatureGates}`);
  if (options.kubeSchedulerConfig) args.push(`--config=${paths.schedulerConfig}`);
  else args.push(`--kubeconfig=${paths.kubeconfig}`, '--leader-elect=false');
  args.push(
    '--authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics',
    `--bind-address=${options.bindAddress}`,
    `--secure-port=${ports.kubeScheduler}`,
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
    ports: [{ name: 'https', port: ports.kubeScheduler }],
    probe: { scheme: 'https', port: ports.kubeScheduler, path: '/healthz', clientCert: false },
  };
}
