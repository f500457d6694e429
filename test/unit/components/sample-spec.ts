/** One cluster spec for the component and runtime unit tests; each test overrides what it is about. */
import type { ClusterSpec } from '../../../src/components/index.js';
import { clusterPaths } from '../../../src/naming/naming.js';
import { defaultOptionValues } from '../../../src/config/options.js';

export function sampleSpec(overrides: Partial<ClusterSpec> = {}): ClusterSpec {
  return {
    name: 'c1',
    paths: clusterPaths('/w', 'c1'),
    options: defaultOptionValues(),
    kubeVersion: 'v1.36.1',
    etcdVersion: 'v3.6.10',
    ports: { etcd: 2001, etcdPeer: 2002, etcdMetrics: 2008, kubeApiserver: 2003, kubeControllerManager: 2004, kubeScheduler: 2005, kwokController: 2006, prometheus: 0, metricsServer: -1, jaeger: -1, jaegerOtlpGrpc: -1 },
    components: ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller'],
    logLevel: 0,
    kwokControllerEntry: '/pkg/bin/kwok-controller.js',
    enableCrds: [],
    ...overrides,
  };
}
