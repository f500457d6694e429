/**
 * Prometheus as an optional component: every target up (etcd on its plain metrics listener,
 * the kube components with Prometheus' own system:monitoring certificate), while the
 * controller-manager's and scheduler's /metrics refuse an unauthenticated client and etcd's
 * client port refuses a client without etcd's certificate; a kwok controller metric queryable,
 * loopback only, gone with the cluster; a bad binary is one clear error and nothing is left.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { insecureHttpsStatus, isAlive, isListening, isListeningFor, kwokts, requireBinaries, sandbox, waitFor, type Sandbox, failure } from './harness.js';

const NAME = 'prom';


interface Target {
  labels: { job: string };
  health: string;
  scrapeUrl: string;
}

describe('prometheus', { timeout: 600_000 }, () => {
  let box: Sandbox;
  let port = 0;
  let componentPorts: Record<string, number[]> = {};
  const api = async <T>(path: string): Promise<T> => ((await (await fetch(`http://127.0.0.1:${port}${path}`)).json()) as { data: T }).data;

  before(async () => {
    requireBinaries();
    box = sandbox();
    const created = await kwokts(box, ['--name', NAME, 'create', 'cluster', '--enable', 'prometheus', '--wait', '2m']);
    assert.equal(created.exitCode, 0, failure(created));
    const components = JSON.parse((await kwokts(box, ['--name', NAME, 'get', 'components', '-o', 'json'])).stdout) as Array<{ name: string; ports: number[] }>;
    port = components.find((c) => c.name === 'prometheus')!.ports[0]!;
    componentPorts = Object.fromEntries(components.map((c) => [c.name, c.ports]));
  });
  after(async () => {
    await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    box.cleanup();
  });

  test('every component is a target, and all are up', async () => {
    let targets: Target[] = [];
    await waitFor('all targets up', async () => {
      targets = (await api<{ activeTargets: Target[] }>('/api/v1/targets')).activeTargets;
      return targets.length === 6 && targets.every((t) => t.health === 'up');
    }, 90_000, 1000);
    assert.deepEqual(targets.map((t) => t.labels.job).sort(), ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'prometheus']);
    // etcd is scraped on its metrics listener, not on its (TLS, certificate-only) client port.
    const etcd = targets.find((t) => t.labels.job === 'etcd')!;
    assert.match(etcd.scrapeUrl, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    assert.notEqual(Number(new URL(etcd.scrapeUrl).port), componentPorts['etcd']![0]);
  });

  test('controller-manager and scheduler: /metrics refuses an anonymous client and answers Prometheus\' certificate; health stays open', async () => {
    const pki = join(box.workdir, 'clusters', NAME, 'pki');
    const prometheus = { cert: join(pki, 'prometheus.crt'), key: join(pki, 'prometheus.key') };
    const config = readFileSync(join(box.workdir, 'clusters', NAME, 'prometheus.yaml'), 'utf8');
    assert.doesNotMatch(config, /admin\.(crt|key)/, 'Prometheus does not hold the admin credentials');
    for (const component of ['kube-controller-manager', 'kube-scheduler']) {
      const p = componentPorts[component]![0]!;
      const anonymous = await insecureHttpsStatus(p, '/metrics');
      assert.ok(anonymous === 401 || anonymous === 403, `${component}: anonymous /metrics got ${anonymous}`);
      assert.equal(await insecureHttpsStatus(p, '/metrics', prometheus), 200, `${component}: system:monitoring may read /metrics`);
      // Its identity reads metrics, nothing else: the apiserver refuses it an API read.
      assert.equal(await insecureHttpsStatus(p, '/healthz'), 200, `${component}: /healthz stays open`);
    }
    assert.equal(await insecureHttpsStatus(componentPorts['kube-apiserver']![0]!, '/api/v1/namespaces', prometheus), 403, 'system:monitoring cannot read the API');
    // etcd's client port: no certificate, no answer.
    assert.equal(typeof (await insecureHttpsStatus(componentPorts['etcd']![0]!, '/health')), 'string', 'etcd refuses a TLS client without its certificate');
  });

  test('a kwok controller metric is queryable', async () => {
    await kwokts(box, ['--name', NAME, 'kubectl', 'apply', '-f', '-'], {
      input: 'apiVersion: v1\nkind: Node\nmetadata:\n  name: prom-node\n  annotations:\n    kwok.x-k8s.io/node: fake\n',
    });
    await waitFor('kwok_managed_nodes reports the node', async () => {
      const result = await api<{ result: Array<{ value: [number, string] }> }>('/api/v1/query?query=kwok_managed_nodes');
      return result.result.some((r) => Number(r.value[1]) >= 1);
    }, 90_000, 2000);
  });

  test('listens on loopback only, and goes away with the cluster', async () => {
    assert.ok(await isListening(port));
    const config = readFileSync(join(box.workdir, 'clusters', NAME, 'kwok.yaml'), 'utf8');
    assert.match(config, new RegExp(`--web.listen-address=127\\.0\\.0\\.1:${port}`));
    const pid = Number(readFileSync(join(box.workdir, 'clusters', NAME, 'pids', 'prometheus.pid'), 'utf8'));
    assert.equal((await kwokts(box, ['--name', NAME, 'delete', 'cluster'])).exitCode, 0);
    assert.equal(isAlive(pid), false);
    assert.equal(await isListeningFor(port, box.workdir), false);
  });

  test('a prometheus binary that does not exist: one error, nothing left', async () => {
    const result = await kwokts(box, ['--name', 'prom-bad', 'create', 'cluster', '--enable', 'prometheus', '--prometheus-binary', '/nonexistent/prometheus']);
    assert.equal(result.exitCode, 3, result.stderr);
    assert.match(result.stderr, /prometheus/);
    assert.equal(existsSync(join(box.workdir, 'clusters', 'prom-bad')), false);
  });
});
