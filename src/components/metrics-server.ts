import type { ClusterSpec, Component } from './component.js';
import { klogVerbosity } from './args.js';
import { imageOf } from './image.js';
import { componentKubeconfig, publishedPorts, listenAddress, listenPort, placementOf } from './placement.js';

/** The APIService metrics-server is registered as; `kubectl top` reads through it. */
export const METRICS_API_SERVICE = 'v1beta1.metrics.k8s.io';

/**
 * metrics-server as kwokctl runs it: it scrapes each node's kubelet endpoint, which is the kwok
 * controller (node-initialize gives nodes without addresses the controller's address and port, and
 * the node annotation metrics.k8s.io/resource-metrics-path points at the Metric's per-node path).
 * It serves with the cluster's certificate and authenticates through the apiserver's kubeconfig.
 *
 * One difference from kwokctl: kwokctl passes --kubelet-insecure-tls; the controller serves a
 * certificate of the cluster CA for the address metrics-server dials, so it is verified instead.
 */
export function buildMetricsServer(spec: ClusterSpec): Component {
  const { paths, ports } = spec;
  const kubeconfig = componentKubeconfig(spec);
  // The address type that reaches the controller first: loopback on the host, its name in containers.
  const addressTypes = placementOf(spec).kind === 'host' ? 'InternalIP,ExternalIP,Hostname' : 'Hostname,InternalIP,ExternalIP';
  const args = [
    `--kubelet-preferred-address-types=${addressTypes}`,
    '--kubelet-use-node-status-port',
    `--kubelet-certificate-authority=${paths.caCert}`,
    // Prometheus' identity (system:monitoring): the controller lets it read metrics and nothing else.
    `--kubelet-client-certificate=${paths.prometheusCert}`,
    `--kubelet-client-key=${paths.prometheusKey}`,
    '--metric-resolution=15s',
    `--bind-address=${listenAddress(spec)}`,
    `--secure-port=${listenPort(spec, 'metricsServer')}`,
    `--kubeconfig=${kubeconfig}`,
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    `--tls-cert-file=${paths.adminCert}`,
    `--tls-private-key-file=${paths.adminKey}`,
    ...klogVerbosity(spec.logLevel),
  ];
  return {
    name: 'metrics-server',
    program: { artifact: 'metrics-server' },
    // In a container, the program where metrics-server's image has it, as kwokctl names it: that
    // image (distroless) has nothing on its PATH.
    command: ['/metrics-server'],
    args,
    env: {},
    links: ['kube-apiserver', 'kwok-controller'],
    // It retries the apiserver and scrapes again every resolution period.
    retriesLinks: true,
    ports: publishedPorts(spec, 'metrics-server'),
    probe: { scheme: 'https', port: ports.metricsServer, path: '/livez', clientCert: true },
    mounts: [
      { path: kubeconfig, readOnly: true },
      { path: paths.pki, readOnly: true },
    ],
    ...imageOf(spec, 'metrics-server'),
    runAsFileOwner: true,
  };
}

/**
 * What kwokctl applies from metrics-server's manifest, without the Deployment: the Service as an
 * ExternalName for where metrics-server really listens, and the APIService through which the
 * apiserver proxies metrics.k8s.io to it (metrics-server serves the cluster's certificate, whose
 * names are not the Service's, so the apiserver skips verifying it, as in upstream's manifest).
 */
export function metricsServerManifests(spec: ClusterSpec): Array<Record<string, unknown>> {
  const host = placementOf(spec).kind === 'host' ? '127.0.0.1' : `kwok-${spec.name}-metrics-server`;
  const port = listenPort(spec, 'metricsServer');
  const labels = { 'k8s-app': 'metrics-server' };
  return [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'metrics-server', namespace: 'kube-system', labels },
      spec: { type: 'ExternalName', externalName: host, ports: [{ name: 'https', port, protocol: 'TCP', targetPort: port }] },
    },
    {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: METRICS_API_SERVICE, labels },
      spec: {
        group: 'metrics.k8s.io',
        version: 'v1beta1',
        groupPriorityMinimum: 100,
        versionPriority: 100,
        insecureSkipTLSVerify: true,
        service: { name: 'metrics-server', namespace: 'kube-system', port },
      },
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'system:aggregated-metrics-reader', labels: { ...labels, 'rbac.authorization.k8s.io/aggregate-to-admin': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true', 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [{ apiGroups: ['metrics.k8s.io'], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }],
    },
  ];
}
