import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explicitPortChecks, validateClusterValues } from '../../../src/cluster/validate.js';
import { buildComponents, CONTAINER_PORTS, PORT_OPTIONS, PORT_TABLE, portRequests, type ComponentName } from '../../../src/components/index.js';
import { defaultOptionValues, OPTION_SPECS } from '../../../src/config/options.js';
import { HOST_PLACEMENT } from '../../../src/components/placement.js';
import { clusterPaths } from '../../../src/naming/naming.js';

const values = (over: Record<string, unknown>) => ({ ...defaultOptionValues(), ...over }) as ReturnType<typeof defaultOptionValues>;
const ALL: ComponentName[] = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'prometheus', 'metrics-server', 'jaeger'];

test('every port option of the options table has a row in the ports table, and every row names a real option', () => {
  const portOptions = OPTION_SPECS.filter((s) => s.key.endsWith('Port') && s.type === 'uint' && s.honour !== 'unsupported').map((s) => s.key).sort();
  assert.deepEqual([...PORT_OPTIONS].sort(), portOptions);
  assert.equal(new Set(PORT_TABLE.map((p) => p.key)).size, PORT_TABLE.length, 'keys are unique');
});

test('allocation asks for the pinned port, a free one (0), or -1 for a component that is off', () => {
  const requested = portRequests(values({ kubeApiserverPort: 6443, jaegerPort: 16686 }), new Set<ComponentName>(['etcd', 'kube-apiserver', 'kwok-controller']));
  assert.equal(requested.kubeApiserver, 6443);
  assert.equal(requested.etcd, 0);
  assert.equal(requested.etcdMetrics, 0);
  assert.equal(requested.kwokController, 0);
  assert.equal(requested.jaeger, -1, 'jaeger is off');
  assert.deepEqual(Object.keys(requested).sort(), Object.keys(CONTAINER_PORTS).sort());
});

test('a pinned port of a running component is checked, named by its flag or its config field', () => {
  const checks = explicitPortChecks(values({ kubeApiserverPort: 6443, metricsServerPort: 4443, jaegerPort: 16686, kwokControllerPort: 10247 }), new Set<ComponentName>(['etcd', 'kube-apiserver', 'metrics-server', 'kwok-controller']));
  assert.deepEqual(checks, [
    { label: '--kube-apiserver-port', port: 6443 },
    { label: '--controller-port', port: 10247 },
    { label: 'options.metricsServerPort', port: 4443 },
  ]);
});

test('every port option is range-checked, the ones of optional components too', () => {
  for (const key of PORT_OPTIONS) {
    assert.throws(() => validateClusterValues(values({ [key]: 70000 }), {}, {}), new RegExp(`70000 is not a port number`), key);
  }
});

test('each component publishes its table rows, in table order, under the names kwokctl uses', () => {
  const ports = Object.fromEntries(PORT_TABLE.map((p, i) => [p.key, 30000 + i])) as Record<string, number>;
  const spec = { name: 'p', paths: clusterPaths('/w', 'p'), options: values({}), kubeVersion: 'v1.36.1', etcdVersion: 'v3.6.10', ports: ports as never, components: ALL, logLevel: 0, kwokControllerEntry: '/k.js', enableCrds: [], placement: HOST_PLACEMENT };
  const components = buildComponents(spec);
  for (const c of components) {
    assert.deepEqual(c.ports, PORT_TABLE.filter((p) => p.component === c.name).map((p) => ({ name: p.name, port: ports[p.key] })), c.name);
  }
  const prometheus = components.find((c) => c.name === 'prometheus')!;
  const config = prometheus.files?.find((f) => f.path.endsWith('prometheus.yaml'))?.content ?? '';
  assert.deepEqual([...config.matchAll(/job_name: (\S+)/g)].map((m) => m[1]), PORT_TABLE.filter((p) => 'scrape' in p).map((p) => p.component));
});
