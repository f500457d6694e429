import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../../src/kube/index.js';
import { PodIps } from '../../../../src/kwok/controllers/pod-ips.js';

const node = (address: string, podCIDR?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'n1' },
  ...(podCIDR ? { spec: { podCIDR } } : {}),
  status: { addresses: [{ type: 'Hostname', address: 'n1' }, { type: 'InternalIP', address }] },
});

describe('PodIps', () => {
  it("answers a node's host IPs from the node object it has now, not from an earlier one", () => {
    let current: KubeObject | undefined = node('10.1.0.1');
    const ips = new PodIps({ defaultCidr: '10.0.0.1/24', nodeIP: '196.168.0.1', getNode: () => current });
    assert.deepEqual(ips.nodeIps('n1'), ['10.1.0.1']);
    const answer = ips.nodeIps('n1');
    answer.push('changed by the caller');
    assert.deepEqual(ips.nodeIps('n1'), ['10.1.0.1'], 'a caller editing the answer changes nothing');
    current = node('10.1.0.2');
    assert.deepEqual(ips.nodeIps('n1'), ['10.1.0.2']);
    current = undefined;
    assert.deepEqual(ips.nodeIps('n1'), ['196.168.0.1'], '--node-ip when the node is unknown');
  });

  it("allocates from the node's podCIDR once per pod uid and gives the address back on delete", () => {
    const ips = new PodIps({ defaultCidr: '10.0.0.1/24', nodeIP: '196.168.0.1', getNode: () => node('10.1.0.1', '10.244.3.0/24') });
    const first = ips.podIps('n1', false, 'uid-1');
    assert.deepEqual(ips.podIps('n1', false, 'uid-1'), first, 'same pod, same address');
    const second = ips.podIps('n1', false, 'uid-2');
    assert.notDeepEqual(second, first);
    for (const ip of [...first, ...second]) assert.match(ip, /^10\.244\.3\.\d+$/);
    ips.release({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1', uid: 'uid-1' } });
    assert.deepEqual(ips.podIps('n1', false, 'uid-3'), first, 'the released address is handed out again');
    assert.deepEqual(ips.podIps('n1', true, 'uid-4'), ['10.1.0.1'], 'hostNetwork pods get the node IP');
  });
});
