/**
 * `kubectl logs` on a fake pod: kube-apiserver must reach the kwok controller's kubelet endpoint
 * (the node's address of the preferred type, at the controller's port) and trust its certificate;
 * a containerised controller must see the log files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildComponents, networkPlacement, type Component } from '../../../src/components/index.js';
import { sampleSpec } from './sample-spec.js';

function components(network: boolean, logDirs?: string[]): Map<string, Component> {
  const spec = sampleSpec({
    components: ['etcd', 'kube-apiserver', 'kwok-controller'],
    ...(logDirs ? { logDirs } : {}),
    ...(network ? { placement: networkPlacement('c1'), images: { 'kwok-controller': 'k:1' } } : {}),
  });
  return new Map(buildComponents(spec).map((c) => [c.name, c]));
}

test('on the host: the node is 127.0.0.1 at the controller port, dialled by InternalIP, its certificate checked against the cluster CA', () => {
  const cs = components(false);
  const kwok = cs.get('kwok-controller')!.args;
  assert.ok(kwok.includes('--node-ip=127.0.0.1'));
  assert.ok(kwok.includes('--node-port=2006'));
  assert.ok(kwok.includes('--server-address=127.0.0.1:2006'), 'loopback only by default');
  assert.ok(kwok.includes('--tls-cert-file=/w/clusters/c1/pki/admin.crt'));
  const api = cs.get('kube-apiserver')!.args;
  assert.ok(api.includes('--kubelet-preferred-address-types=InternalIP,Hostname,InternalDNS,ExternalDNS,ExternalIP'));
  assert.ok(api.includes('--kubelet-certificate-authority=/w/clusters/c1/pki/ca.crt'));
});

test('in containers: the node is the controller container by name, dialled by Hostname', () => {
  const cs = components(true);
  const kwok = cs.get('kwok-controller')!.args;
  assert.ok(kwok.includes('--node-name=kwok-c1-kwok-controller'));
  assert.ok(kwok.includes('--node-port=10247'));
  assert.ok(cs.get('kube-apiserver')!.args.includes('--kubelet-preferred-address-types=Hostname,InternalDNS,InternalIP,ExternalDNS,ExternalIP'));
});

test('the log files directories are mounted read-only into the controller, and only there', () => {
  const cs = components(true, ['/var/log/fake', '/srv/logs']);
  const mounts = cs.get('kwok-controller')!.mounts ?? [];
  assert.deepEqual(mounts.slice(-2), [
    { path: '/var/log/fake', readOnly: true },
    { path: '/srv/logs', readOnly: true },
  ]);
  assert.ok(!(cs.get('kube-apiserver')!.mounts ?? []).some((m) => m.path === '/var/log/fake'));
  assert.equal(components(true).get('kwok-controller')!.mounts?.length, 3, 'no log mounts without Logs');
});
