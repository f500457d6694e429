import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildComponents, formatGoDuration, quantityToBytes, startGroups, type ClusterSpec } from '../../../src/components/index.js';
import { sampleSpec } from './sample-spec.js';
import { clusterPaths } from '../../../src/naming/naming.js';
import { defaultOptionValues } from '../../../src/config/options.js';

function spec(overrides: Partial<ClusterSpec['options']> = {}): ClusterSpec {
  return sampleSpec({ options: { ...defaultOptionValues(), ...overrides } });
}

test('components start in dependency groups', () => {
  const groups = startGroups(buildComponents(spec())).map((g) => g.map((c) => c.name));
  assert.deepEqual(groups, [['etcd'], ['kube-apiserver'], ['kube-controller-manager', 'kube-scheduler', 'kwok-controller']]);
});

test('on the host, apiserver talks to etcd over its unix socket in the cluster directory, serves TLS on loopback with RBAC', () => {
  const s = spec();
  const api = buildComponents(s).find((c) => c.name === 'kube-apiserver')!;
  assert.deepEqual(api.args.filter((a) => a.startsWith('--etcd-') && a !== '--etcd-prefix=/registry'), ['--etcd-servers=unix:///w/clusters/c1/etcd.sock']);
  const etcd = buildComponents(s).find((c) => c.name === 'etcd')!;
  assert.ok(etcd.args.includes('--listen-client-urls=https://127.0.0.1:2001,unix:///w/clusters/c1/etcd.sock'));
  assert.ok(api.args.includes('--secure-port=2003'));
  assert.ok(api.args.includes('--bind-address=127.0.0.1'));
  assert.ok(api.args.includes('--authorization-mode=Node,RBAC'));
  assert.ok(!api.args.some((a) => a.startsWith('--max-requests-inflight')));
  assert.deepEqual(api.probe, { scheme: 'https', port: 2003, path: '/readyz', clientCert: true });
});

test('a cluster directory too deep for a socket path: apiserver talks to etcd over TLS with its own etcd client certificate', () => {
  // 103 bytes is the longest socket path every Unix takes; this one is 104.
  const paths = clusterPaths(`/${'d'.repeat(104 - '/clusters/c1/etcd.sock'.length - 1)}`, 'c1');
  assert.equal(Buffer.byteLength(paths.etcdSocket), 104);
  const s = sampleSpec({ paths });
  const api = buildComponents(s).find((c) => c.name === 'kube-apiserver')!;
  assert.ok(api.args.includes('--etcd-servers=https://127.0.0.1:2001'));
  assert.ok(api.args.includes(`--etcd-cafile=${s.paths.etcdCaCert}`));
  assert.ok(api.args.includes(`--etcd-certfile=${s.paths.apiserverEtcdClientCert}`));
  assert.ok(api.args.includes(`--etcd-keyfile=${s.paths.apiserverEtcdClientKey}`));
  const etcd = buildComponents(s).find((c) => c.name === 'etcd')!;
  assert.ok(etcd.args.includes('--listen-client-urls=https://127.0.0.1:2001'));
  // One byte shorter fits.
  const fits = clusterPaths(`/${'d'.repeat(103 - '/clusters/c1/etcd.sock'.length - 1)}`, 'c1');
  assert.ok(buildComponents(sampleSpec({ paths: fits })).find((c) => c.name === 'kube-apiserver')!.args.includes(`--etcd-servers=unix://${fits.etcdSocket}`));
});

