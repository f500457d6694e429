import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, sign, verify, X509Certificate } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { generateClusterPki, type ClusterPki } from '../../../src/pki/index.js';
import { UsageError } from '../../../src/util/errors.js';
import { certText, mtlsRoundTrip, openssl, scratchDir, writeFiles } from './helpers.js';

const NOW = new Date('2026-03-04T05:06:07.890Z');
const DAY = 24 * 60 * 60 * 1000;

describe('generateClusterPki (ECDSA P-256, the default)', () => {
  let pki: ClusterPki;
  let files: Record<string, string>;
  const scratch = scratchDir('kwokts-pki-');

  before(async () => {
    pki = await generateClusterPki({ now: NOW, sans: { dns: ['kwok-demo-kube-apiserver', 'localhost'], ips: ['10.1.2.3', '0:0:0:0:0:0:0:1'] } });
    files = writeFiles(scratch.dir, {
      'ca.crt': pki.caCert,
      'ca.key': pki.caKey,
      'admin.crt': pki.adminCert,
      'admin.key': pki.adminKey,
      'sa.key': pki.serviceAccountKey,
      'sa.pub': pki.serviceAccountPub,
      'front-proxy-ca.crt': pki.frontProxy.caCert,
      'front-proxy-client.crt': pki.frontProxy.clientCert,
    });
  });
  after(() => scratch.cleanup());

  it('returns PEM in the encodings Kubernetes reads everywhere', () => {
    assert.match(pki.caCert, /^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n$/);
    assert.match(pki.adminCert, /^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n$/);
    // SEC1, not PKCS#8: keyutil.ParsePublicKeysPEM (--service-account-key-file) only reads EC keys as SEC1.
    for (const key of [pki.caKey, pki.adminKey, pki.serviceAccountKey]) assert.match(key, /^-----BEGIN EC PRIVATE KEY-----\n/);
    assert.match(pki.serviceAccountPub, /^-----BEGIN PUBLIC KEY-----\n[\s\S]+-----END PUBLIC KEY-----\n$/);
    assert.equal(createPrivateKey(pki.adminKey).asymmetricKeyDetails?.namedCurve, 'prime256v1');
  });

  it('chains the leaf to the CA (openssl verify -x509_strict)', () => {
    assert.equal(openssl(['verify', '-x509_strict', '-CAfile', files['ca.crt'] as string, files['admin.crt'] as string]).trim(), `${files['admin.crt']}: OK`);
    assert.equal(openssl(['verify', '-x509_strict', '-CAfile', files['ca.crt'] as string, files['ca.crt'] as string]).trim(), `${files['ca.crt']}: OK`);
  });

  it('makes a self-signed CA named kwok-ca that can only sign', () => {
    const text = certText(pki.caCert);
    assert.match(text, /Issuer: CN=kwok-ca\n/);
    assert.match(text, /Subject: CN=kwok-ca\n/);
    assert.match(text, /X509v3 Basic Constraints: critical\n\s+CA:TRUE\n/);
    assert.match(text, /X509v3 Key Usage: critical\n\s+Certificate Sign, CRL Sign\n/);
    assert.doesNotMatch(text, /Extended Key Usage/);
    assert.match(text, /Signature Algorithm: ecdsa-with-SHA256/);
  });

  it('makes the shared leaf exactly like kwokctl: identity, usages and SANs', () => {
    const text = certText(pki.adminCert);
    assert.match(text, /Subject: CN=kwok-admin,O=system:masters\n/);
    assert.match(text, /Issuer: CN=kwok-ca\n/);
    assert.match(text, /X509v3 Basic Constraints: critical\n\s+CA:FALSE\n/);
    assert.match(text, /X509v3 Key Usage: critical\n\s+Digital Signature, Key Encipherment\n/);
    assert.match(text, /X509v3 Extended Key Usage: \n\s+TLS Web Server Authentication, TLS Web Client Authentication\n/);
    const san = /X509v3 Subject Alternative Name: \n\s+(.+)\n/.exec(text)?.[1];
    assert.equal(
      san,
      [
        'DNS:kubernetes',
        'DNS:kubernetes.default',
        'DNS:kubernetes.default.svc',
        'DNS:kubernetes.default.svc.cluster.local',
        'DNS:localhost',
        'DNS:kwok-demo-kube-apiserver',
        'IP Address:127.0.0.1',
        'IP Address:0:0:0:0:0:0:0:1',
        'IP Address:10.1.2.3',
      ].join(', '),
      'defaults first, then extras, duplicates (localhost, ::1 spelled long) once',
    );
  });

  it('is valid from now-24h for 100 x 365 days, with UTCTime before 2050 and GeneralizedTime after', () => {
    for (const pem of [pki.caCert, pki.adminCert]) {
      const cert = new X509Certificate(pem);
      const notBefore = new Date(cert.validFrom).getTime();
      const notAfter = new Date(cert.validTo).getTime();
      assert.equal(notBefore, Math.floor((NOW.getTime() - DAY) / 1000) * 1000);
      assert.equal(notAfter, Math.floor((NOW.getTime() + 36500 * DAY) / 1000) * 1000);
      assert.equal(new Date(notAfter).getUTCFullYear() - new Date(notBefore).getUTCFullYear(), 100);
      assert.match(openssl(['x509', '-noout', '-dates'], pem), /notBefore=Mar  3 05:06:07 2026 GMT\nnotAfter=Feb  8 05:06:07 2126 GMT/);
      const asn1 = openssl(['asn1parse'], pem);
      assert.match(asn1, /UTCTIME\s+:260303050607Z/);
      assert.match(asn1, /GENERALIZEDTIME\s+:21260208050607Z/);
      // Still valid 99 years from now: nothing truncated the GeneralizedTime.
      assert.match(openssl(['x509', '-noout', '-checkend', String(99 * 365 * 24 * 3600)], pem), /will not expire/);
    }
  });

  it('gives the service account its own key pair whose halves match', () => {
    const derivedPub = createPublicKey(createPrivateKey(pki.serviceAccountKey)).export({ type: 'spki', format: 'pem' });
    assert.equal(derivedPub, pki.serviceAccountPub);
    const token = Buffer.from('header.payload');
    const signature = sign('sha256', token, { key: pki.serviceAccountKey, dsaEncoding: 'ieee-p1363' });
    assert.ok(verify('sha256', token, { key: pki.serviceAccountPub, dsaEncoding: 'ieee-p1363' }, signature), 'ES256 as the apiserver signs tokens');
    const adminPub = createPublicKey(pki.adminKey).export({ type: 'spki', format: 'pem' });
    assert.notEqual(adminPub, pki.serviceAccountPub);
    assert.equal(new X509Certificate(pki.adminCert).checkPrivateKey(createPrivateKey(pki.adminKey)), true);
    assert.equal(new X509Certificate(pki.caCert).checkPrivateKey(createPrivateKey(pki.caKey)), true);
  });

  it('serves and authenticates over mTLS with the one leaf on both ends', async () => {
    const peer = await mtlsRoundTrip(
      { cert: pki.adminCert, key: pki.adminKey, ca: pki.caCert },
      { cert: pki.adminCert, key: pki.adminKey, ca: pki.caCert },
    );
    assert.deepEqual(peer, { CN: 'kwok-admin', O: 'system:masters' });
  });

  it('is accepted under every default DNS name and rejected under others', async () => {
    const both = { cert: pki.adminCert, key: pki.adminKey, ca: pki.caCert };
    for (const servername of ['localhost', 'kubernetes.default.svc', 'kwok-demo-kube-apiserver']) {
      assert.equal((await mtlsRoundTrip(both, { ...both, servername })).CN, 'kwok-admin', servername);
    }
    await assert.rejects(mtlsRoundTrip(both, { ...both, servername: 'not-a-san.example' }), /ERR_TLS_CERT_ALTNAME_INVALID|altnames/);
  });

  it('gives the aggregation layer a CA of its own whose client chains to it and not to the cluster CA', () => {
    const client = certText(pki.frontProxy.clientCert);
    assert.match(client, /Subject: CN=front-proxy-client\n/);
    assert.match(client, /Issuer: CN=front-proxy-ca\n/);
    assert.match(client, /X509v3 Extended Key Usage: \n\s+TLS Web Client Authentication\n/);
    assert.equal(new X509Certificate(pki.frontProxy.clientCert).checkPrivateKey(createPrivateKey(pki.frontProxy.clientKey)), true);
    assert.equal(openssl(['verify', '-x509_strict', '-CAfile', files['front-proxy-ca.crt'] as string, files['front-proxy-client.crt'] as string]).trim(), `${files['front-proxy-client.crt']}: OK`);
    // The admin certificate must not verify against the request-header CA: that is the point of a separate CA.
    assert.throws(() => openssl(['verify', '-CAfile', files['front-proxy-ca.crt'] as string, files['admin.crt'] as string]));
    assert.notEqual(new X509Certificate(pki.frontProxy.caCert).fingerprint256, new X509Certificate(pki.caCert).fingerprint256);
  });

  it('refuses a client certificate from another CA', async () => {
    const other = await generateClusterPki({ now: NOW });
    await assert.rejects(
      mtlsRoundTrip({ cert: pki.adminCert, key: pki.adminKey, ca: pki.caCert }, { cert: other.adminCert, key: other.adminKey, ca: pki.caCert }),
    );
  });
});

