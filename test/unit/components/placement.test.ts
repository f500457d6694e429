import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildComponents, networkPlacement, type ClusterSpec } from '../../../src/components/index.js';
import { sampleSpec } from './sample-spec.js';

function spec(network: boolean): ClusterSpec {
  return sampleSpec({
    ports: { ...sampleSpec().ports, prometheus: 2007 },
    components: ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'prometheus'],
    ...(network ? { placement: networkPlacement('c1'), images: { etcd: 'e:1', 'kube-apiserver': 'a:1' } } : {}),
  });
}

const byName = (network: boolean) => new Map(buildComponents(spec(network)).map((c) => [c.name, c]));

test('on a network, components listen on all interfaces at fixed ports and reach each other by container name', () => {
  const cs = byName(true);
  const api = cs.get('kube-apiserver')!;
  // Another container: TLS over the network, not the host's unix socket.
  assert.ok(api.args.includes('--etcd-servers=https://kwok-c1-etcd:2379'));
  assert.ok(api.args.includes('--etcd-certfile=/w/clusters/c1/pki/apiserver-etcd-client.crt'));
  assert.ok(!cs.get('etcd')!.args.some((a) => a.includes('unix:')));
  assert.ok(api.args.includes('--bind-address=0.0.0.0') && api.args.includes('--secure-port=6443'));
  assert.deepEqual(api.ports, [{ name: 'https', port: 2003, containerPort: 6443 }]);
  // Probes stay on the host port, where the engine publishes the container's port.
  assert.equal(api.probe?.port, 2003);
  assert.equal(api.image, 'a:1');
  const etcd = cs.get('etcd')!;
  assert.ok(etcd.args.includes('--advertise-client-urls=https://kwok-c1-etcd:2379'));
  assert.ok(etcd.args.includes('--listen-peer-urls=https://0.0.0.0:2380'));
  // Prometheus' container reaches etcd's metrics by name; the host reaches them where they are published (loopback).
  assert.ok(etcd.args.includes('--listen-metrics-urls=http://0.0.0.0:2381'));
  assert.deepEqual(etcd.ports.find((p) => p.name === 'metrics'), { name: 'metrics', port: 2008, containerPort: 2381 });
  assert.equal(etcd.probe?.port, 2008);
  for (const name of ['kube-controller-manager', 'kube-scheduler', 'kwok-controller'] as const) {
    assert.ok(cs.get(name)!.args.includes('--kubeconfig=/w/clusters/c1/kubeconfig'), `${name} uses the in-network kubeconfig`);
  }
  const kwok = cs.get('kwok-controller')!;
  assert.equal(kwok.args[0], '--manage-all-nodes=true', 'the image runs the controller: no entry script argument');
  assert.ok(kwok.args.includes('--server-address=0.0.0.0:10247'));
  const prometheus = cs.get('prometheus')!;
  assert.match(prometheus.files![0]!.content, /kwok-c1-kube-apiserver:6443/);
  assert.match(prometheus.files![0]!.content, /kwok-c1-etcd:2381/);
});

test('on the host, the same builders give loopback addresses and host ports, and no images', () => {
  const cs = byName(false);
  const api = cs.get('kube-apiserver')!;
  assert.ok(api.args.includes('--etcd-servers=unix:///w/clusters/c1/etcd.sock'));
  assert.ok(api.args.includes('--bind-address=127.0.0.1') && api.args.includes('--secure-port=2003'));
  assert.deepEqual(api.ports, [{ name: 'https', port: 2003 }]);
  assert.equal(api.image, undefined);
  // Its own executable, so kwokctl's pid and log files (named after the executable) match ours.
  assert.equal((cs.get('kwok-controller')!.program as { path: string }).path, '/pkg/bin/kwok-controller.js');
  assert.equal(cs.get('kwok-controller')!.args[0], '--manage-all-nodes=true');
  assert.ok(cs.get('kube-scheduler')!.args.includes('--kubeconfig=/w/clusters/c1/kubeconfig.yaml'));
});

test('each component names the host paths it needs; only data is writable', () => {
  const cs = byName(true);
  assert.deepEqual(cs.get('etcd')!.mounts, [
    { path: '/w/clusters/c1/etcd', readOnly: false },
    { path: '/w/clusters/c1/pki/etcd', readOnly: true },
  ]);
  assert.deepEqual(cs.get('kwok-controller')!.mounts, [
    { path: '/w/clusters/c1/kubeconfig', readOnly: true },
    { path: '/w/clusters/c1/kwok.yaml', readOnly: true },
    { path: '/w/clusters/c1/pki', readOnly: true },
  ]);
  assert.ok(cs.get('kube-apiserver')!.mounts!.every((m) => m.readOnly));
});
