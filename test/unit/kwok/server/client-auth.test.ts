/**
 * The controller's server with --client-ca-file: real TLS with certificates of a real cluster PKI,
 * each identity against each kind of endpoint (plain route, Metric path, upgrade route, health).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateClusterPki, signClientCertificate, type CertificateAndKey } from '../../../../src/pki/index.js';
import type { ApiReviewer } from '../../../../src/kwok/server/api-review.js';
import { accessAttributes } from '../../../../src/kwok/server/client-auth.js';
import { startKwokServer, type RunningServer } from '../../../../src/kwok/server/http-server.js';
import { rejectUpgrade } from '../../../../src/kwok/server/spdy-upgrade.js';
import { silentLogger } from '../../../../src/util/log.js';

interface Answer {
  status: number;
  body: string;
}

let server: RunningServer;
let dir: string;
let ca: string;
let caPem: string;
let caKeyPem: string;
const who: Record<'admin' | 'monitoring' | 'kubeletClient' | 'other' | 'foreign', CertificateAndKey> = {} as never;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kwok-client-auth-'));
  const [pki, foreign] = await Promise.all([generateClusterPki(), generateClusterPki()]);
  ca = pki.caCert;
  caPem = pki.caCert;
  caKeyPem = pki.caKey;
  const authority = { cert: pki.caCert, key: pki.caKey };
  who.admin = { cert: pki.adminCert, key: pki.adminKey };
  who.monitoring = { cert: pki.prometheusCert, key: pki.prometheusKey };
  who.kubeletClient = await signClientCertificate(authority, { user: 'kube-apiserver-kubelet-client', groups: ['kubeadm:cluster-admins'] });
  who.other = await signClientCertificate(authority, { user: 'someone', groups: ['system:authenticated'] });
  who.foreign = { cert: foreign.adminCert, key: foreign.adminKey };
  const files = { cert: join(dir, 'tls.crt'), key: join(dir, 'tls.key'), ca: join(dir, 'ca.crt') };
  writeFileSync(files.cert, pki.adminCert);
  writeFileSync(files.key, pki.adminKey);
  writeFileSync(files.ca, pki.caCert);
  server = await startKwokServer({
    listen: { host: '127.0.0.1', port: 0 },
    renderMetrics: () => 'kwok_managed_nodes 1\n',
    routes: [
      { prefix: '/containerLogs/', handle: (_req, res) => void res.end('log line\n') },
      { prefix: '/metrics/', handle: (_req, res) => void res.end('node metrics\n') },
    ],
    upgradeRoutes: [{ prefix: '/exec/', handle: (_req, socket) => rejectUpgrade(socket, 418, 'reached the exec route') }],
    tls: { cert: pki.adminCert, key: pki.adminKey, clientCa: pki.caCert },
    logger: silentLogger,
  });
  await startReviewed();
});

let reviewed: RunningServer;
const reviews: string[] = [];
/** The apiserver's answers: one known token; nodes/metrics for metrics-server, nodes/proxy for someone-trusted. */
const fakeReviewer: ApiReviewer = {
  async authenticate(token) {
    reviews.push(`token ${token}`);
    if (token === 'broken') throw new Error('connection refused');
    return token === 'metrics-server-token' ? { user: 'system:serviceaccount:kube-system:metrics-server', groups: ['system:serviceaccounts'] } : undefined;
  },
  async authorize(identity, attributes) {
    reviews.push(`${identity.user} ${JSON.stringify(attributes)}`);
    if (attributes.kind !== 'resource') return false;
    return (identity.user.endsWith(':metrics-server') && attributes.subresource === 'metrics') || (identity.user === 'someone-trusted' && attributes.subresource === 'proxy');
  },
};

async function startReviewed(): Promise<void> {
  reviewed = await startKwokServer({
    listen: { host: '127.0.0.1', port: 0 },
    renderMetrics: () => 'kwok_managed_nodes 1\n',
    routes: [
      { prefix: '/containerLogs/', handle: (_req, res) => void res.end('log line\n') },
      { prefix: '/metrics/', handle: (_req, res) => void res.end('node metrics\n') },
    ],
    upgradeRoutes: [{ prefix: '/exec/', handle: (_req, socket) => rejectUpgrade(socket, 418, 'reached the exec route') }],
    tls: { cert: readFileSync(join(dir, 'tls.crt'), 'utf8'), key: readFileSync(join(dir, 'tls.key'), 'utf8'), clientCa: readFileSync(join(dir, 'ca.crt'), 'utf8') },
    reviewer: fakeReviewer,
    logger: silentLogger,
  });
}

after(async () => {
  await server.close();
  await reviewed.close();
  rmSync(dir, { recursive: true, force: true });
});

function ask(path: string, identity?: CertificateAndKey, options: { plain?: boolean; upgrade?: boolean; token?: string; to?: RunningServer } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...(options.upgrade ? { Connection: 'Upgrade', Upgrade: 'SPDY/3.1' } : {}), ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}) };
    const common = { host: '127.0.0.1', port: (options.to ?? server).address.port, path, headers, method: options.upgrade ? 'POST' : 'GET' };
    const req = options.plain ? httpRequest(common) : httpsRequest({ ...common, ca, servername: 'localhost', ...(identity ? { cert: identity.cert, key: identity.key } : {}) });
    const collect = (res: import('node:http').IncomingMessage): void => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    };
    req.on('response', collect);
    req.on('upgrade', (res) => resolve({ status: res.statusCode ?? 0, body: '' }));
    req.on('error', reject);
    req.end();
  });
}

