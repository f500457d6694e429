import { UsageError } from '../util/errors.js';
import { levelName } from '../util/log.js';
import { CLIENT_CA_FILE_ENV, CONTROLLER_ID_ENV } from '../util/controller-identity.js';
import type { ClusterSpec, Component } from './component.js';
import { imageOf } from './image.js';
import { componentKubeconfig, publishedPorts, listenAddress, listenPort, networkName, placementOf } from './placement.js';

/**
 * How kube-apiserver finds this controller's kubelet endpoint (for `kubectl logs`): node-initialize
 * writes --node-ip as the InternalIP and --node-name as the Hostname address, and --node-port as
 * the kubelet port. On the host that is loopback; in a container, its name on the cluster network
 * (loopback there would be the apiserver's own container). kubeletAddressTypes tells the apiserver
 * which one to use.
 */
export function kubeletAddress(spec: ClusterSpec): { nodeIP: string; nodeName: string } {
  return { nodeIP: '127.0.0.1', nodeName: networkName(spec, 'kwok-controller') ?? 'localhost' };
}

export function kubeletAddressTypes(spec: ClusterSpec): string {
  // The apiserver's default order, with the type that reaches the controller moved first.
  const first = placementOf(spec).kind === 'host' ? 'InternalIP' : 'Hostname';
  return [first, ...['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'].filter((t) => t !== first)].join(',');
}

/**
 * A larger young generation for V8 than Node's default: the controller makes short-lived objects
 * for every watch event and request, and with room for more of them between scavenges, fewer
 * survive to be copied; it trades some peak RSS for less CPU (the controller benchmark,
 * `npm run bench -- controller`, shows both). The Dockerfile's entrypoint passes the same (a unit
 * test keeps them equal).
 */
export const CONTROLLER_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=64'];

export function buildKwokController(spec: ClusterSpec): Component {
  const { ports, options, paths } = spec;
  const kubeconfig = componentKubeconfig(spec);
  // On the host the controller is this package's own executable (bin/kwok-controller.js), or
  // options.kwokControllerBinary (kwokctl's --kwok-controller-binary, binary runtime only); in a
  // container the image's entrypoint (`node …/kwok/main.js` in ours, Go's kwok in kwokctl's). Either
  // way the flags are those kwokctl passes, which Go's kwok knows too.
  const onHost = placementOf(spec).kind === 'host';
  const external = onHost && options.kwokControllerBinary !== '' ? options.kwokControllerBinary : undefined;
  const address = kubeletAddress(spec);
  const args = [
    '--manage-all-nodes=true',
    `--kubeconfig=${kubeconfig}`,
    `--config=${paths.config}`,
    `--tls-cert-file=${paths.adminCert}`,
    `--tls-private-key-file=${paths.adminKey}`,
    // Also what `kubectl get node -o wide` shows as INTERNAL-IP (kwokctl leaves it empty).
    `--node-ip=${address.nodeIP}`,
    `--node-name=${address.nodeName}`,
    `--node-port=${listenPort(spec, 'kwokController')}`,
    `--server-address=${listenAddress(spec)}:${listenPort(spec, 'kwokController')}`,
    `--node-lease-duration-seconds=${Math.trunc(options.nodeLeaseDurationSeconds * options.heartbeatFactor)}`,
  ];
  if (external && options.kwokControllerShards > 1) {
    throw new UsageError('--kwok-controller-shards needs kwokts\'s own controller', { hint: 'drop --kwok-controller-binary, or --kwok-controller-shards' });
  }
  // Shards run as children of this one process (src/kwok/app/shard-processes.ts); Go's kwok has no sharding.
  if (!external && options.kwokControllerShards > 1) args.push(`--shards=${options.kwokControllerShards}`);
  if (spec.enableCrds.length > 0) args.push(`--enable-crds=${spec.enableCrds.join(',')}`);
  if (spec.logLevel !== 0) args.push(`--v=${levelName(spec.logLevel)}`);
  return {
    name: 'kwok-controller',
    program: { path: external ?? spec.kwokControllerEntry },
    args,
    // A stable identity, and the CA of the client certificates its kubelet endpoints require (the
    // apiserver's, and Prometheus' and metrics-server's for metrics), by variable so that Go's kwok
    // (a user's image or binary) runs with the same flags.
    env: { [CONTROLLER_ID_ENV]: `kwok-${spec.name}-controller`, [CLIENT_CA_FILE_ENV]: paths.caCert },
    links: ['kube-apiserver'],
    retriesLinks: true,
    startsWhenLinksServe: true,
    ports: publishedPorts(spec, 'kwok-controller'),
    probe: { scheme: 'http', port: ports.kwokController, path: '/healthz', clientCert: false },
    mounts: [
      { path: kubeconfig, readOnly: true },
      { path: paths.config, readOnly: true },
      { path: paths.pki, readOnly: true },
      // The files `kubectl logs` reads (Logs/ClusterLogs), as kwokctl mounts them.
      ...(spec.logDirs ?? []).map((path) => ({ path, readOnly: true })),
    ],
    ...imageOf(spec, 'kwok-controller'),
    ...(onHost && !external ? { defersExtraCaCerts: true, nodeOptions: CONTROLLER_NODE_OPTIONS } : {}),
  };
}
