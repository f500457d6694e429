import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRestConfig, restConfigFromText } from '../../../../src/kube/kubeconfig/rest-config.js';
import { readCredentials } from '../../../../src/kube/client/credentials.js';

const dir = mkdtempSync(join(tmpdir(), 'kwokts-restconfig-'));
mkdirSync(join(dir, 'certs'));
writeFileSync(join(dir, 'certs', 'ca.pem'), 'CA FROM FILE');
writeFileSync(join(dir, 'certs', 'client.pem'), 'CERT FROM FILE');
writeFileSync(join(dir, 'token'), 'file-token\n');

const KUBECONFIG = `apiVersion: v1
kind: Config
current-context: main
clusters:
- name: c1
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority: certs/ca.pem
    tls-server-name: api.internal
- name: c2
  cluster:
    server: https://other:443
    certificate-authority-data: ${Buffer.from('CA FROM DATA').toString('base64')}
    certificate-authority: certs/missing.pem
    insecure-skip-tls-verify: true
contexts:
- name: main
  context: {cluster: c1, user: files}
- name: second
  context: {cluster: c2, user: tokenfile}
- name: broken
  context: {cluster: nowhere, user: files}
users:
- name: files
  user:
    client-certificate: certs/client.pem
    client-key-data: ${Buffer.from('KEY FROM DATA').toString('base64')}
- name: tokenfile
  user:
    tokenFile: token
`;
const file = join(dir, 'kubeconfig');
writeFileSync(file, KUBECONFIG);

test('the current context: server, CA and client cert from paths relative to the file, data fields as bytes', () => {
  const config = readRestConfig(file);
  assert.equal(config.server.href, 'https://127.0.0.1:6443/');
  assert.equal(config.tls.ca?.toString(), 'CA FROM FILE');
  assert.equal(config.tls.cert?.toString(), 'CERT FROM FILE');
  assert.equal(config.tls.key?.toString(), 'KEY FROM DATA');
  assert.equal(config.tls.servername, 'api.internal');
  assert.equal(config.tls.rejectUnauthorized, undefined);
  assert.deepEqual(config.credentials, { kind: 'none' });
});

test('a named context; -data wins over a file path; insecure-skip-tls-verify; token file re-read and trimmed', async () => {
  const config = readRestConfig(file, 'second');
  assert.equal(config.tls.ca?.toString(), 'CA FROM DATA');
  assert.equal(config.tls.rejectUnauthorized, false);
  assert.deepEqual(config.credentials, { kind: 'token-file', path: join(dir, 'token') });
  assert.deepEqual((await readCredentials(config.credentials)).headers, { Authorization: 'Bearer file-token' });
  writeFileSync(join(dir, 'token'), 'rotated\n');
  assert.deepEqual((await readCredentials(config.credentials)).headers, { Authorization: 'Bearer rotated' });
});

test('errors name the file and what is missing', () => {
  assert.throws(() => readRestConfig(file, 'nope'), /kubeconfig .*kubeconfig: has no context "nope"/);
  assert.throws(() => readRestConfig(file, 'broken'), /names cluster "nowhere", which is not in the file/);
  assert.throws(() => restConfigFromText('kind: Config\n', 'x.yaml'), /x.yaml: has no current-context/);
  assert.throws(() => readRestConfig(join(dir, 'absent')), /kubeconfig .*absent: ENOENT/);
});

test('static token and basic auth become headers', async () => {
  const text = (user: string) => `current-context: a\ncontexts: [{name: a, context: {cluster: a, user: u}}]\nclusters: [{name: a, cluster: {server: "http://127.0.0.1:8080"}}]\nusers: [{name: u, user: ${user}}]\n`;
  assert.deepEqual((await readCredentials(restConfigFromText(text('{token: abc}'), 'k').credentials)).headers, { Authorization: 'Bearer abc' });
  assert.deepEqual((await readCredentials(restConfigFromText(text('{username: me, password: pw}'), 'k').credentials)).headers, { Authorization: `Basic ${Buffer.from('me:pw').toString('base64')}` });
});

test('an exec plugin: its token, client certificate and expiry; a failing plugin is an error with its stderr', async () => {
  const plugin = join(dir, 'plugin.sh');
  writeFileSync(plugin, `#!/bin/sh\necho "$KUBERNETES_EXEC_INFO" > ${join(dir, 'exec-info')}\nprintf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"exec-%s","clientCertificateData":"PEM","expirationTimestamp":"2030-01-01T00:00:00Z"}}' "$1"\n`);
  chmodSync(plugin, 0o755);
  const text = `current-context: a\ncontexts: [{name: a, context: {cluster: a, user: u}}]\nclusters: [{name: a, cluster: {server: "https://x"}}]\nusers: [{name: u, user: {exec: {command: ./plugin.sh, args: [one], apiVersion: client.authentication.k8s.io/v1}}}]\n`;
  const answer = await readCredentials(restConfigFromText(text, join(dir, 'exec-kubeconfig')).credentials);
  assert.deepEqual(answer.headers, { Authorization: 'Bearer exec-one' });
  assert.equal(answer.cert?.toString(), 'PEM');
  assert.equal(answer.expiresAt, Date.parse('2030-01-01T00:00:00Z'));
  const failing = join(dir, 'fail.sh');
  writeFileSync(failing, '#!/bin/sh\necho "no login" >&2\nexit 3\n');
  chmodSync(failing, 0o755);
  await assert.rejects(readCredentials({ kind: 'exec', plugin: { command: failing, args: [], env: [], apiVersion: 'v1', dir } }), /failed \(exit 3\): no login/);
});
