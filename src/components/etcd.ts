import type { ClusterSpec, Component } from './component.js';
import { quantityToBytes } from './args.js';
import { imageOf } from './image.js';
import { etcdSocket, publishedPorts, listenAddress, listenPort, placementOf, reach } from './placement.js';

/**
 * etcd as kubeadm runs it: clients and peers over TLS with client-certificate authentication
 * against etcd's own CA (pki/etcd/ca.crt), so only the apiserver and the host's etcdctl (each
 * with a certificate from that CA) can read or write it. /metrics and /health are also served
 * on a separate plain-HTTP listener, which exposes no data: Prometheus and the readiness check
 * use it without a certificate. On the host it binds loopback whatever --bind-address says; in
 * a container it must answer the other containers, and is published on the host's loopback only.
 * On the host it also listens on a unix socket in the cluster directory, for the apiserver only
 * (see etcdSocket).
 */
export function buildEtcd(spec: ClusterSpec): Component {
  const { ports, options, paths } = spec;
  const bind = listenAddress(spec);
  const metricsBind = placementOf(spec).kind === 'host' ? '127.0.0.1' : '0.0.0.0';
  const peer = `https://${reach(spec, 'etcd', 'etcdPeer')}`;
  const socket = etcdSocket(spec);
  const args = [
    '--name=node0',
    '--auto-compaction-retention=1',
    `--quota-backend-bytes=${quantityToBytes(options.etcdQuotaBackendSize)}`,
    `--data-dir=${paths.etcdData}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--listen-peer-urls=https://${bind}:${listenPort(spec, 'etcdPeer')}`,
    `--advertise-client-urls=https://${reach(spec, 'etcd', 'etcd')}`,
    // unix:// (not unixs://) is served without TLS; etcd ignores --client-cert-auth there.
    `--listen-client-urls=https://${bind}:${listenPort(spec, 'etcd')}${socket ? `,unix://${socket}` : ''}`,
    `--listen-metrics-urls=http://${metricsBind}:${listenPort(spec, 'etcdMetrics')}`,
    `--initial-cluster=node0=${peer}`,
    `--cert-file=${paths.etcdServerCert}`,
    `--key-file=${paths.etcdServerKey}`,
    '--client-cert-auth=true',
    `--trusted-ca-file=${paths.etcdCaCert}`,
    `--peer-cert-file=${paths.etcdPeerCert}`,
    `--peer-key-file=${paths.etcdPeerKey}`,
    '--peer-client-cert-auth=true',
    `--peer-trusted-ca-file=${paths.etcdCaCert}`,
    // One member, nobody to elect against: with etcd's default ticks a new or restarted member
    // waits a random part of its election timeout for its own election, and kube-apiserver waits
    // for it. Ten times shorter ticks cut that wait tenfold. The raft timing changes nothing a
    // client sees (a single member cannot lose its leadership to anyone).
    '--heartbeat-interval=10',
    '--election-timeout=100',
  ];
  if (spec.logLevel !== 0) args.push(`--log-level=${spec.logLevel < 0 ? 'debug' : spec.logLevel < 8 ? 'warn' : 'error'}`);
  args.push(...tracingArgs(spec));
  return {
    name: 'etcd',
    program: { artifact: 'etcd' },
    args,
    env: {},
    links: [],
    ports: publishedPorts(spec, 'etcd'),
    probe: { scheme: 'http', port: ports.etcdMetrics, path: '/health', clientCert: false },
    mounts: [
      { path: paths.etcdData, readOnly: false },
      { path: paths.etcdPki, readOnly: true },
    ],
    ...imageOf(spec, 'etcd'),
  };
}

/**
 * When jaeger runs, etcd traces every request to its OTLP gRPC collector, as kwokctl has it do
 * (with the apiserver's traces, a request can be followed into etcd). etcd 3.5 brought the flags
 * as experimental and 3.6 graduated them; the experimental spellings, which kwokctl passes, are
 * to be removed in 3.7 (etcd 3.6's --help), so 3.7 and later get the graduated ones. etcd before
 * 3.5 cannot trace.
 */
function tracingArgs(spec: ClusterSpec): string[] {
  if (!spec.components.includes('jaeger')) return [];
  const version = /^v?(\d+)\.(\d+)/.exec(spec.etcdVersion);
  if (!version) return [];
  const [major, minor] = [Number(version[1]), Number(version[2])];
  if (major < 3 || (major === 3 && minor < 5)) return [];
  const flag = major === 3 && minor < 7 ? 'experimental-' : '';
  return [
    `--${flag}enable-distributed-tracing=true`,
    `--${flag}distributed-tracing-address=${reach(spec, 'jaeger', 'jaegerOtlpGrpc')}`,
    `--${flag}distributed-tracing-sampling-rate=1000000`,
  ];
}

