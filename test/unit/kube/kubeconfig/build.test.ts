import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { buildClusterEntry, buildClusterKubeconfig, renderKubeconfig } from '../../../../src/kube/index.js';
import { UsageError } from '../../../../src/util/errors.js';
import { hasKubectl, kubectl, scratchDir } from './helpers.js';

describe('buildClusterKubeconfig / renderKubeconfig', () => {
  it('renders a secure cluster like kwokctl (file paths, current context, clientcmd key order)', () => {
    const text = renderKubeconfig(
      buildClusterKubeconfig({
        name: 'kwok-demo',
        server: 'https://127.0.0.1:32766',
        caFile: '/w/pki/ca.crt',
        certFile: '/w/pki/admin.crt',
        keyFile: '/w/pki/admin.key',
      }),
    );
    assert.equal(
      text,
      [
        'apiVersion: v1',
        'clusters:',
        '- cluster:',
        '    certificate-authority: /w/pki/ca.crt',
        '    server: https://127.0.0.1:32766',
        '  name: kwok-demo',
        'contexts:',
        '- context:',
        '    cluster: kwok-demo',
        '    user: kwok-demo',
        '  name: kwok-demo',
        'current-context: kwok-demo',
        'kind: Config',
        'preferences: {}',
        'users:',
        '- name: kwok-demo',
        '  user:',
        '    client-certificate: /w/pki/admin.crt',
        '    client-key: /w/pki/admin.key',
        '',
      ].join('\n'),
    );
  });

  it('renders an insecure (http) cluster without a user', () => {
    const config = buildClusterKubeconfig({ name: 'kwok-plain', server: 'http://127.0.0.1:8080' });
    assert.deepEqual(config.contexts, [{ context: { cluster: 'kwok-plain' }, name: 'kwok-plain' }]);
    assert.deepEqual(config.users, []);
    assert.match(renderKubeconfig(config), /\nusers: \[\]\n$/);
  });

  it('base64-encodes inline PEM data and can skip verification', () => {
    const config = buildClusterKubeconfig({
      name: 'kwok-inline',
      server: 'https://127.0.0.1:1',
      certData: '-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----\n',
      keyData: 'KEY',
      insecureSkipTlsVerify: true,
    });
    assert.deepEqual(config.clusters[0]?.cluster, { 'insecure-skip-tls-verify': true, server: 'https://127.0.0.1:1' });
    assert.equal(Buffer.from(config.users[0]?.user['client-key-data'] ?? '', 'base64').toString(), 'KEY');
    assert.match(
      Buffer.from(config.users[0]?.user['client-certificate-data'] ?? '', 'base64').toString(),
      /^-----BEGIN CERTIFICATE-----\nabc\n/,
    );
  });

  it('quotes names that Go (YAML 1.1) would read as something other than a string', () => {
    const text = renderKubeconfig(buildClusterKubeconfig({ name: 'on', server: 'http://127.0.0.1:1' }));
    assert.match(text, /\n  name: "on"\n/);
    assert.match(text, /\ncurrent-context: "on"\n/);
    assert.equal(parse(text, { version: '1.1' })['current-context'], 'on');
    const numeric = renderKubeconfig(buildClusterKubeconfig({ name: '0755', server: 'http://127.0.0.1:1' }));
    assert.match(numeric, /\ncurrent-context: "0755"\n/);
  });

  it('refuses combinations kubectl would refuse', () => {
    const base = { name: 'kwok-x', server: 'https://127.0.0.1:1' };
    assert.throws(() => buildClusterEntry({ ...base, caFile: 'a', caData: 'b' }), UsageError);
    assert.throws(() => buildClusterEntry({ ...base, caFile: 'a', insecureSkipTlsVerify: true }), UsageError);
    assert.throws(() => buildClusterEntry({ ...base, certFile: 'a' }), UsageError);
    assert.throws(() => buildClusterEntry({ ...base, keyData: 'a' }), UsageError);
    assert.throws(() => buildClusterEntry({ ...base, server: '127.0.0.1:1' }), UsageError);
    assert.throws(() => buildClusterEntry({ ...base, server: 'not a url' }), UsageError);
    assert.throws(() => buildClusterEntry({ ...base, name: '' }), UsageError);
  });

  it('is read back by kubectl', { skip: hasKubectl ? false : 'skip: kubectl not on PATH' }, () => {
    const scratch = scratchDir();
    try {
      const path = join(scratch.dir, 'config');
      writeFileSync(path, renderKubeconfig(buildClusterKubeconfig({ name: 'on', server: 'https://127.0.0.1:1', caFile: '/ca', certFile: '/c', keyFile: '/k' })));
      assert.equal(kubectl(path, 'config', 'current-context').trim(), 'on');
      const view = JSON.parse(kubectl(path, 'config', 'view', '-o', 'json')) as { users: { name: string; user: Record<string, string> }[] };
      assert.deepEqual(view.users, [{ name: 'on', user: { 'client-certificate': '/c', 'client-key': '/k' } }]);
    } finally {
      scratch.cleanup();
    }
  });
});
