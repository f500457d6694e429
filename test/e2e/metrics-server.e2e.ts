/**
 * metrics-server as an optional component (kwokctl's --enable metrics-server): `kubectl top node`
 * and `kubectl top pod` show the usage the ClusterResourceUsage gives pods, through the APIService
 * v1beta1.metrics.k8s.io, and the controller's per-node /metrics/resource has kwok's series.
 * jaeger: the apiserver's traces reach it (its binary built from the Go module first when not cached).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:https';
import { freePort, jaegerServices, kwokts, requireBinaries, sandbox, unbuiltReason, waitFor, type Sandbox, failure } from './harness.js';

const NAME = 'me-metrics';
const NODE = 'me-node-0';
const CACHE = process.env.KWOK_CACHE_DIR ?? join(homedir(), '.kwok', 'cache');

const USAGE = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterResourceUsage
metadata:
  name: usage-from-annotation
spec:
  usages:
  - usage:
      cpu:
        expression: '"kwok.x-k8s.io/usage-cpu" in pod.metadata.annotations ? Quantity(pod.metadata.annotations["kwok.x-k8s.io/usage-cpu"]) : Quantity("1m")'
      memory:
        expression: '"kwok.x-k8s.io/usage-memory" in pod.metadata.annotations ? Quantity(pod.metadata.annotations["kwok.x-k8s.io/usage-memory"]) : Quantity("1Mi")'
`;

// No addresses: node-initialize gives the node the controller's address and port, where
// metrics-server finds the path the annotation names.
const OBJECTS = `apiVersion: v1
kind: Node
metadata:
  name: ${NODE}
  annotations:
    kwok.x-k8s.io/node: fake
    metrics.k8s.io/resource-metrics-path: /metrics/nodes/${NODE}/metrics/resource
status:
  allocatable: {cpu: "32", memory: 256Gi, pods: "110"}
  capacity: {cpu: "32", memory: 256Gi, pods: "110"}
---
apiVersion: v1
kind: Pod
metadata:
  name: me-pod-0
  namespace: default
  annotations:
    kwok.x-k8s.io/usage-cpu: 250m
    kwok.x-k8s.io/usage-memory: 64Mi
spec:
  nodeName: ${NODE}
  containers:
  - {name: app, image: fake}
  - {name: sidecar, image: fake}
`;

/** Within 10% of the expected millicores (see the CPU note in the top test). */
function assertMillicores(text: string | undefined, expected: number): void {
  const m = /^(\d+)m$/.exec(text ?? '');
  assert.ok(m, `not millicores: ${text}`);
  const value = Number(m[1]);
  assert.ok(Math.abs(value - expected) <= expected * 0.1, `${value}m is not near ${expected}m`);
}

function get(url: string, tls: { ca: string; cert?: string; key?: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    request(url, { agent: new Agent(tls) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`${url}: ${res.statusCode} ${body}`))));
    })
      .on('error', reject)
      .end();
  });
}

