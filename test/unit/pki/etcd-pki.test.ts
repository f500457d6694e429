import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateClusterPki, type ClusterPki } from '../../../src/pki/index.js';
import { certText, mtlsRoundTrip, openssl, scratchDir, writeFiles } from './helpers.js';

const NOW = new Date('2026-03-04T05:06:07.890Z');

describe("etcd's PKI and Prometheus' certificate", () => {
  let pki: ClusterPki;
  let files: Record<string, string>;
  const scratch = scratchDir('kwokts-etcd-pki-');

  before(async () => {
    pki = await generateClusterPki({ now: NOW, etcdDnsSans: ['kwok-demo-etcd'] });
    files = writeFiles(scratch.dir, {
      'ca.crt': pki.caCert,
      'etcd-ca.crt': pki.etcd.caCert,
      'server.crt': pki.etcd.serverCert,
      'peer.crt': pki.etcd.peerCert,
      'healthcheck-client.crt': pki.etcd.healthcheckClientCert,
      'apiserver-etcd-client.crt': pki.etcd.apiserverClientCert,
      'admin.crt': pki.adminCert,
      'prometheus.crt': pki.prometheusCert,
    });
  });
  after(() => scratch.cleanup());

  it('etcd has a CA of its own (kubeadm: etcd-ca); all its leaves chain to it and not to the cluster CA', () => {
    assert.match(certText(pki.etcd.caCert), /Subject: CN=etcd-ca\n/);
    assert.notEqual(pki.etcd.caCert, pki.caCert);
    for (const leaf of ['server.crt', 'peer.crt', 'healthcheck-client.crt', 'apiserver-etcd-client.crt']) {
      assert.equal(openssl(['verify', '-x509_strict', '-CAfile', files['etcd-ca.crt']!, files[leaf]!]).trim(), `${files[leaf]}: OK`);
      assert.throws(() => openssl(['verify', '-CAfile', files['ca.crt']!, files[leaf]!]), leaf);
    }
    // The other way round: nothing the cluster CA signs (admin, Prometheus, `get kubeconfig --user`) is an etcd client.
    for (const leaf of ['admin.crt', 'prometheus.crt']) assert.throws(() => openssl(['verify', '-CAfile', files['etcd-ca.crt']!, files[leaf]!]), leaf);
  });

  it('server and peer certificates serve (and authenticate) as loopback and the container name; clients only authenticate', () => {
    for (const [pem, cn] of [[pki.etcd.serverCert, 'kube-etcd'], [pki.etcd.peerCert, 'kube-etcd-peer']] as const) {
      const text = certText(pem);
      assert.match(text, new RegExp(`Subject: CN=${cn}\\n`));
      assert.match(text, /TLS Web Server Authentication, TLS Web Client Authentication/);
      assert.equal(/X509v3 Subject Alternative Name: \n\s+(.+)\n/.exec(text)?.[1], 'DNS:localhost, DNS:kwok-demo-etcd, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    }
    for (const [pem, cn] of [[pki.etcd.healthcheckClientCert, 'kube-etcd-healthcheck-client'], [pki.etcd.apiserverClientCert, 'kube-apiserver-etcd-client']] as const) {
      const text = certText(pem);
      assert.match(text, new RegExp(`Subject: CN=${cn}\\n`));
      assert.match(text, /X509v3 Extended Key Usage: \n\s+TLS Web Client Authentication\n/);
      assert.doesNotMatch(text, /Subject Alternative Name/);
    }
  });

  it('a TLS handshake with etcd\'s client certificate succeeds against the etcd server certificate; the admin certificate is refused', async () => {
    const server = { cert: pki.etcd.serverCert, key: pki.etcd.serverKey, ca: pki.etcd.caCert };
    const peer = await mtlsRoundTrip(server, { cert: pki.etcd.apiserverClientCert, key: pki.etcd.apiserverClientKey, ca: pki.etcd.caCert, servername: 'kwok-demo-etcd' });
    assert.equal(peer.CN, 'kube-apiserver-etcd-client');
    await assert.rejects(mtlsRoundTrip(server, { cert: pki.adminCert, key: pki.adminKey, ca: pki.etcd.caCert }));
  });

  it('Prometheus is kwok-prometheus in system:monitoring, a client signed by the cluster CA', () => {
    const text = certText(pki.prometheusCert);
    assert.match(text, /Subject: CN=kwok-prometheus,O=system:monitoring\n/);
    assert.match(text, /X509v3 Extended Key Usage: \n\s+TLS Web Client Authentication\n/);
    assert.equal(openssl(['verify', '-x509_strict', '-CAfile', files['ca.crt']!, files['prometheus.crt']!]).trim(), `${files['prometheus.crt']}: OK`);
  });

  it('without RBAC, Prometheus\' certificate also carries system:masters (the group kcm and the scheduler then allow)', async () => {
    const open = await generateClusterPki({ now: NOW, withoutRbac: true });
    assert.match(certText(open.prometheusCert), /Subject: CN=kwok-prometheus,O=system:masters,O=system:monitoring\n|Subject: CN=kwok-prometheus,O=system:monitoring,O=system:masters\n/);
  });

  it('keys are SEC1 EC keys like the rest of the PKI', () => {
    for (const key of [pki.etcd.serverKey, pki.etcd.peerKey, pki.etcd.healthcheckClientKey, pki.etcd.apiserverClientKey, pki.prometheusKey]) {
      assert.match(key, /^-----BEGIN EC PRIVATE KEY-----\n/);
    }
  });
});
