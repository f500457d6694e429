import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildPortableKubeconfig, checkHostOverride, replaceHost } from '../../../../src/kube/kubeconfig/portable.js';
import { UsageError } from '../../../../src/util/errors.js';
import { renderKubeconfig } from '../../../../src/kube/index.js';

// A cluster kubeconfig as create writes it: file references, plus an unrelated second context.
const CLUSTER_KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- cluster:
    certificate-authority: /w/pki/ca.crt
    server: https://127.0.0.1:32766
  name: kwok-demo
- cluster:
    server: https://other:1
  name: other
contexts:
- context:
    cluster: kwok-demo
    user: kwok-demo
  name: kwok-demo
- context:
    cluster: other
  name: other
current-context: kwok-demo
users:
- name: kwok-demo
  user:
    client-certificate: pki/admin.crt
    client-key: pki/admin.key
`;

const FILES: Record<string, string> = { '/w/pki/ca.crt': 'CA PEM\n', '/w/pki/admin.crt': 'CERT PEM\n', '/w/pki/admin.key': 'KEY PEM\n' };
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const base = { baseDir: '/w', readFile: async (p: string) => FILES[p] ?? assert.fail(`unexpected read ${p}`), host: '', insecureSkipTlsVerify: false };

test('the current context only, every file embedded as data, no path left', async () => {
  const config = await buildPortableKubeconfig(CLUSTER_KUBECONFIG, base);
  assert.deepEqual(config.clusters, [{ name: 'kwok-demo', cluster: { 'certificate-authority-data': b64('CA PEM\n'), server: 'https://127.0.0.1:32766' } }]);
  assert.deepEqual(config.users, [{ name: 'kwok-demo', user: { 'client-certificate-data': b64('CERT PEM\n'), 'client-key-data': b64('KEY PEM\n') } }]);
  assert.deepEqual(config.contexts, [{ name: 'kwok-demo', context: { cluster: 'kwok-demo', user: 'kwok-demo' } }]);
  const text = renderKubeconfig(config);
  assert.doesNotMatch(text, /\/w\/|pki\/|other/);
});

test('--insecure-skip-tls-verify drops the CA (kubectl refuses both together)', async () => {
  const config = await buildPortableKubeconfig(CLUSTER_KUBECONFIG, { ...base, insecureSkipTlsVerify: true });
  assert.deepEqual(config.clusters[0]!.cluster, { 'insecure-skip-tls-verify': true, server: 'https://127.0.0.1:32766' });
});

test('--user/--group: the given certificate replaces the file one', async () => {
  const config = await buildPortableKubeconfig(CLUSTER_KUBECONFIG, { ...base, client: { cert: 'NEW CERT', key: 'NEW KEY' } });
  assert.deepEqual(config.users[0]!.user, { 'client-certificate-data': b64('NEW CERT'), 'client-key-data': b64('NEW KEY') });
});

test('--host: refuses (exit 2, one line naming --host) what is not a host name or IP, or a port outside 1-65535', () => {
  for (const [address, message] of [
    ['bad host:99999', /^--host: "bad host:99999": "bad host" is not a host name or IP address$/],
    ['127.0.0.1:99999', /^--host: "127\.0\.0\.1:99999": port 99999 is not in 1-65535$/],
    ['127.0.0.1:0', /port 0 is not in 1-65535/],
    ['https://example.com', /is a URL, not host\[:port\]/],
    ['host/path', /not a host name/],
  ] as const) {
    for (const check of [() => checkHostOverride(address), () => replaceHost('https://127.0.0.1:32766', address)]) {
      assert.throws(check, (e: unknown) => e instanceof UsageError && e.exitCode === 2 && message.test(e.message), address);
    }
  }
});

test('--host: a host keeps the port, host:port replaces both, IPv6 gets brackets', async () => {
  assert.equal(replaceHost('https://127.0.0.1:32766', '10.0.0.5'), 'https://10.0.0.5:32766');
  assert.equal(replaceHost('https://127.0.0.1:32766', 'example.com:6443'), 'https://example.com:6443');
  assert.equal(replaceHost('https://127.0.0.1:32766', '::1'), 'https://[::1]:32766');
  assert.equal(replaceHost('https://127.0.0.1:32766', '[::1]:443'), 'https://[::1]:443');
  const config = await buildPortableKubeconfig(CLUSTER_KUBECONFIG, { ...base, host: 'localhost' });
  assert.equal(config.clusters[0]!.cluster.server, 'https://localhost:32766');
});

test('data already in the file is kept as it is', async () => {
  const text = CLUSTER_KUBECONFIG.replace('certificate-authority: /w/pki/ca.crt', `certificate-authority-data: ${b64('INLINE')}`);
  const config = await buildPortableKubeconfig(text, base);
  assert.equal(config.clusters[0]!.cluster['certificate-authority-data'], b64('INLINE'));
});
