/**
 * What a cluster protects, on a real binary-runtime cluster: etcd answers only clients with a
 * certificate from its own CA (the apiserver, the host's etcdctl), not plain HTTP, not a TLS
 * client without a certificate, not the cluster admin's certificate; the cluster directory is
 * private (0700 directories, 0600 keys and kubeconfigs); and a cluster recorded before etcd
 * required TLS (plain-HTTP etcd in its kwok.yaml) still starts, answers etcdctl and snapshot
 * save, stops and is deleted; without RBAC the controller-manager's and scheduler's /metrics
 * still refuse anonymous clients; the kwok controller's kubelet endpoints (exec, logs, metrics)
 * refuse plain HTTP and certificates other than the admin's (Prometheus' reads metrics only).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join, relative } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { insecureHttpsStatus, isAlive, kwokts, recordedPids, requireBinaries, sandbox, type Sandbox, failure } from './harness.js';

const NAME = 'se-sec';
const OLD = 'se-old';
const NORBAC = 'se-norbac';

type Outcome = { status: number; body: string } | { error: string };

/** One GET; a refused handshake or connection is an outcome, not a test failure. */
function get(port: number, path: string, tls?: { ca: string; cert?: string; key?: string }): Promise<Outcome> {
  return new Promise((resolve) => {
    const options = { host: '127.0.0.1', port, path, timeout: 10_000, agent: false as const };
    const callback = (res: import('node:http').IncomingMessage): void => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    };
    const req = tls
      ? httpsRequest({ ...options, servername: 'localhost', ca: readFileSync(tls.ca), ...(tls.cert ? { cert: readFileSync(tls.cert), key: readFileSync(tls.key!) } : {}) }, callback)
      : httpRequest(options, callback);
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) => resolve({ error: error.message }));
    req.end();
  });
}

interface RecordComponent {
  name: string;
  args: string[];
  ports: Array<{ name: string; port: number; containerPort?: number }>;
  probe?: { scheme: string; port: number; path: string; clientCert: boolean };
}

function etcdPort(box: Sandbox, name: string, port: string): number {
  const head = parseAllDocuments(readFileSync(join(box.workdir, 'clusters', name, 'kwok.yaml'), 'utf8'))[0]!.toJS() as { components: RecordComponent[] };
  return head.components.find((c) => c.name === 'etcd')!.ports.find((p) => p.name === port)!.port;
}