test('etcd serves clients and peers over TLS with client-certificate auth against its own CA; metrics on plain HTTP on loopback', () => {
  const s = spec();
  const etcd = buildComponents(s).find((c) => c.name === 'etcd')!;
  for (const flag of [
    '--listen-client-urls=https://127.0.0.1:2001,unix:///w/clusters/c1/etcd.sock',
    '--advertise-client-urls=https://127.0.0.1:2001',
    '--listen-peer-urls=https://127.0.0.1:2002',
    '--initial-advertise-peer-urls=https://127.0.0.1:2002',
    '--initial-cluster=node0=https://127.0.0.1:2002',
    '--listen-metrics-urls=http://127.0.0.1:2008',
    '--client-cert-auth=true',
    '--peer-client-cert-auth=true',
    `--trusted-ca-file=${s.paths.etcdCaCert}`,
    `--peer-trusted-ca-file=${s.paths.etcdCaCert}`,
    `--cert-file=${s.paths.etcdServerCert}`,
    `--key-file=${s.paths.etcdServerKey}`,
    `--peer-cert-file=${s.paths.etcdPeerCert}`,
    `--peer-key-file=${s.paths.etcdPeerKey}`,
  ]) assert.ok(etcd.args.includes(flag), flag);
  assert.ok(!etcd.args.some((a) => a.includes('http://127.0.0.1:2001')), 'no plain-HTTP client listener');
  assert.deepEqual(etcd.ports.map((p) => `${p.name} ${p.port}`), ['https 2001', 'peer-https 2002', 'metrics 2008']);
  // Readiness needs no certificate: /health on the metrics listener.
  assert.deepEqual(etcd.probe, { scheme: 'http', port: 2008, path: '/health', clientCert: false });
});

test('etcd, a single member, elects itself within 100 ms (short raft ticks), which --extra-args can undo', () => {
  const etcd = buildComponents(spec()).find((c) => c.name === 'etcd')!;
  assert.ok(etcd.args.includes('--heartbeat-interval=10'));
  assert.ok(etcd.args.includes('--election-timeout=100'));
  // etcd refuses an election timeout under five heartbeats.
  // The last occurrence of a flag is what etcd uses.
  const ms = (args: string[], flag: string) => Number(args.filter((a) => a.startsWith(`${flag}=`)).at(-1)!.split('=')[1]);
  assert.ok(ms(etcd.args, '--election-timeout') >= 5 * ms(etcd.args, '--heartbeat-interval'));
  const patched = buildComponents(spec(), [{ name: 'etcd', extraArgs: [{ key: 'election-timeout', value: '1000' }, { key: 'heartbeat-interval', value: '100' }], extraEnvs: [], extraVolumes: [] }]).find((c) => c.name === 'etcd')!;
  assert.equal(ms(patched.args, '--election-timeout'), 1000);
  assert.equal(ms(patched.args, '--heartbeat-interval'), 100);
});

test('etcd metrics stay on loopback even when the cluster binds every interface', () => {
  const etcd = buildComponents(spec({ bindAddress: '0.0.0.0' })).find((c) => c.name === 'etcd')!;
  assert.ok(etcd.args.includes('--listen-client-urls=https://0.0.0.0:2001,unix:///w/clusters/c1/etcd.sock'));
  assert.ok(etcd.args.includes('--listen-metrics-urls=http://127.0.0.1:2008'));
});

test('controller-manager and scheduler require authentication for /metrics: only health paths are open, the apiserver decides the rest', () => {
  const s = spec();
  for (const name of ['kube-controller-manager', 'kube-scheduler'] as const) {
    const c = buildComponents(s).find((x) => x.name === name)!;
    const allow = c.args.filter((a) => a.startsWith('--authorization-always-allow-paths='));
    assert.deepEqual(allow, ['--authorization-always-allow-paths=/healthz,/readyz,/livez'], name);
    assert.ok(!c.args.some((a) => a.includes('/metrics')), `${name}: /metrics is not open`);
    for (const flag of [`--authentication-kubeconfig=${s.paths.kubeconfig}`, `--authorization-kubeconfig=${s.paths.kubeconfig}`, `--client-ca-file=${s.paths.caCert}`, '--authentication-skip-lookup=true']) {
      assert.ok(c.args.includes(flag), `${name}: ${flag}`);
    }
    assert.equal(c.probe?.path, '/healthz');
  }
});

test('without RBAC the apiserver would allow anyone, so controller-manager and scheduler ask it nothing: only system:masters reads /metrics', () => {
  for (const c of buildComponents(spec({ kubeAuthorization: false })).filter((x) => x.name === 'kube-controller-manager' || x.name === 'kube-scheduler')) {
    assert.ok(!c.args.some((a) => a.startsWith('--authorization-kubeconfig')), c.name);
    assert.ok(c.args.includes('--authorization-always-allow-paths=/healthz,/readyz,/livez'), c.name);
    assert.ok(c.args.some((a) => a.startsWith('--client-ca-file=')), c.name);
  }
});

