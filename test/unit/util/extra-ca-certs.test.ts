/**
 * src/util/extra-ca-certs.ts: NODE_EXTRA_CA_CERTS deferred by bin/kwokts and taken back by the
 * Node entries. The TLS part runs in a real child Node process (the wrap is process-wide) that
 * connects to a real HTTPS server whose certificate only the test's CA vouches for.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFERRED_ENV, deferExtraCaCerts, readExtraCertificates } from '../../../src/util/extra-ca-certs.js';
import { generateClusterPki } from '../../../src/pki/index.js';

const MODULE = resolve(import.meta.dirname, '..', '..', '..', 'src', 'util', 'extra-ca-certs.ts');

let dir: string;
let server: Server;
let url: string;
let caFile: string;
let otherCaFile: string;
let certFile: string;
let keyFile: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kwokts-extra-ca-'));
  const [pki, other] = await Promise.all([generateClusterPki(), generateClusterPki()]);
  caFile = join(dir, 'bundle.pem');
  // A bundle as a system one looks: text around the certificates, more than one certificate.
  writeFileSync(caFile, `# a comment\n${other.caCert}\nsome text\n${pki.caCert}`);
  otherCaFile = join(dir, 'other.pem');
  writeFileSync(otherCaFile, other.caCert);
  certFile = join(dir, 'server.crt');
  keyFile = join(dir, 'server.key');
  writeFileSync(certFile, pki.adminCert);
  writeFileSync(keyFile, pki.adminKey);
  server = createServer({ cert: pki.adminCert, key: pki.adminKey }, (_req, res) => res.end('ok'));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

after(() => {
  server.closeAllConnections();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the child reports: the environment after resuming, and each client's outcome. */
interface ChildReport {
  nodeExtra: string | null;
  deferred: string | null;
  https: string;
  fetch: string;
  explicitCa: string;
  /** Whether two plain client contexts were one object. */
  sharedPlainContext: boolean;
  warningsAfterServer: number;
  warnings: string[];
  stderr: string;
}

const CHILD = `
const warnings = [];
process.on('warning', (warning) => warnings.push(warning.message));
const { resumeExtraCaCerts } = await import(process.env.MODULE);
if (process.env.RESUME === '1') await resumeExtraCaCerts();
const https = await import('node:https');
const tls = (await import('node:tls')).default;
const { readFileSync } = await import('node:fs');
// A server first: its context is none of the wrap's business (it must not even read the file).
const server = https.createServer({ cert: readFileSync(process.env.CERT), key: readFileSync(process.env.KEY) });
await new Promise((done) => server.listen(0, '127.0.0.1', done));
server.close();
const warningsAfterServer = warnings.length;
const get = (options) => new Promise((done) => {
  https.get(process.env.URL, options, (res) => { res.resume(); done('ok'); }).on('error', (e) => done(e.code ?? e.message));
});
const report = {
  nodeExtra: process.env.NODE_EXTRA_CA_CERTS ?? null,
  deferred: process.env.${DEFERRED_ENV} ?? null,
  https: await get({ agent: false }),
  fetch: await fetch(process.env.URL).then(() => 'ok', (e) => e.cause?.code ?? e.message),
  explicitCa: await get({ agent: false, ca: readFileSync(process.env.OTHER_CA) }),
  sharedPlainContext: tls.createSecureContext({}) === tls.createSecureContext({ servername: 'example', rejectUnauthorized: true }),
  warningsAfterServer,
  warnings,
};
console.log(JSON.stringify(report));
`;

/** Runs `script` in a child Node (tsx, ESM) with `env`; its stdout's JSON, and its stderr. */
async function runChild<T>(script: string, env: Record<string, string | undefined>): Promise<{ report: T; stderr: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((done) => proc.on('close', done));
  assert.equal(code, 0, stderr);
  return { report: JSON.parse(stdout) as T, stderr };
}

async function child(env: Record<string, string | undefined>, resume: boolean): Promise<ChildReport> {
  const childEnv: Record<string, string | undefined> = { ...process.env, NODE_EXTRA_CA_CERTS: undefined, [DEFERRED_ENV]: undefined, MODULE, URL: url, OTHER_CA: otherCaFile, CERT: certFile, KEY: keyFile, RESUME: resume ? '1' : '0', ...env };
  const { report, stderr } = await runChild<Omit<ChildReport, 'stderr'>>(CHILD, childEnv);
  return { ...report, stderr };
}

