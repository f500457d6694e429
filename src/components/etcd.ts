import type { ClusterSpec, Component } from './component.js';
import { quantityToBytes } from './args.js';
import { imageOf } from './image.js';
import { componentPort, listenAddress, listenPort, reach } from './placement.js';

export function buildEtcd(spec: ClusterSpec): Component {
  const { ports, options } = spec;
  const bind = listenAddress(spec);
  const peer = `http://${reach(spec, 'etcd', 'etcdPeer')}`;
  const args = [
    '--name=node0',
    '--auto-compaction-retention=1',
    `--quota-backend-bytes=${quantityToBytes(options.etcdQuotaBackendSize)}`,
    `--data-dir=${spec.paths.etcdData}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--listen-peer-urls=http://${bind}:${listenPort(spec, 'etcdPeer')}`,
    `--advertise-client-urls=http://${reach(spec, 'etcd', 'etcd')}`,
    `--listen-client-urls=http://${bind}:${listenPort(spec, 'etcd')}`,
    `--initial-cluster=node0=${peer}`,
  ];
  if (spec.logLevel !== 0) args.push(`--log-level=${spec.logLevel < 0 ? 'debug' : spec.logLevel < 8 ? 'warn' : 'error'}`);
  return {
    name: 'etcd',
    program: { artifact: 'etcd' },
    args,
    env: {},
    links: [],
    ports: [componentPort(spec, 'http', 'etcd'), componentPort(spec, 'peer-http', 'etcdPeer')],
    probe: { scheme: 'http', port: ports.etcd, path: '/health', clientCert: false },
    mounts: [{ path: spec.paths.etcdData, readOnly: false }],
    ...imageOf(spec, 'etcd'),
  };
}

