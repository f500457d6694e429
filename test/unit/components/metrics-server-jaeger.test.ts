import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildComponents, metricsServerManifests, networkPlacement, startGroups, type ClusterSpec } from '../../../src/components/index.js';
import { withDefaultMetrics } from '../../../src/cluster/default-stages.js';
import { sampleSpec } from './sample-spec.js';

function spec(extra: ClusterSpec['components'], overrides: Partial<ClusterSpec> = {}): ClusterSpec {
  const base = sampleSpec();
  return sampleSpec({
    components: [...base.components, ...extra],
    ports: { ...base.ports, metricsServer: 2010, jaeger: 2011, jaegerOtlpGrpc: 2012, prometheus: 2013 },
    ...overrides,
  });
}

test('metrics-server: kwokctl arguments, the cluster certificate, verifying the controller with the cluster CA', () => {
  const s = spec(['metrics-server']);
  const ms = buildComponents(s).find((c) => c.name === 'metrics-server')!;
  assert.deepEqual(ms.program, { artifact: 'metrics-server' });
  for (const arg of [
    '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
    '--kubelet-use-node-status-port',
    `--kubelet-certificate-authority=${s.paths.caCert}`,
    '--metric-resolution=15s',
    '--bind-address=127.0.0.1',
    '--secure-port=2010',
    `--kubeconfig=${s.paths.kubeconfig}`,
    `--authentication-kubeconfig=${s.paths.kubeconfig}`,
    `--authorization-kubeconfig=${s.paths.kubeconfig}`,
    `--tls-cert-file=${s.paths.adminCert}`,
    `--tls-private-key-file=${s.paths.adminKey}`,
  ]) {
    assert.ok(ms.args.includes(arg), arg);
  }
  assert.ok(!ms.args.includes('--kubelet-insecure-tls'));
  assert.deepEqual(ms.links, ['kube-apiserver', 'kwok-controller']);
  assert.deepEqual(ms.probe, { scheme: 'https', port: 2010, path: '/livez', clientCert: true });
  assert.ok(buildComponents(spec(['metrics-server'], { logLevel: -4 })).find((c) => c.name === 'metrics-server')!.args.includes('--v=4'));
});

test('metrics-server in containers listens on 4443 and prefers the Hostname address (the controller container)', () => {
  const ms = buildComponents(spec(['metrics-server'], { placement: networkPlacement('c1') })).find((c) => c.name === 'metrics-server')!;
  assert.ok(ms.args.includes('--secure-port=4443'));
  assert.ok(ms.args.includes('--kubelet-preferred-address-types=Hostname,InternalIP,ExternalIP'));
  assert.deepEqual(ms.ports, [{ name: 'https', port: 2010, containerPort: 4443 }]);
});

test('the APIService v1beta1.metrics.k8s.io points at an ExternalName Service for where metrics-server listens', () => {
  const [service, apiService] = metricsServerManifests(spec(['metrics-server'])) as Array<{ kind: string; metadata: { name: string }; spec: Record<string, unknown> }>;
  assert.equal(service!.kind, 'Service');
  assert.deepEqual(service!.spec['externalName'], '127.0.0.1');
  assert.equal(apiService!.kind, 'APIService');
  assert.equal(apiService!.metadata.name, 'v1beta1.metrics.k8s.io');
  assert.deepEqual(apiService!.spec['service'], { name: 'metrics-server', namespace: 'kube-system', port: 2010 });
  const inContainers = metricsServerManifests(spec(['metrics-server'], { placement: networkPlacement('c1') })) as Array<{ spec: Record<string, unknown> }>;
  assert.equal(inContainers[0]!.spec['externalName'], 'kwok-c1-metrics-server');
});

