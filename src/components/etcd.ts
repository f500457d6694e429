import type { ClusterSpec, Component } from './component.js';
import { quantityToBytes } from './args.js';

export function buildEtcd(spec: ClusterSpec): Component {
  const { ports, options } = spec;
  const bind = options.bindAddress;
  const peer = `http://127.0.0.1:${ports.etcdPeer}`;
  const args = [
    '--name=node0',
    '--auto-compaction-retention=1',
    `--quota-backend-bytes=${quantityToBytes(options.etcdQuotaBackendSize)}`,
    `--data-dir=${spec.paths.etcdData}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--listen-peer-urls=http://${bind}:${ports.etcdPeer}`,
    `--advertise-client-urls=http://127.0.0.1:${ports.etcd}`,
    `--listen-client-urls=http://${bind}:${ports.etcd}`,
    `--initial-cluster=node0=${peer}`,
  ];
  if (spec.logLevel !== 0) args.push(`--log-level=${spec.logLevel < 0 ? 'debug' : spec.logLevel < 8 ? 'warn' : 'error'}`);
  return {
    name: 'etcd',
    program: { artifact: 'etcd' },
    args,
    env: {},
    links: [],
    ports: [
      { name: 'http', port: ports.etcd },
      { name: 'peer-http', port: ports.etcdPeer },
    ],
    probe: { scheme: 'http', port: ports.etcd, path: '/health', clientCert: false },
  };
}
