import { levelName } from '../util/log.js';
import type { ClusterSpec, Component } from './component.js';
import { imageOf } from './image.js';
import { componentKubeconfig, componentPort, listenAddress, listenPort, placementOf } from './placement.js';

export function buildKwokController(spec: ClusterSpec): Component {
  const { ports, options, paths } = spec;
  const kubeconfig = componentKubeconfig(spec);
  // On the host the controller is this package's own JavaScript, run by the same Node that runs
  // the CLI; in a container the image's entrypoint already is `node …/kwok/main.js`.
  const onHost = placementOf(spec).kind === 'host';
  const args = [
    ...(onHost ? [spec.kwokControllerEntry] : []),
    '--manage-all-nodes=true',
    `--kubeconfig=${kubeconfig}`,
    `--config=${paths.config}`,
    `--tls-cert-file=${paths.adminCert}`,
    `--tls-private-key-file=${paths.adminKey}`,
    // Loopback: the address the apiserver reaches this controller's kubelet port on, and what
    // `kubectl get node -o wide` shows as INTERNAL-IP (kwokctl leaves it empty).
    '--node-ip=127.0.0.1',
    '--node-name=localhost',
    `--node-port=${listenPort(spec, 'kwokController')}`,
    `--server-address=${listenAddress(spec)}:${listenPort(spec, 'kwokController')}`,
    `--node-lease-duration-seconds=${options.nodeLeaseDurationSeconds * options.heartbeatFactor}`,
    // A stable identity: after a restart the controller still holds its node leases instead of
    // waiting for them to expire.
    `--id=kwok-${spec.name}-controller`,
  ];
  if (spec.enableCrds.length > 0) args.push(`--enable-crds=${spec.enableCrds.join(',')}`);
  if (spec.logLevel !== 0) args.push(`--v=${levelName(spec.logLevel)}`);
  return {
    name: 'kwok-controller',
    program: { path: process.execPath },
    args,
    env: {},
    links: ['kube-apiserver'],
    retriesLinks: true,
    ports: [componentPort(spec, 'http', 'kwokController')],
    probe: { scheme: 'http', port: ports.kwokController, path: '/healthz', clientCert: false },
    mounts: [
      { path: kubeconfig, readOnly: true },
      { path: paths.config, readOnly: true },
      { path: paths.pki, readOnly: true },
    ],
    ...imageOf(spec, 'kwok-controller'),
  };
}
