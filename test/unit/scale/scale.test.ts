import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planScale } from '../../../src/scale/plan.js';
import { addCidr, addIp, applyParams, findResource, renderObject, serialName, SCALE_LABEL } from '../../../src/scale/resource.js';
import { validateScale } from '../../../src/scale/limits.js';
import { UsageError } from '../../../src/util/errors.js';

const name = (i: number): string => serialName('node', i, 6);

test('serial names', () => {
  assert.equal(serialName('node', 0, 6), 'node-000000');
  assert.equal(serialName('pod', 12, 3), 'pod-012');
  assert.equal(serialName('solo', 0, 0), 'solo');
});

test('scaling up fills the lowest free numbers; down deletes the newest', () => {
  assert.deepEqual(planScale([], 3, name), { create: [0, 1, 2], delete: [] });
  assert.deepEqual(planScale([{ name: 'node-000001' }], 3, name), { create: [0, 2], delete: [] });
  const existing = ['node-000000', 'node-000001', 'node-000002', 'node-000003'].map((n) => ({ name: n, creationTimestamp: '2026-01-01T00:00:00Z' }));
  assert.deepEqual(planScale(existing, 1, name), { create: [], delete: ['node-000003', 'node-000002', 'node-000001'] });
  // Creation time decides before the name does.
  const older = [{ name: 'node-000009', creationTimestamp: '2026-01-01T00:00:00Z' }, { name: 'node-000000', creationTimestamp: '2026-01-02T00:00:00Z' }];
  assert.deepEqual(planScale(older, 1, name).delete, ['node-000000']);
  assert.deepEqual(planScale(existing, 4, name), { create: [], delete: [] });
  // A copy still terminating neither counts nor gives up its name.
  assert.deepEqual(planScale([{ name: 'node-000000' }], 2, name, new Set(['node-000001'])), { create: [2], delete: [] });
});

test('AddIP and AddCIDR', () => {
  assert.equal(addIp('192.0.2.1', 3), '192.0.2.4');
  assert.equal(addIp('192.0.2.255', 1), '192.0.3.0');
  assert.equal(addIp('2001:db8::1', 16), '2001:db8::11');
  assert.equal(addCidr('10.0.0.0/24', 2), '10.0.2.0/24');
  assert.equal(addCidr('fd00::/64', 1), 'fd00:0:0:1::/64');
});

test('--param assignments, in order, one value each', () => {
  assert.deepEqual(applyParams({ a: { cpu: '1' } }, ['.a.cpu="4"', '.b=2']), { a: { cpu: '4' }, b: 2 });
  assert.throws(() => applyParams({}, ['.a = ']), UsageError);
  assert.throws(() => applyParams({ a: [1, 2] }, ['.a[]']), /produced 2 values/);
});

test('the built-in node renders a kwok-managed node, numbered and labelled', () => {
  const resource = findResource('node', []);
  const params = applyParams(resource.parameters, ['.labels.size="big"', '.allocatable.cpu="64"']);
  const node = renderObject(resource, params, { name: 'node', namespace: 'default', index: 2, serialLength: 6 }) as unknown as {
    metadata: { name: string; labels: Record<string, string>; annotations: Record<string, string> };
    spec: { podCIDR: string };
    status: { addresses: Array<{ address: string }>; allocatable: Record<string, string>; capacity: Record<string, string> };
  };
  assert.equal(node.metadata.name, 'node-000002');
  assert.equal(node.metadata.labels[SCALE_LABEL], 'node');
  assert.equal(node.metadata.labels.size, 'big');
  assert.equal(node.metadata.labels['kubernetes.io/hostname'], 'node-000002');
  assert.equal(node.metadata.annotations['kwok.x-k8s.io/node'], 'fake');
  assert.equal(node.spec.podCIDR, '10.0.2.0/24');
  assert.equal(node.status.addresses[0]?.address, '192.0.2.3');
  assert.equal(node.status.addresses[1]?.address, '2001:db8::3');
  assert.equal(node.status.allocatable.cpu, '64');
  assert.equal(node.status.capacity.cpu, '64', 'capacity defaults to allocatable');
});

test("the built-in node is kwokctl's: untainted, dual-stack, no kubelet version, capacity per key", () => {
  const resource = findResource('node', []);
  const params = applyParams(resource.parameters, ['.capacity.memory="512Gi"']);
  const node = renderObject(resource, params, { name: 'node', namespace: 'default', index: 1, serialLength: 6 }) as unknown as {
    metadata: { annotations: Record<string, string> };
    spec: { podCIDR: string; podCIDRs: string[]; taints?: unknown };
    status: { addresses: Array<{ type: string; address: string }>; capacity: Record<string, string>; nodeInfo: Record<string, string>; phase?: string };
  };
  // A taint would keep a plain Deployment's pods Pending on scaled nodes; kwokctl's node has none.
  assert.equal(node.spec.taints, undefined);
  assert.deepEqual(node.spec.podCIDRs, ['10.0.1.0/24', 'fd00:0:0:1::/64']);
  assert.equal(node.spec.podCIDR, '10.0.1.0/24');
  assert.deepEqual(node.status.addresses, [{ type: 'InternalIP', address: '192.0.2.2' }, { type: 'InternalIP', address: '2001:db8::2' }]);
  assert.deepEqual(node.status.capacity, { cpu: '32', memory: '512Gi', pods: '110' });
  // node-initialize fills in kwok-<version>, which is what `kubectl get nodes` shows as VERSION.
  assert.deepEqual(node.status.nodeInfo, { architecture: 'amd64', operatingSystem: 'linux' });
  assert.equal(node.metadata.annotations['metrics.k8s.io/resource-metrics-path'], '/metrics/nodes/node-000001/metrics/resource');
});

test('the built-in pod renders into the namespace, with a node name when given', () => {
  const resource = findResource('pod', []);
  const pod = renderObject(resource, applyParams(resource.parameters, ['.nodeName="node-000000"']), { name: 'web', namespace: 'team', index: 0, serialLength: 6 }) as unknown as {
    metadata: { name: string; namespace: string }; spec: { nodeName?: string; hostNetwork: boolean };
  };
  assert.equal(pod.metadata.name, 'web-000000');
  assert.equal(pod.metadata.namespace, 'team');
  assert.equal(pod.spec.nodeName, 'node-000000');
  assert.equal(pod.spec.hostNetwork, false);
  const unplaced = renderObject(resource, resource.parameters, { name: 'p', namespace: 'default', index: 0, serialLength: 6 }) as unknown as { spec: { nodeName?: string } };
  assert.equal(unplaced.spec.nodeName, undefined);
});

test('a user KwokctlResource wins over the built-in; unknown kinds name the known ones', () => {
  const doc = { kind: 'KwokctlResource', metadata: { name: 'node' }, parameters: { x: 'y' }, template: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ Name }}\ndata:\n  x: {{ .x }}' };
  assert.equal(findResource('node', [doc]).parameters && (findResource('node', [doc]).parameters as { x: string }).x, 'y');
  assert.throws(() => findResource('gpu', []), (e: unknown) => e instanceof UsageError && /known: .*node.*pod/.test(e.hint ?? ''));
});

test('replicas and serial length are checked', () => {
  assert.throws(() => validateScale({ replicas: -1, serialLength: 6 }), UsageError);
  assert.throws(() => validateScale({ replicas: 2, serialLength: 0 }), /at most one/);
  validateScale({ replicas: 0, serialLength: 6 });
});
