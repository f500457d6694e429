/**
 * probeOnce against a real HTTPS server on loopback that asks for the admin client certificate,
 * as kube-apiserver does: what is counted is answers and connections, never time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TLSSocket } from 'node:tls';
import { probeOnce } from '../../../src/cluster/probe.js';
import { clusterPaths, type ClusterPaths } from '../../../src/naming/naming.js';
import { generateClusterPki } from '../../../src/pki/index.js';
import { DEFERRED_ENV } from '../../../src/util/extra-ca-certs.js';

const execFileAsync = promisify(execFile);

/** A fresh cluster PKI in `paths` (the files the probe reads), and a server presenting it that requires a client certificate from its CA. */
async function serverWithFreshPki(paths: ClusterPaths): Promise<{ server: Server; port: number; connections: () => number; clients: string[] }> {
  const pki = await generateClusterPki();
  mkdirSync(paths.pki, { recursive: true });
  writeFileSync(paths.caCert, pki.caCert);
  writeFileSync(paths.adminCert, pki.adminCert);
  writeFileSync(paths.adminKey, pki.adminKey);
  let connections = 0;
  const clients: string[] = [];
  const server = createServer({ key: pki.adminKey, cert: pki.adminCert, ca: pki.caCert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    clients.push(String((req.socket as TLSSocket).getPeerCertificate().subject?.CN));
    res.writeHead(200).end('ok');
  });
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections, clients };
}

test('the admin client certificate: verified both ways, one kept-alive connection, and new files are read', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-probe-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const paths = clusterPaths(dir, 'c1');

  const first = await serverWithFreshPki(paths);
  t.after(() => first.server.close());
  const probe = { scheme: 'https' as const, port: first.port, path: '/readyz', clientCert: true };
  for (let i = 0; i < 3; i++) assert.deepEqual(await probeOnce(probe, paths, 5000), { ok: true, detail: '200 ok', status: 200 });
  assert.equal(first.connections(), 1);
  assert.equal(first.clients.length, 3);
  assert.ok(first.clients.every((cn) => cn === first.clients[0] && cn !== 'undefined'), 'the admin certificate was presented');
  first.server.closeAllConnections();

  // Another PKI in the same files (a cluster made again under the same name): read and used, not the first one's.
  const second = await serverWithFreshPki(paths);
  t.after(() => second.server.close());
  assert.equal((await probeOnce({ ...probe, port: second.port }, paths, 5000)).ok, true);
  assert.equal(second.clients.length, 1);
  second.server.closeAllConnections();

  // A server of yet another CA is not trusted (nor does it trust us).
  const stranger = await serverWithFreshPki(clusterPaths(dir, 'other'));
  t.after(() => stranger.server.close());
  const refused = await probeOnce({ ...probe, port: stranger.port }, paths, 5000);
  assert.equal(refused.ok, false);
  assert.equal(refused.status, undefined, refused.detail);
  assert.equal(stranger.clients.length, 0);
});

test('a component nobody vouches for (its own self-signed certificate): answered, over one kept-alive connection', async (t) => {
  const pki = await generateClusterPki();
  let connections = 0;
  const server = createServer({ key: pki.adminKey, cert: pki.adminCert }, (_req, res) => res.writeHead(200).end('ok'));
  server.on('secureConnection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-probe-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const paths = clusterPaths(dir, 'c1');
  const probe = { scheme: 'https' as const, port: (server.address() as AddressInfo).port, path: '/healthz', clientCert: false };
  for (let i = 0; i < 3; i++) assert.deepEqual(await probeOnce(probe, paths, 5000), { ok: true, detail: '200 ok', status: 200 });
  assert.equal(connections, 1);
});

/**
 * Such a probe verifies nothing, so it must not load any trust: with NODE_EXTRA_CA_CERTS deferred,
 * a default-trust context would read the bundle (here a missing file, whose read is warned about),
 * and even without it Node would build its whole root store. A real child process, since resuming
 * is process-wide.
 */
test('a probe that verifies nothing loads no trust store (no deferred bundle read)', async () => {
  const pki = await generateClusterPki();
  const server = createServer({ key: pki.adminKey, cert: pki.adminCert }, (_req, res) => res.writeHead(200).end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const dir = mkdtempSync(join(tmpdir(), 'kwokts-probe-'));
    const src = resolve(import.meta.dirname, '..', '..', '..', 'src');
    const script = `
      const warnings = [];
      process.on('warning', (w) => warnings.push(w.message));
      await (await import(${JSON.stringify(join(src, 'util', 'extra-ca-certs.ts'))})).resumeExtraCaCerts();
      const { probeOnce } = await import(${JSON.stringify(join(src, 'cluster', 'probe.ts'))});
      const result = await probeOnce({ scheme: 'https', port: ${(server.address() as AddressInfo).port}, path: '/healthz' }, {}, 5000);
      // Warnings are emitted on a later tick.
      await new Promise((done) => setImmediate(done));
      const before = warnings.length;
      // A default-trust context after it does read the bundle: the check above can fail.
      (await import('node:tls')).default.createSecureContext({});
      await new Promise((done) => setImmediate(done));
      console.log(JSON.stringify({ ok: result.ok, warningsAfterProbe: before, warningsAfterDefault: warnings.length }));
    `;
    const env = { ...process.env, NODE_EXTRA_CA_CERTS: undefined, [DEFERRED_ENV]: join(dir, 'missing.pem') };
    const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env });
    rmSync(dir, { recursive: true, force: true });
    assert.deepEqual(JSON.parse(stdout), { ok: true, warningsAfterProbe: 0, warningsAfterDefault: 1 });
  } finally {
    server.close();
  }
});