test('--disable-qps-limits lifts limits in apiserver, kcm and scheduler', () => {
  const cs = buildComponents(spec({ disableQPSLimits: true }));
  assert.ok(cs.find((c) => c.name === 'kube-apiserver')!.args.includes('--max-requests-inflight=0'));
  assert.ok(cs.find((c) => c.name === 'kube-controller-manager')!.args.includes('--kube-api-qps=5000'));
  assert.ok(cs.find((c) => c.name === 'kube-scheduler')!.args.includes('--kube-api-burst=10000'));
});

test('heartbeat factor scales the node monitor periods and the lease, as kwokctl', () => {
  const cs = buildComponents(spec());
  const kcm = cs.find((c) => c.name === 'kube-controller-manager')!;
  assert.ok(kcm.args.includes('--node-monitor-period=25s'));
  assert.ok(kcm.args.includes('--node-monitor-grace-period=3m20s'));
  assert.ok(cs.find((c) => c.name === 'kwok-controller')!.args.includes('--node-lease-duration-seconds=200'));
});

test('componentsPatches append or override flags, and unknown components are refused', () => {
  const cs = buildComponents(spec(), [
    { name: 'kube-apiserver', extraArgs: [{ key: 'v', value: '5' }, { key: 'secure-port', value: '9', override: true }], extraEnvs: [{ name: 'A', value: 'b' }], extraVolumes: [] },
  ]);
  const api = cs.find((c) => c.name === 'kube-apiserver')!;
  assert.equal(api.args.at(-1), '--v=5');
  assert.ok(api.args.includes('--secure-port=9') && !api.args.includes('--secure-port=2003'));
  assert.equal(api.env.A, 'b');
  assert.throws(() => buildComponents(spec(), [{ name: 'nope', extraArgs: [], extraEnvs: [], extraVolumes: [] }]), /component nope is patched .* but is not part of this cluster/);
});

test('duration and quantity formatting', () => {
  assert.equal(formatGoDuration(25_000), '25s');
  assert.equal(formatGoDuration(200_000), '3m20s');
  assert.equal(formatGoDuration(3_600_000), '1h0m0s');
  assert.equal(quantityToBytes('8Gi'), 8589934592);
  assert.equal(quantityToBytes('1M'), 1_000_000);
});

test('prometheus scrapes every enabled component, https ones with its own system:monitoring certificate, etcd on its metrics listener', async () => {
  const { parseYamlDocuments } = await import('../../../src/gocompat/yaml/yaml.js');
  const s = { ...spec(), ports: { ...spec().ports, prometheus: 2007 }, components: ['etcd', 'kube-apiserver', 'kube-scheduler', 'kwok-controller', 'prometheus'] as ClusterSpec['components'] };
  const prom = buildComponents(s).find((c) => c.name === 'prometheus')!;
  assert.ok(prom.args.includes('--web.listen-address=127.0.0.1:2007'));
  assert.deepEqual(prom.probe, { scheme: 'http', port: 2007, path: '/-/ready', clientCert: false });
  type Tls = { cert_file: string; key_file: string; ca_file?: string; insecure_skip_verify?: boolean };
  const [config] = parseYamlDocuments(prom.files![0]!.content) as Array<{ scrape_configs: Array<{ job_name: string; scheme: string; tls_config?: Tls; static_configs: Array<{ targets: string[] }> }> }>;
  assert.deepEqual(config!.scrape_configs.map((j) => `${j.job_name} ${j.scheme} ${j.static_configs[0]!.targets[0]}`), [
    'etcd http 127.0.0.1:2008',
    'kube-apiserver https 127.0.0.1:2003',
    'kube-scheduler https 127.0.0.1:2005',
    'kwok-controller https 127.0.0.1:2006',
    'prometheus http 127.0.0.1:2007',
  ]);
  assert.deepEqual(config!.scrape_configs[1]!.tls_config, { cert_file: s.paths.prometheusCert, key_file: s.paths.prometheusKey, ca_file: s.paths.caCert });
  assert.deepEqual(config!.scrape_configs[2]!.tls_config, { cert_file: s.paths.prometheusCert, key_file: s.paths.prometheusKey, insecure_skip_verify: true });
  assert.deepEqual(config!.scrape_configs[3]!.tls_config, { cert_file: s.paths.prometheusCert, key_file: s.paths.prometheusKey, insecure_skip_verify: true }, 'the controller lets system:monitoring read its /metrics');
  assert.equal(config!.scrape_configs[0]!.tls_config, undefined);
  assert.ok(!prom.files![0]!.content.includes('admin'), 'Prometheus never holds the admin credentials');
});