describe('controller server with --client-ca-file', () => {
  it('refuses plain HTTP, no certificate and certificates of another CA with 401', async () => {
    for (const answer of [await ask('/metrics', undefined, { plain: true }), await ask('/containerLogs/ns/p/c'), await ask('/exec/ns/p/c', who.foreign, { upgrade: true }), await ask('/metrics', who.foreign)]) {
      assert.equal(answer.status, 401);
      assert.match(answer.body, /client certificate of the cluster CA/);
    }
    assert.equal((await ask('/exec/ns/p/c', undefined, { plain: true, upgrade: true })).status, 401);
  });

  it('lets system:masters and the apiserver kubelet client use every endpoint', async () => {
    for (const identity of [who.admin, who.kubeletClient]) {
      assert.deepEqual(await ask('/containerLogs/ns/p/c', identity), { status: 200, body: 'log line\n' });
      assert.equal((await ask('/exec/ns/p/c', identity, { upgrade: true })).status, 418);
      assert.equal((await ask('/metrics', identity)).status, 200);
    }
  });

  it('lets system:monitoring read metrics and health only', async () => {
    assert.deepEqual(await ask('/metrics', who.monitoring), { status: 200, body: 'kwok_managed_nodes 1\n' });
    assert.deepEqual(await ask('/metrics/nodes/n1/metrics/resource', who.monitoring), { status: 200, body: 'node metrics\n' });
    assert.equal((await ask('/containerLogs/ns/p/c', who.monitoring)).status, 403);
    assert.equal((await ask('/exec/ns/p/c', who.monitoring, { upgrade: true })).status, 403);
  });

  it('answers health to anyone, over HTTP too', async () => {
    for (const path of ['/healthz', '/livez', '/readyz']) {
      assert.equal((await ask(path, undefined, { plain: true })).status, 200, path);
      assert.equal((await ask(path, who.foreign)).status, 200, path);
    }
  });

  it('refuses any other certificate of the CA (403)', async () => {
    const refused = await ask('/metrics', who.other);
    assert.equal(refused.status, 403);
    assert.match(refused.body, /user "someone" may not use \/metrics/);
    assert.equal((await ask('/exec/ns/p/c', who.other, { upgrade: true })).status, 403);
  });
});

describe('controller server with --client-ca-file and the apiserver to ask', () => {
  it('takes a bearer token over HTTPS that a TokenReview knows, and asks a SubjectAccessReview with the kubelet\'s attributes', async () => {
    reviews.length = 0;
    const metrics = await ask('/metrics/nodes/n1/metrics/resource', undefined, { token: 'metrics-server-token', to: reviewed });
    assert.deepEqual(metrics, { status: 200, body: 'node metrics\n' });
    assert.deepEqual(reviews, ['token metrics-server-token', 'system:serviceaccount:kube-system:metrics-server {"kind":"resource","verb":"get","resource":"nodes","subresource":"metrics","name":"n1"}']);
    assert.equal((await ask('/containerLogs/ns/p/c', undefined, { token: 'metrics-server-token', to: reviewed })).status, 403);
    assert.equal((await ask('/exec/ns/p/c', undefined, { token: 'metrics-server-token', upgrade: true, to: reviewed })).status, 403);
  });

  it('refuses unknown tokens, tokens over plain HTTP and a review that fails, with 401', async () => {
    assert.equal((await ask('/metrics/nodes/n1/metrics/resource', undefined, { token: 'nobody', to: reviewed })).status, 401);
    reviews.length = 0;
    assert.equal((await ask('/metrics/nodes/n1/metrics/resource', undefined, { token: 'metrics-server-token', plain: true, to: reviewed })).status, 401);
    assert.deepEqual(reviews, [], 'a token sent in the clear is not even reviewed');
    const broken = await ask('/metrics', undefined, { token: 'broken', to: reviewed });
    assert.equal(broken.status, 401);
    assert.match(broken.body, /could not be reviewed \(connection refused\)/);
  });

  it('asks about a certificate identity its own rules refuse', async () => {
    const trusted = await signClientCertificate({ cert: caPem, key: caKeyPem }, { user: 'someone-trusted', groups: [] });
    assert.equal((await ask('/exec/ns/p/c', trusted, { upgrade: true, to: reviewed })).status, 418);
    assert.equal((await ask('/exec/ns/p/c', who.other, { upgrade: true, to: reviewed })).status, 403);
    assert.equal((await ask('/exec/ns/p/c', who.admin, { upgrade: true, to: reviewed })).status, 418, 'its own rules still decide first');
  });

  it('maps requests to the kubelet\'s attributes', () => {
    assert.deepEqual(accessAttributes('GET', '/metrics'), { kind: 'path', verb: 'get', path: '/metrics' });
    assert.deepEqual(accessAttributes('POST', '/exec/ns/p/c'), { kind: 'resource', verb: 'create', resource: 'nodes', subresource: 'proxy', name: '' });
    assert.deepEqual(accessAttributes('GET', '/metrics/custom'), { kind: 'resource', verb: 'get', resource: 'nodes', subresource: 'metrics', name: '' });
  });
});
