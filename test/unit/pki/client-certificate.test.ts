import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generateClusterPki, signClientCertificate, type ClusterPki } from '../../../src/pki/index.js';
import { OperationError, UsageError } from '../../../src/util/errors.js';
import { certText, mtlsRoundTrip, openssl, scratchDir, writeFiles } from './helpers.js';

describe('signClientCertificate', () => {
  let pki: ClusterPki;
  const scratch = scratchDir('kwokts-client-cert-');
  before(async () => {
    pki = await generateClusterPki();
  });
  after(() => scratch.cleanup());

  const verifyWith = (caPem: string, certPem: string, strict = true): string => {
    const files = writeFiles(scratch.dir, { 'verify-ca.crt': caPem, 'verify-leaf.crt': certPem });
    const args = ['verify', ...(strict ? ['-x509_strict'] : []), '-purpose', 'sslclient'];
    return openssl([...args, '-CAfile', files['verify-ca.crt'] as string, files['verify-leaf.crt'] as string]).trim();
  };

  it('issues a client-only certificate: user as CN, one O per group, no SANs', async () => {
    const signed = await signClientCertificate({ cert: pki.caCert, key: pki.caKey }, { user: 'alice', groups: ['dev', 'ops'] });
    assert.match(signed.key, /^-----BEGIN EC PRIVATE KEY-----\n/);
    assert.match(verifyWith(pki.caCert, signed.cert), /: OK$/);
    const text = certText(signed.cert);
    assert.match(text, /Subject: CN=alice,O=ops,O=dev\n/);
    assert.match(text, /X509v3 Extended Key Usage: \n\s+TLS Web Client Authentication\n/);
    assert.match(text, /X509v3 Key Usage: critical\n\s+Digital Signature, Key Encipherment\n/);
    assert.doesNotMatch(text, /Subject Alternative Name/);
    // Client-only: it must not be usable to impersonate the apiserver.
    const files = writeFiles(scratch.dir, { 'ca.crt': pki.caCert, 'alice.crt': signed.cert });
    assert.throws(() => openssl(['verify', '-purpose', 'sslserver', '-CAfile', files['ca.crt'] as string, files['alice.crt'] as string]));
  });

  it('authenticates as that user and those groups over mTLS', async () => {
    const signed = await signClientCertificate({ cert: pki.caCert, key: pki.caKey }, { user: 'alice', groups: ['dev', 'ops'] });
    const peer = await mtlsRoundTrip({ cert: pki.adminCert, key: pki.adminKey, ca: pki.caCert }, { ...signed, ca: pki.caCert });
    assert.deepEqual(peer, { CN: 'alice', O: ['dev', 'ops'] });
  });

  it('keeps user and group names that are not PrintableString intact', async () => {
    const user = 'system:serviceaccount:default:büro@example.com';
    const signed = await signClientCertificate({ cert: pki.caCert, key: pki.caKey }, { user, groups: ['system:authenticated', 'a,b+c'] });
    const peer = await mtlsRoundTrip({ cert: pki.adminCert, key: pki.adminKey, ca: pki.caCert }, { ...signed, ca: pki.caCert });
    assert.deepEqual(peer, { CN: user, O: ['system:authenticated', 'a,b+c'] });
  });

  it('accepts no groups', async () => {
    const signed = await signClientCertificate({ cert: pki.caCert, key: pki.caKey }, { user: 'bob', groups: [] });
    assert.match(certText(signed.cert), /Subject: CN=bob\n/);
  });

  it('signs with a kwokctl-style RSA CA (PKCS#1 key, no key identifiers)', async () => {
    const dir = scratch.dir;
    openssl([
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'rsa-ca.p8'), '-out', join(dir, 'rsa-ca.crt'),
      '-subj', '/CN=kwok-ca', '-days', '36500', '-addext', 'basicConstraints=critical,CA:TRUE',
      '-addext', 'subjectKeyIdentifier=none', '-addext', 'authorityKeyIdentifier=none',
    ]);
    openssl(['rsa', '-in', join(dir, 'rsa-ca.p8'), '-traditional', '-out', join(dir, 'rsa-ca.key')]);
    const ca = { cert: readFileSync(join(dir, 'rsa-ca.crt'), 'utf8'), key: readFileSync(join(dir, 'rsa-ca.key'), 'utf8') };
    assert.match(ca.key, /^-----BEGIN RSA PRIVATE KEY-----/);
    const signed = await signClientCertificate(ca, { user: 'carol', groups: ['system:masters'] });
    // Not -x509_strict: this CA itself lacks the key identifiers strict mode demands.
    assert.match(verifyWith(ca.cert, signed.cert, false), /: OK$/);
    const text = certText(signed.cert);
    assert.match(text, /Signature Algorithm: sha256WithRSAEncryption/);
    assert.match(text, /X509v3 Authority Key Identifier: \n\s+[0-9A-F:]{59}\n/, 'computed from the CA key when the CA has no SKI');
  });

  it('refuses a mismatched key, a non-CA certificate, garbage and an empty user', async () => {
    const other = await generateClusterPki();
    await assert.rejects(signClientCertificate({ cert: pki.caCert, key: other.caKey }, { user: 'x', groups: [] }), OperationError);
    await assert.rejects(signClientCertificate({ cert: pki.adminCert, key: pki.adminKey }, { user: 'x', groups: [] }), OperationError);
    await assert.rejects(signClientCertificate({ cert: 'not a pem', key: pki.caKey }, { user: 'x', groups: [] }), OperationError);
    await assert.rejects(signClientCertificate({ cert: pki.caCert, key: 'not a pem' }, { user: 'x', groups: [] }), OperationError);
    await assert.rejects(signClientCertificate({ cert: pki.caCert, key: pki.caKey }, { user: ' ', groups: [] }), UsageError);
  });
});