describe('security', { timeout: 900_000 }, () => {
  let box: Sandbox;
  let dir = '';
  let pki = '';

  before(async () => {
    requireBinaries();
    box = sandbox();
    const created = await kwokts(box, ['--name', NAME, 'create', 'cluster', '--wait', '2m']);
    assert.equal(created.exitCode, 0, failure(created));
    dir = join(box.workdir, 'clusters', NAME);
    pki = join(dir, 'pki');
  });
  after(async () => {
    const pids = recordedPids(box.workdir);
    await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    await kwokts(box, ['--name', OLD, 'delete', 'cluster']);
    await kwokts(box, ['--name', NORBAC, 'delete', 'cluster']);
    for (const pid of pids) assert.equal(isAlive(pid), false, `component ${pid} outlived delete`);
    box.cleanup();
  });

  test('etcd answers only clients with a certificate from its own CA', async () => {
    const port = etcdPort(box, NAME, 'https');
    // The request that used to read a ConfigMap: plain HTTP to the client port.
    const plain = await get(port, '/v3/kv/range');
    assert.ok('error' in plain || plain.status === 400, `plain HTTP is not served: ${JSON.stringify(plain)}`);
    if (!('error' in plain)) assert.doesNotMatch(plain.body, /kvs|registry/);
    const etcdCa = join(pki, 'etcd', 'ca.crt');
    const anonymous = await get(port, '/health', { ca: etcdCa });
    assert.ok('error' in anonymous, `a TLS client without a certificate is refused: ${JSON.stringify(anonymous)}`);
    const admin = await get(port, '/health', { ca: etcdCa, cert: join(pki, 'admin.crt'), key: join(pki, 'admin.key') });
    assert.ok('error' in admin, `the cluster admin's certificate (cluster CA) is refused: ${JSON.stringify(admin)}`);
    const client = await get(port, '/health', { ca: etcdCa, cert: join(pki, 'etcd', 'healthcheck-client.crt'), key: join(pki, 'etcd', 'healthcheck-client.key') });
    assert.ok(!('error' in client) && client.status === 200, JSON.stringify(client));

    // The passthrough brings its certificate; a flag the user repeats wins (here: the wrong certificate).
    const keys = await kwokts(box, ['--name', NAME, 'etcdctl', 'get', '/registry/namespaces/default', '--keys-only']);
    assert.equal(keys.exitCode, 0, failure(keys));
    assert.equal(keys.stdout.trim(), '/registry/namespaces/default');
    const wrong = await kwokts(box, ['--name', NAME, 'etcdctl', `--cert=${join(pki, 'admin.crt')}`, `--key=${join(pki, 'admin.key')}`, '--command-timeout=5s', 'get', '/registry', '--prefix', '--keys-only']);
    assert.notEqual(wrong.exitCode, 0, 'etcd refuses the admin certificate through etcdctl too');
    assert.equal(wrong.stdout.trim(), '');

    // Metrics and health stay readable without a certificate, on loopback only.
    const metrics = await get(etcdPort(box, NAME, 'metrics'), '/metrics');
    assert.ok(!('error' in metrics) && metrics.status === 200 && /etcd_server_has_leader/.test(metrics.body));
  });

  test("the kwok controller's kubelet endpoints answer the admin's and the apiserver's certificates; Prometheus' reads metrics only", async () => {
    const head = parseAllDocuments(readFileSync(join(dir, 'kwok.yaml'), 'utf8'))[0]!.toJS() as { components: RecordComponent[] };
    const port = head.components.find((c) => c.name === 'kwok-controller')!.ports[0]!.port;
    const ca = join(pki, 'ca.crt');
    const admin = { ca, cert: join(pki, 'admin.crt'), key: join(pki, 'admin.key') };
    const prometheus = { ca, cert: join(pki, 'prometheus.crt'), key: join(pki, 'prometheus.key') };
    const statusOf = (outcome: Outcome): number | string => ('error' in outcome ? outcome.error : outcome.status);
    // An exec as a SPDY upgrade, as kube-apiserver sends it (the request that once ran a command for anyone).
    const exec = (tls?: { ca: string; cert?: string; key?: string }): Promise<number | string> =>
      new Promise((resolve) => {
        const options = { host: '127.0.0.1', port, method: 'POST', path: '/exec/default/any-pod/c?command=id&output=1', agent: false as const, headers: { Connection: 'Upgrade', Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': 'v4.channel.k8s.io' } };
        const req = tls ? httpsRequest({ ...options, servername: 'localhost', ca: readFileSync(tls.ca), ...(tls.cert ? { cert: readFileSync(tls.cert), key: readFileSync(tls.key!) } : {}) }) : httpRequest(options);
        req.on('response', (res) => { res.resume(); resolve(res.statusCode ?? 0); });
        req.on('upgrade', (res, socket) => { socket.destroy(); resolve(res.statusCode ?? 0); });
        req.on('error', (error) => resolve(error.message));
        req.end();
      });
    assert.equal(await exec(), 401, 'plain HTTP');
    assert.equal(await exec({ ca }), 401, 'TLS without a certificate');
    assert.equal(await exec(prometheus), 403, "Prometheus' certificate");
    const asAdmin = await exec(admin);
    assert.ok(asAdmin !== 401 && asAdmin !== 403, `the admin's certificate passes (then the pod is looked up): ${asAdmin}`);
    assert.equal(statusOf(await get(port, '/containerLogs/default/any-pod/c')), 401);
    assert.equal(statusOf(await get(port, '/containerLogs/default/any-pod/c', prometheus)), 403);
    assert.equal(statusOf(await get(port, '/metrics')), 401);
    assert.equal(statusOf(await get(port, '/metrics', prometheus)), 200);
    assert.equal(statusOf(await get(port, '/metrics', admin)), 200);
    // Health answers anyone, as the controller-manager's and the scheduler's do (kwok's e2e probes it so).
    assert.equal(statusOf(await get(port, '/healthz')), 200);
  });

  test('the cluster directory is private: directories 0700, keys and kubeconfigs 0600, nothing writable by others', () => {
    const modeOf = (path: string): number => lstatSync(path).mode & 0o777;
    for (const d of ['.', 'pki', 'pki/etcd', 'etcd', 'logs', 'pids']) assert.equal(modeOf(join(dir, d)).toString(8), '700', `${d}/`);
    for (const f of ['kubeconfig.yaml', 'kwok.yaml']) assert.equal(modeOf(join(dir, f)).toString(8), '600', f);
    // etcd's unix socket, the apiserver's certificate-less way to etcd, is reached only through the 0700 directory.
    assert.ok(lstatSync(join(dir, 'etcd.sock')).isSocket(), 'etcd.sock is a socket in the cluster directory');
    const keys: string[] = [];
    const walk = (path: string): void => {
      const stat = lstatSync(path);
      assert.equal(stat.mode & 0o002, 0, `${relative(dir, path)} is not writable by others`);
      if (stat.isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
      else if (path.endsWith('.key')) keys.push(path);
    };
    walk(dir);
    assert.equal(keys.length, 9, keys.join(', '));
    for (const key of keys) assert.equal(modeOf(key).toString(8), '600', relative(dir, key));
  });

  test('a cluster recorded with plain-HTTP etcd (made before etcd TLS) starts, answers etcdctl and snapshot save, stops and is deleted', async () => {
    const created = await kwokts(box, ['--name', OLD, 'create', 'cluster', '--disable', 'kube-controller-manager,kube-scheduler,kwok-controller', '--wait', '2m']);
    assert.equal(created.exitCode, 0, failure(created));
    assert.equal((await kwokts(box, ['--name', OLD, 'stop', 'cluster'])).exitCode, 0);
    // Rewrite the record as the previous version wrote it: etcd on plain HTTP, no certificates.
    const oldDir = join(box.workdir, 'clusters', OLD);
    const file = join(oldDir, 'kwok.yaml');
    const docs = parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as Record<string, unknown>);
    const components = docs[0]!.components as RecordComponent[];
    const etcd = components.find((c) => c.name === 'etcd')!;
    // (The previous version had no unix socket either: etcd on its TCP port alone, and the apiserver there.)
    etcd.args = etcd.args
      .filter((a) => !/^--(cert-file|key-file|client-cert-auth|trusted-ca-file|peer-cert-file|peer-key-file|peer-client-cert-auth|peer-trusted-ca-file|listen-metrics-urls)=/.test(a))
      .map((a) => a.replaceAll('https://', 'http://').replace(/,unix:\/\/.*$/, ''));
    const client = etcd.ports.find((p) => p.name === 'https')!;
    etcd.ports = [{ name: 'http', port: client.port }, { name: 'peer-http', port: etcd.ports.find((p) => p.name === 'peer-https')!.port }];
    etcd.probe = { scheme: 'http', port: client.port, path: '/health', clientCert: false };
    const apiserver = components.find((c) => c.name === 'kube-apiserver')!;
    apiserver.args = apiserver.args.filter((a) => !/^--etcd-(cafile|certfile|keyfile)=/.test(a)).map((a) => (a.startsWith('--etcd-servers=') ? `--etcd-servers=http://127.0.0.1:${client.port}` : a));
    writeFileSync(file, docs.map((d) => stringify(d)).join('---\n'), { mode: 0o600 });
    // A fresh member: the TLS run's data remembers https peer URLs.
    rmSync(join(oldDir, 'etcd'), { recursive: true, force: true });

    const started = await kwokts(box, ['--name', OLD, 'start', 'cluster', '--wait', '2m']);
    assert.equal(started.exitCode, 0, failure(started));
    const plain = await get(client.port, '/health');
    assert.ok(!('error' in plain) && plain.status === 200, `the old cluster's etcd is plain HTTP: ${JSON.stringify(plain)}`);
    const keys = await kwokts(box, ['--name', OLD, 'etcdctl', 'get', '/registry/namespaces/default', '--keys-only']);
    assert.equal(keys.exitCode, 0, failure(keys));
    assert.equal(keys.stdout.trim(), '/registry/namespaces/default');
    const snapshot = join(box.workdir, '..', 'old.db');
    const saved = await kwokts(box, ['--name', OLD, 'snapshot', 'save', '--path', snapshot]);
    assert.equal(saved.exitCode, 0, failure(saved));
    assert.ok(existsSync(snapshot));
    assert.equal((await kwokts(box, ['--name', OLD, 'stop', 'cluster'])).exitCode, 0);
    assert.equal((await kwokts(box, ['--name', OLD, 'delete', 'cluster'])).exitCode, 0);
    assert.equal(existsSync(oldDir), false);
  });

  test('without RBAC, controller-manager and scheduler /metrics still refuse an anonymous client and answer Prometheus\' certificate', async () => {
    const created = await kwokts(box, ['--name', NORBAC, 'create', 'cluster', '--no-kube-authorization', '--disable', 'kwok-controller', '--wait', '2m']);
    assert.equal(created.exitCode, 0, failure(created));
    const components = JSON.parse((await kwokts(box, ['--name', NORBAC, 'get', 'components', '-o', 'json'])).stdout) as Array<{ name: string; ports: number[] }>;
    const norbacPki = join(box.workdir, 'clusters', NORBAC, 'pki');
    for (const name of ['kube-controller-manager', 'kube-scheduler']) {
      const port = components.find((c) => c.name === name)!.ports[0]!;
      const anonymous = await insecureHttpsStatus(port, '/metrics');
      assert.ok(anonymous === 401 || anonymous === 403, `${name}: anonymous /metrics got ${anonymous}`);
      assert.equal(await insecureHttpsStatus(port, '/metrics', { cert: join(norbacPki, 'prometheus.crt'), key: join(norbacPki, 'prometheus.key') }), 200, name);
    }
    assert.equal((await kwokts(box, ['--name', NORBAC, 'delete', 'cluster'])).exitCode, 0);
  });
});