const userComponent = {
  name: 'echo',
  binary: '/usr/bin/echo-server',
  command: ['/entry'],
  args: ['--port=8080'],
  links: ['kube-apiserver'],
  ports: [{ name: 'http', port: 8080, hostPort: 0, protocol: 'TCP' as const }],
  envs: [{ name: 'MODE', value: 'x' }],
  volumes: [{ hostPath: '/data', mountPath: '/data', readOnly: true }],
};

test('extra components start after their links, with their program, args, env and volumes; patches reach them', () => {
  const cs = buildComponents(spec(), [{ name: 'echo', extraArgs: [{ key: 'v', value: '2' }], extraEnvs: [], extraVolumes: [] }], [userComponent]);
  const groups = startGroups(cs).map((g) => g.map((c) => c.name));
  assert.deepEqual(groups.at(-1), ['kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'echo']);
  const echo = cs.find((c) => c.name === 'echo')!;
  assert.deepEqual(echo.program, { path: '/usr/bin/echo-server' });
  // The container entrypoint is kept apart: the binary runtime runs the binary with args only.
  assert.deepEqual(echo.args, ['--port=8080', '--v=2']);
  assert.deepEqual(echo.command, ['/entry']);
  assert.deepEqual(echo.env, { MODE: 'x' });
  assert.deepEqual(echo.ports, [{ name: 'http', port: 8080 }]);
  assert.equal(echo.probe, undefined);
  assert.deepEqual(echo.volumes, [{ hostPath: '/data', mountPath: '/data', readOnly: true }]);
});

test('extra components: no binary on the binary runtime, or a link to nothing, is refused', () => {
  const { binary: _binary, ...imageOnly } = userComponent;
  assert.throws(() => buildComponents(spec({ runtime: 'binary' }), [], [{ ...imageOnly, image: 'x:1' }]), /component echo has no binary/);
  assert.throws(() => buildComponents(spec(), [], [{ ...userComponent, links: ['nothing'] }]), /echo links to nothing, which is not a component/);
});

test('componentsPatches extraVolumes are added to the component', () => {
  const cs = buildComponents(spec(), [{ name: 'kube-apiserver', extraArgs: [], extraEnvs: [], extraVolumes: [{ hostPath: '/h', mountPath: '/m', readOnly: false }] }]);
  assert.deepEqual(cs.find((c) => c.name === 'kube-apiserver')!.volumes, [{ hostPath: '/h', mountPath: '/m', readOnly: false }]);
});

test("with every optional component, start groups are kwokctl's, so stop (their reverse) is too", () => {
  const all = sampleSpec({
    components: ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'metrics-server', 'prometheus', 'jaeger'],
    ports: { etcd: 2001, etcdPeer: 2002, etcdMetrics: 2008, kubeApiserver: 2003, kubeControllerManager: 2004, kubeScheduler: 2005, kwokController: 2006, prometheus: 2007, metricsServer: 2009, jaeger: 2010, jaegerOtlpGrpc: 2011 },
  });
  const components = buildComponents(all);
  // The list keeps kwokctl's order (export logs copies logs in it), whatever the links.
  assert.deepEqual(components.map((c) => c.name), ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'metrics-server', 'prometheus', 'jaeger']);
  const groups = startGroups(components).map((g) => g.map((c) => c.name));
  assert.deepEqual(groups, [['etcd', 'jaeger'], ['kube-apiserver'], ['kube-controller-manager', 'kube-scheduler', 'kwok-controller'], ['metrics-server', 'prometheus']]);
  assert.deepEqual(groups.reverse().flat(), ['metrics-server', 'prometheus', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'kube-apiserver', 'etcd', 'jaeger']);
});