describe('generateClusterPki options', () => {
  it('rejects SANs in the wrong list with a UsageError', async () => {
    await assert.rejects(generateClusterPki({ sans: { dns: [], ips: ['kube.local'] } }), UsageError);
    await assert.rejects(generateClusterPki({ sans: { dns: ['10.0.0.1 '], ips: [] } }), UsageError);
    await assert.rejects(generateClusterPki({ sans: { dns: ['has space'], ips: [] } }), UsageError);
  });

  it('makes RSA-2048 with PKCS#1 keys, like kwokctl, when asked', async () => {
    const pki = await generateClusterPki({ keyAlgorithm: 'rsa-2048' });
    assert.match(pki.caKey, /^-----BEGIN RSA PRIVATE KEY-----\n/);
    assert.match(pki.adminKey, /^-----BEGIN RSA PRIVATE KEY-----\n/);
    assert.match(pki.serviceAccountKey, /^-----BEGIN RSA PRIVATE KEY-----\n/);
    assert.equal(createPrivateKey(pki.adminKey).asymmetricKeyDetails?.modulusLength, 2048);
    assert.match(certText(pki.adminCert), /Signature Algorithm: sha256WithRSAEncryption/);
    const scratch = scratchDir('kwokts-pki-rsa-');
    try {
      const files = writeFiles(scratch.dir, { 'ca.crt': pki.caCert, 'admin.crt': pki.adminCert });
      assert.match(openssl(['verify', '-x509_strict', '-CAfile', files['ca.crt'] as string, files['admin.crt'] as string]), /: OK/);
    } finally {
      scratch.cleanup();
    }
    const peer = await mtlsRoundTrip({ cert: pki.adminCert, key: pki.adminKey, ca: pki.caCert }, { cert: pki.adminCert, key: pki.adminKey, ca: pki.caCert });
    assert.equal(peer.CN, 'kwok-admin');
  });
});