test('a deferred bundle is trusted again by https and fetch once resumed, and handed back to child processes', async () => {
  const report = await child({ [DEFERRED_ENV]: caFile }, true);
  assert.deepEqual(
    { ...report, stderr: undefined },
    { nodeExtra: caFile, deferred: null, https: 'ok', fetch: 'ok', explicitCa: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', sharedPlainContext: true, warningsAfterServer: 0, warnings: [], stderr: undefined },
  );
});

test('without resuming, the deferred bundle is not trusted (what the test above guards against)', async () => {
  const report = await child({ [DEFERRED_ENV]: caFile }, false);
  assert.equal(report.https, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  assert.equal(report.fetch, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
});

test('the same bundle given to Node itself is trusted the same way (the behaviour resumed)', async () => {
  const report = await child({ NODE_EXTRA_CA_CERTS: caFile }, false);
  assert.deepEqual([report.https, report.fetch, report.explicitCa], ['ok', 'ok', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE']);
});

test('a bundle that cannot be read is warned about with Node\'s words and ignored; the default roots stay', async () => {
  const missing = join(dir, 'missing.pem');
  const report = await child({ [DEFERRED_ENV]: missing }, true);
  assert.equal(report.https, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  assert.match(report.stderr, /Ignoring extra certs from `.*missing\.pem`, load failed: ENOENT/);
  assert.equal(report.nodeExtra, missing);
  // Read at the first client connection, not for the server before it, and once.
  assert.equal(report.warningsAfterServer, 0);
  assert.equal(report.warnings.length, 1);
});

test('deferExtraCaCerts moves the value aside as an absolute path, and leaves other CA stores alone', () => {
  const moved = deferExtraCaCerts({ NODE_EXTRA_CA_CERTS: 'certs/bundle.pem', PATH: '/bin' });
  assert.deepEqual(moved, { NODE_EXTRA_CA_CERTS: undefined, [DEFERRED_ENV]: resolve('certs/bundle.pem'), PATH: '/bin' });
  for (const env of [{ PATH: '/bin' }, { NODE_EXTRA_CA_CERTS: '' }, { NODE_EXTRA_CA_CERTS: '/b.pem', NODE_OPTIONS: '--max-old-space-size=100 --use-openssl-ca' }, { NODE_EXTRA_CA_CERTS: '/b.pem', NODE_OPTIONS: '--use-system-ca' }]) {
    assert.deepEqual(deferExtraCaCerts(env), env);
  }
});

test('readExtraCertificates: every certificate of a bundle, in order; a file with none or a broken one is refused', () => {
  assert.equal(readExtraCertificates(caFile).length, 2);
  const empty = join(dir, 'empty.pem');
  writeFileSync(empty, '# nothing\n');
  assert.throws(() => readExtraCertificates(empty), /no certificate in it/);
  const broken = join(dir, 'broken.pem');
  writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
  assert.throws(() => readExtraCertificates(broken));
});

test('readExtraCertificates: certificates already known (Node\'s roots) are left out, whatever their line breaks', () => {
  const [first, second] = readExtraCertificates(caFile) as [string, string];
  // The first one as another tool may wrap it: same base64, 76-column lines.
  const rewrapped = first.replace(/\s+/g, '').replace(/^-----BEGINCERTIFICATE-----|-----ENDCERTIFICATE-----$/g, '');
  const known = `-----BEGIN CERTIFICATE-----\n${rewrapped.match(/.{1,76}/g)!.join('\n')}\n-----END CERTIFICATE-----`;
  assert.deepEqual(readExtraCertificates(caFile, [known]), [second]);
  // Only repeats: nothing to add, and not an error (the file had certificates).
  assert.deepEqual(readExtraCertificates(caFile, [first, second]), []);
  // A broken certificate that is not a repeat still makes the file refused.
  const broken = join(dir, 'broken-after-known.pem');
  writeFileSync(broken, `${first}\n-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n`);
  assert.throws(() => readExtraCertificates(broken, [first]));
});

/**
 * The fast path's half: the variable taken back without node:tls (or crypto) loaded, and each
 * client that may make a default-trust connection trusting the bundle first. Each mode is one
 * such client, in a child of its own (the wrap is process-wide).
 */
const TAKEN_BACK_CHILD = `
const modules = (process.env.MODULES ?? '').split(',').filter(Boolean);
const { takeBackExtraCaCerts } = await import(process.env.MODULE);
const before = new Set(process.moduleLoadList);
takeBackExtraCaCerts();
const loaded = ['tls', 'crypto'].filter((m) => process.moduleLoadList.includes('NativeModule ' + m) && !before.has('NativeModule ' + m));
const outcome = async () => {
  switch (process.env.CLIENT) {
    case 'none':
      return 'none';
    case 'https': {
      // Trusted through a second copy of the module (the fast path's bundle took the value back, a
      // tsc-built module it loaded trusts it): the state is the process's, not the copy's.
      const copy = await import(process.env.MODULE + '?copy');
      await copy.ensureExtraCaTrust();
      const https = await import('node:https');
      return new Promise((done) => https.get(process.env.URL, { agent: false }, (res) => { res.resume(); done('ok'); }).on('error', (e) => done(e.code ?? e.message)));
    }
    case 'transport': {
      const { Transport } = await import(process.env.TRANSPORT);
      const t = new Transport(new URL(process.env.URL), {}, { connectTimeoutMs: 5000 });
      try {
        const answer = await t.send({ method: 'GET', path: '/', headers: {}, timeoutMs: 5000 });
        return answer.status === 200 ? 'ok' : 'status ' + answer.status;
      } catch (e) {
        return e.code ?? e.message;
      } finally {
        t.close();
      }
    }
    case 'engine': {
      const { ApiEngine } = await import(process.env.ENGINE);
      const u = new URL(process.env.URL);
      const engine = await ApiEngine.open({ host: u.hostname, port: Number(u.port), protocol: 'https' }, 'docker');
      return engine.ping().then(() => 'ok', (e) => e.message);
    }
    case 'download': {
      const { fetchText } = await import(process.env.DOWNLOAD);
      return fetchText(process.env.URL, { tuning: { retries: 0 } }).then(() => 'ok', (e) => e.message);
    }
  }
};
console.log(JSON.stringify({ nodeExtra: process.env.NODE_EXTRA_CA_CERTS ?? null, deferred: process.env.${DEFERRED_ENV} ?? null, loaded, outcome: await outcome() }));
`;

const SRC = resolve(import.meta.dirname, '..', '..', '..');

async function takenBack(client: string, env: Record<string, string | undefined> = {}): Promise<{ nodeExtra: string | null; deferred: string | null; loaded: string[]; outcome: string }> {
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    NODE_EXTRA_CA_CERTS: undefined,
    [DEFERRED_ENV]: caFile,
    MODULE,
    URL: url,
    CLIENT: client,
    TRANSPORT: join(SRC, 'src', 'kube', 'client', 'transport.ts'),
    ENGINE: join(SRC, 'runtimes', 'container', 'api-engine.ts'),
    DOWNLOAD: join(SRC, 'src', 'artifacts', 'download.ts'),
    ...env,
  };
  return (await runChild<{ nodeExtra: string | null; deferred: string | null; loaded: string[]; outcome: string }>(TAKEN_BACK_CHILD, childEnv)).report;
}

test('taken back without trusting it yet: the variable is back for child processes, and neither node:tls nor crypto is loaded', async () => {
  assert.deepEqual(await takenBack('none'), { nodeExtra: caFile, deferred: null, loaded: [], outcome: 'none' });
});

test('taken back, then ensured by another copy of the module: https trusts the bundle', async () => {
  assert.equal((await takenBack('https')).outcome, 'ok');
});

test('taken back: the kube client without a CA of its own trusts the bundle, as Node would', async () => {
  assert.equal((await takenBack('transport')).outcome, 'ok');
  // What it guards against: without the bundle, the same server is not trusted.
  assert.equal((await takenBack('transport', { [DEFERRED_ENV]: undefined })).outcome, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
});

test('taken back: an engine over TLS (DOCKER_HOST=https://...) trusts the bundle', async () => {
  assert.equal((await takenBack('engine')).outcome, 'ok');
  assert.match((await takenBack('engine', { [DEFERRED_ENV]: undefined })).outcome, /does not answer at https:\/\/127\.0\.0\.1:\d+: .*(verify|certificate)/i);
});

test('taken back: a download trusts the bundle', async () => {
  assert.equal((await takenBack('download')).outcome, 'ok');
  assert.match((await takenBack('download', { [DEFERRED_ENV]: undefined })).outcome, /verify|certificate/i);
});

test('taken back: callers that ensure the trust at the same time all wait until it is in place', async () => {
  const script = `
const { takeBackExtraCaCerts, ensureExtraCaTrust } = await import(process.env.MODULE);
takeBackExtraCaCerts();
const https = await import('node:https');
const get = () => new Promise((done) => https.get(process.env.URL, { agent: false }, (res) => { res.resume(); done('ok'); }).on('error', (e) => done(e.code ?? e.message)));
// The second caller comes while the first is still loading node:tls.
const outcomes = await Promise.all([ensureExtraCaTrust().then(get), ensureExtraCaTrust().then(get)]);
console.log(JSON.stringify(outcomes));
`;
  const { report } = await runChild<string[]>(script, { ...process.env, NODE_EXTRA_CA_CERTS: undefined, [DEFERRED_ENV]: caFile, MODULE, URL: url });
  assert.deepEqual(report, ['ok', 'ok']);
});
