import assert from 'node:assert/strict';
import { Agent as HttpsAgent, createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { before, describe, it } from 'node:test';
import { explicitClientChain } from '../../../../src/kube/client/client-chain.js';
import { generateClusterPki, type ClusterPki } from '../../../../src/pki/index.js';

/** What a server sees of the client's chain: the subjects linked from the leaf by what was sent. */
async function sentChain(pki: ClusterPki, clientCert: Buffer | string): Promise<{ subjects: string[]; authorized: boolean }> {
  // The server has no CA in its own store, so issuer links can only come from what the client sent.
  const server = createServer({ cert: pki.adminCert, key: pki.adminKey, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const socket = req.socket as TLSSocket;
    const subjects: string[] = [];
    let cert: PeerCertificate | undefined = socket.getPeerCertificate(true);
    while (cert?.subject && subjects.length < 5) {
      subjects.push(String(cert.subject.CN));
      const next: PeerCertificate | undefined = (cert as PeerCertificate & { issuerCertificate?: PeerCertificate }).issuerCertificate;
      if (!next || next === cert) break;
      cert = next;
    }
    res.end(JSON.stringify({ subjects }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const agent = new HttpsAgent({ ca: pki.caCert, cert: clientCert, key: pki.adminKey, servername: 'localhost' });
    return await new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/', agent }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ ...(JSON.parse(body) as { subjects: string[] }), authorized: (res.socket as TLSSocket).authorized }));
      });
      req.on('error', reject);
      req.end();
    });
  } finally {
    server.close();
  }
}

/** Whether a server that trusts the cluster CA accepts the client's certificate. */
async function acceptedByVerifyingServer(pki: ClusterPki, clientCert: Buffer): Promise<boolean> {
  const server = createServer({ cert: pki.adminCert, key: pki.adminKey, ca: pki.caCert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    res.end(String((req.socket as TLSSocket).authorized));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const agent = new HttpsAgent({ ca: pki.caCert, cert: clientCert, key: pki.adminKey, servername: 'localhost' });
    return await new Promise((resolve, reject) => {
      request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/', agent }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(body === 'true'));
      })
        .on('error', reject)
        .end();
    });
  } finally {
    server.close();
  }
}

describe('explicitClientChain', () => {
  let pki: ClusterPki;
  before(async () => {
    pki = await generateClusterPki();
  });

  it('a lone leaf: Node on its own sends the CA along (the behaviour this works around)', async () => {
    assert.deepEqual((await sentChain(pki, pki.adminCert)).subjects, ['kwok-admin', 'kwok-ca']);
  });

  it('with the explicit chain the CA is no longer sent', async () => {
    assert.deepEqual((await sentChain(pki, explicitClientChain(Buffer.from(pki.adminCert)))).subjects, ['kwok-admin']);
  });

  it('the server still authenticates the client against its CA', async () => {
    assert.equal(await acceptedByVerifyingServer(pki, explicitClientChain(Buffer.from(pki.adminCert))), true);
  });

  it('repeats a lone leaf once, with or without a trailing newline', () => {
    const leaf = pki.adminCert.trim();
    for (const input of [leaf, `${leaf}\n`]) {
      const out = explicitClientChain(Buffer.from(input)).toString();
      assert.equal(out, `${leaf}\n${leaf}\n`);
    }
  });

  it('leaves a chain the user gave, and non-PEM input, untouched', () => {
    const chain = Buffer.from(pki.adminCert + pki.caCert);
    assert.equal(explicitClientChain(chain), chain);
    const der = Buffer.from([0x30, 0x82, 0x01, 0x00]);
    assert.equal(explicitClientChain(der), der);
  });
});