test('jaeger: OTLP collector on loopback, query API on --jaeger-port; the apiserver traces to it', () => {
  const cs = buildComponents(spec(['jaeger']));
  const jaeger = cs.find((c) => c.name === 'jaeger')!;
  assert.deepEqual(jaeger.args, [
    '--collector.otlp.enabled=true',
    '--query.http-server.host-port=127.0.0.1:2011',
    '--collector.otlp.grpc.host-port=127.0.0.1:2012',
    // Its other servers would take fixed ports on every interface: loopback, any free port.
    '--admin.http.host-port=127.0.0.1:0',
    '--collector.grpc-server.host-port=127.0.0.1:0',
    '--collector.http-server.host-port=127.0.0.1:0',
    '--collector.otlp.http.host-port=127.0.0.1:0',
    '--query.grpc-server.host-port=127.0.0.1:0',
  ]);
  const api = cs.find((c) => c.name === 'kube-apiserver')!;
  const file = api.files?.[0];
  assert.ok(file && api.args.includes(`--tracing-config-file=${file.path}`));
  assert.match(file.content, /^kind: TracingConfiguration$/m);
  assert.match(file.content, /^endpoint: 127\.0\.0\.1:2012$/m);
  assert.match(file.content, /^samplingRatePerMillion: 1000000$/m);
  assert.deepEqual(api.links, ['etcd', 'jaeger']);
  // jaeger starts before the apiserver (in the first group, with etcd).
  assert.deepEqual(startGroups(cs)[0]!.map((c) => c.name), ['etcd', 'jaeger']);
  const without = buildComponents(spec([])).find((c) => c.name === 'kube-apiserver')!;
  assert.ok(!without.args.some((a) => a.startsWith('--tracing-config-file')));
});

test('prometheus scrapes metrics-server when it runs (jaeger has no /metrics on its query port)', () => {
  const prom = buildComponents(spec(['metrics-server', 'jaeger', 'prometheus'])).find((c) => c.name === 'prometheus')!;
  const config = prom.files![0]!.content;
  assert.match(config, /job_name: metrics-server/);
  assert.doesNotMatch(config, /job_name: jaeger/);
  assert.doesNotMatch(buildComponents(spec(['prometheus'])).find((c) => c.name === 'prometheus')!.files![0]!.content, /job_name: metrics-server/);
});

test('with metrics-server the controller gets the default Metric and ClusterResourceUsage, unless given or served as CRs', () => {
  const kinds = (docs: Array<Record<string, unknown>>): string[] => docs.map((d) => `${String(d.kind)}/${String((d.metadata as { name: string }).name)}`);
  assert.deepEqual(kinds(withDefaultMetrics([], new Set())), ['Metric/metrics-resource', 'ClusterResourceUsage/usage-from-annotation']);
  const mine = { kind: 'Metric', metadata: { name: 'mine' } };
  assert.deepEqual(kinds(withDefaultMetrics([mine], new Set(['ClusterResourceUsage']))), ['Metric/mine']);
});

test('jaeger: etcd traces to it too, with the flags its version knows (kwokctl\'s experimental ones for 3.5 and 3.6)', () => {
  const etcdArgs = (extra: ClusterSpec['components'], etcdVersion: string, overrides: Partial<ClusterSpec> = {}): string[] =>
    buildComponents(spec(extra, { etcdVersion, ...overrides })).find((c) => c.name === 'etcd')!.args.filter((a) => a.includes('tracing'));
  const experimental = ['--experimental-enable-distributed-tracing=true', '--experimental-distributed-tracing-address=127.0.0.1:2012', '--experimental-distributed-tracing-sampling-rate=1000000'];
  assert.deepEqual(etcdArgs(['jaeger'], 'v3.6.10'), experimental);
  assert.deepEqual(etcdArgs(['jaeger'], 'v3.5.24'), experimental);
  assert.deepEqual(etcdArgs(['jaeger'], 'v3.7.0'), ['--enable-distributed-tracing=true', '--distributed-tracing-address=127.0.0.1:2012', '--distributed-tracing-sampling-rate=1000000']);
  assert.deepEqual(etcdArgs(['jaeger'], 'v3.4.13'), [], 'etcd 3.4 cannot trace');
  assert.deepEqual(etcdArgs([], 'v3.6.10'), [], 'no jaeger, no tracing');
  // In containers, jaeger's container by name, as kwokctl's compose runtime has it.
  assert.deepEqual(etcdArgs(['jaeger'], 'v3.6.10', { placement: networkPlacement('c1') })[1], '--experimental-distributed-tracing-address=kwok-c1-jaeger:4317');
});
