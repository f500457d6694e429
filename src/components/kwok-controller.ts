import { levelName } from '../util/log.js';
import type { ClusterSpec, Component } from './component.js';

export function buildKwokController(spec: ClusterSpec): Component {
  const { ports, options, paths } = spec;
  const args = [
    spec.kwokControllerEntry,
    '--manage-all-nodes=true',
    `--kubeconfig=${paths.kubeconfig}`,
    `--config=${paths.config}`,
    `--tls-cert-file=${paths.adminCert}`,
    `--tls-private-key-file=${paths.adminKey}`,
    // Loopback: the address the apiserver reaches this controller's kubelet port on, and what
    // `kubectl get node -o wide` shows as INTERNAL-IP (kwokctl leaves it empty).
    '--node-ip=127.0.0.1',
    '--node-name=localhost',
    `--node-port=${ports.kwokController}`,
    `--server-address=${options.bindAddress}:${ports.kwokController}`,
    `--node-lease-duration-seconds=${options.nodeLeaseDurationSeconds * options.heartbeatFactor}`,
    // A stable identity: after a restart the controller still holds its node leases instead of
    // waiting for them to expire.
    `--id=kwok-${spec.name}-controller`,
  ];
  if (spec.enableCrds.length > 0) args.push(`--enable-crds=${spec.enableCrds.join(',')}`);
  if (spec.logLevel !== 0) args.push(`--v=${levelName(spec.logLevel)}`);
  return {
    name: 'kwok-controller',
    // The controller is this package's own JavaScript, run by the same Node that runs the CLI.
    program: { path: process.execPath },
    args,
    env: {},
    links: ['kube-apiserver'],
    retriesLinks: true,
    ports: [{ name: 'http', port: ports.kwokController }],
    probe: { scheme: 'http', port: ports.kwokController, path: '/healthz', clientCert: false },
  };
}