describe('metrics-server', { timeout: 900_000 }, () => {
  let box: Sandbox;
  const kubectl = (args: string[], input?: string) => kwokts(box, ['--name', NAME, 'kubectl', ...args], input === undefined ? {} : { input });

  before(async () => {
    requireBinaries();
    const binary = join(CACHE, 'gobuild', 'metrics-server', 'v0.9.0', 'metrics-server');
    if (!existsSync(binary)) throw new Error(`no metrics-server at ${binary}: run \`bash test/setup-prerequisites.sh\` (it runs \`kwokts artifacts build metrics-server\`)`);
    box = sandbox();
    const config = join(box.workdir, '..', 'usage.yaml');
    writeFileSync(config, USAGE);
    // ResourceUsage as a custom resource (followed live); the ClusterResourceUsage from the config file.
    const created = await kwokts(box, ['--name', NAME, 'create', 'cluster', '--enable', 'metrics-server', '--enable-crds', 'ResourceUsage', '-c', config, '--wait', '3m']);
    assert.equal(created.exitCode, 0, failure(created));
    const applied = await kubectl(['apply', '-f', '-'], OBJECTS);
    assert.equal(applied.exitCode, 0, failure(applied));
  });
  after(async () => {
    await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    box.cleanup();
  });

  test('get components lists metrics-server, and the APIService is registered', async () => {
    const components = JSON.parse((await kwokts(box, ['--name', NAME, 'get', 'components', '-o', 'json'])).stdout) as Array<{ name: string }>;
    assert.ok(components.some((c) => c.name === 'metrics-server'));
    const api = await kubectl(['get', 'apiservice', 'v1beta1.metrics.k8s.io', '-o', 'jsonpath={.spec.service.name}']);
    assert.equal(api.stdout, 'metrics-server');
  });

  test('kubectl top node and kubectl top pod show the simulated usage', async () => {
    // metrics-server needs two scrapes (15s apart) for a CPU rate: poll, with a generous deadline.
    let node = '';
    await waitFor('kubectl top node', async () => {
      node = (await kubectl(['top', 'node', NODE, '--no-headers'])).stdout;
      return node.includes(NODE);
    }, 300_000, 5000);
    const [, cpu, , memory] = node.trim().split(/\s+/);
    // 2 containers × 250m and × 64Mi. CPU is a rate metrics-server derives from two cumulative
    // counters and its own scrape times (the samples carry no timestamps, as kwok's), so it is near,
    // not exactly, the usage.
    assertMillicores(cpu, 500);
    assert.equal(memory, '128Mi');
    let pod = '';
    await waitFor('kubectl top pod', async () => {
      pod = (await kubectl(['top', 'pod', 'me-pod-0', '--containers', '--no-headers'])).stdout;
      return pod.includes('sidecar');
    }, 300_000, 5000);
    for (const container of ['app', 'sidecar']) {
      const row = new RegExp(`me-pod-0\\s+${container}\\s+(\\d+m)\\s+64Mi`).exec(pod);
      assert.ok(row, pod);
      assertMillicores(row[1], 250);
    }
    const raw = JSON.parse((await kubectl(['get', '--raw', `/apis/metrics.k8s.io/v1beta1/nodes/${NODE}`])).stdout) as { usage: { memory: string } };
    assert.equal(raw.usage.memory, '128Mi');
  });

  test("the controller's /metrics/nodes/<node>/metrics/resource has kwok's series", async () => {
    const config = readFileSync(join(box.workdir, 'clusters', NAME, 'kwok.yaml'), 'utf8');
    const port = /--node-port=(\d+)/.exec(config)![1];
    const pki = join(box.workdir, 'clusters', NAME, 'pki');
    const ca = readFileSync(join(pki, 'ca.crt'), 'utf8');
    const url = `https://127.0.0.1:${port}/metrics/nodes/${NODE}/metrics/resource`;
    await assert.rejects(get(url, { ca }), /: 401 /, 'a client without a certificate is refused');
    // metrics-server's identity (--kubelet-client-certificate): system:monitoring, which may read metrics.
    const text = await get(url, { ca, cert: readFileSync(join(pki, 'prometheus.crt'), 'utf8'), key: readFileSync(join(pki, 'prometheus.key'), 'utf8') });
    for (const series of ['node_cpu_usage_seconds_total ', 'node_memory_working_set_bytes 1.34217728e+08', 'scrape_error 0']) assert.ok(text.includes(`\n${series}`) || text.startsWith(series), `${series} in\n${text}`);
    assert.match(text, /^pod_memory_working_set_bytes\{namespace="default",pod="me-pod-0"\} 1\.34217728e\+08$/m);
    assert.match(text, /^container_memory_working_set_bytes\{container="sidecar",namespace="default",pod="me-pod-0"\} 6\.7108864e\+07$/m);
    assert.match(text, /^container_cpu_usage_seconds_total\{container="app",namespace="default",pod="me-pod-0"\} [0-9.e+]+$/m);
    assert.match(text, /^# TYPE pod_cpu_usage_seconds_total counter$/m);
  });

  test("a ResourceUsage custom resource created later gives its pod that usage", async () => {
    const usage = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: ResourceUsage
metadata: {name: me-pod-1, namespace: default}
spec:
  usages:
  - usage:
      cpu: {value: 100m}
      memory: {value: 32Mi}
---
apiVersion: v1
kind: Pod
metadata: {name: me-pod-1, namespace: default}
spec:
  nodeName: ${NODE}
  containers:
  - {name: app, image: fake}
`;
    const applied = await kubectl(['apply', '-f', '-'], usage);
    assert.equal(applied.exitCode, 0, failure(applied));
    let pod = '';
    await waitFor('kubectl top pod me-pod-1', async () => {
      pod = (await kubectl(['top', 'pod', 'me-pod-1', '--no-headers'])).stdout;
      return pod.includes('me-pod-1');
    }, 300_000, 5000);
    const row = /me-pod-1\s+(\d+m)\s+32Mi/.exec(pod);
    assert.ok(row, pod);
    assertMillicores(row[1], 100);
  });

  test('the deprecated --enable-metrics-server enables it too', async () => {
    const planned = await kwokts(box, ['--name', 'me-alias', 'create', 'cluster', '--enable-metrics-server', '--dry-run']);
    assert.equal(planned.exitCode, 0, failure(planned));
    assert.match(planned.stdout, /metrics-server/);
  });
});

const JAEGER = join(CACHE, 'gobuild', 'jaeger', 'v1.76.0', 'jaeger');

describe('jaeger', { timeout: 3_600_000, skip: unbuiltReason('jaeger') }, () => {
  let box: Sandbox;
  let port = 0;
  before(async () => {
    requireBinaries();
    box = sandbox();
    // Built from its Go module when not cached yet (a cold build takes a long while; later runs reuse it).
    if (!existsSync(JAEGER)) {
      const built = await kwokts(box, ['artifacts', 'build', 'jaeger'], { timeoutMs: 3_000_000 });
      assert.equal(built.exitCode, 0, failure(built));
    }
    port = await freePort();
    const created = await kwokts(box, ['--name', 'me-jaeger', 'create', 'cluster', '--jaeger-port', String(port), '--wait', '3m']);
    assert.equal(created.exitCode, 0, failure(created));
  });
  after(async () => {
    await kwokts(box, ['--name', 'me-jaeger', 'delete', 'cluster']);
    box.cleanup();
  });

  const services = (): Promise<string[]> => jaegerServices(port);

  test("the apiserver's traces reach jaeger", async () => {
    await kwokts(box, ['--name', 'me-jaeger', 'kubectl', 'get', 'ns']);
    await waitFor('jaeger lists the apiserver service', async () => {
      const listed = await services();
      return listed.includes('apiserver') || listed.includes('kube-apiserver');
    }, 300_000, 3000);
  });

  test("etcd's traces reach jaeger too, as with kwokctl", async () => {
    await kwokts(box, ['--name', 'me-jaeger', 'kubectl', 'get', 'ns']);
    await waitFor('jaeger lists the etcd service', async () => (await services()).includes('etcd'), 300_000, 3000);
  });
});
