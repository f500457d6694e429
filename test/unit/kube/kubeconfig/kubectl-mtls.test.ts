/**
 * End to end across src/pki and src/kubeconfig: kubectl (Go TLS, client-go) talks to an
 * HTTPS server that plays the apiserver, using only files and kubeconfigs kwokts produced.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { buildClusterKubeconfig, mergeContext, buildClusterEntry, renderKubeconfig } from '../../../../src/kube/index.js';
import { generateClusterPki, signClientCertificate, type ClusterPki } from '../../../../src/pki/index.js';
import { hasKubectl, scratchDir } from './helpers.js';

const run = promisify(execFile);

describe('kubectl with a kwokts PKI and kubeconfig', { skip: hasKubectl ? false : 'skip: kubectl not on PATH' }, () => {
  const scratch = scratchDir('kwokts-kubectl-mtls-');
  let pki: ClusterPki;
  let server: Server;
  let port: number;

  before(async () => {
    pki = await generateClusterPki();
    server = createServer({ cert: pki.adminCert, key: pki.adminKey, ca: pki.caCert, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ path: req.url, user: peer.subject.CN, groups: peer.subject.O }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    for (const [name, content] of Object.entries({ 'ca.crt': pki.caCert, 'admin.crt': pki.adminCert, 'admin.key': pki.adminKey })) {
      writeFileSync(join(scratch.dir, name), content, { mode: 0o600 });
    }
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    scratch.cleanup();
  });

  const getRaw = async (kubeconfig: string, ...extra: string[]): Promise<unknown> => {
    const { stdout } = await run('kubectl', ['--kubeconfig', kubeconfig, ...extra, 'get', '--raw', '/whoami']);
    return JSON.parse(stdout);
  };

  it('authenticates as kwok-admin/system:masters with file references (kwokctl layout)', async () => {
    const path = join(scratch.dir, 'kubeconfig.yaml');
    const files = { caFile: join(scratch.dir, 'ca.crt'), certFile: join(scratch.dir, 'admin.crt'), keyFile: join(scratch.dir, 'admin.key') };
    writeFileSync(path, renderKubeconfig(buildClusterKubeconfig({ name: 'kwok-demo', server: `https://127.0.0.1:${port}`, ...files })));
    assert.deepEqual(await getRaw(path), { path: '/whoami', user: 'kwok-admin', groups: 'system:masters' });
  });

  it('verifies the server under localhost too', async () => {
    const path = join(scratch.dir, 'localhost.yaml');
    writeFileSync(
      path,
      renderKubeconfig(buildClusterKubeconfig({ name: 'kwok-local', server: `https://localhost:${port}`, caData: pki.caCert, certData: pki.adminCert, keyData: pki.adminKey })),
    );
    assert.deepEqual(await getRaw(path), { path: '/whoami', user: 'kwok-admin', groups: 'system:masters' });
  });

  it('authenticates a signed --user/--group identity with inline data merged into a user kubeconfig', async () => {
    const alice = await signClientCertificate({ cert: pki.caCert, key: pki.caKey }, { user: 'alice', groups: ['dev', 'ops'] });
    const path = join(scratch.dir, 'home', '.kube', 'config');
    await mergeContext(path, buildClusterEntry({ name: 'kwok-alice', server: `https://127.0.0.1:${port}`, caData: pki.caCert, certData: alice.cert, keyData: alice.key }));
    assert.deepEqual(await getRaw(path), { path: '/whoami', user: 'alice', groups: ['dev', 'ops'] });
  });

  it('refuses a server whose certificate is not from the configured CA', async () => {
    const other = await generateClusterPki();
    const path = join(scratch.dir, 'wrong-ca.yaml');
    writeFileSync(
      path,
      renderKubeconfig(buildClusterKubeconfig({ name: 'kwok-x', server: `https://127.0.0.1:${port}`, caData: other.caCert, certData: pki.adminCert, keyData: pki.adminKey })),
    );
    await assert.rejects(getRaw(path), /certificate signed by unknown authority|x509/);
  });
});
