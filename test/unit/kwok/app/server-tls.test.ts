/**
 * The controller server's TLS material: the named files, or a certificate made for the process
 * when none is named (HTTPS is always served, as Go kwok serves it), with the callers' CA.
 */
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { serverTls } from '../../../../src/kwok/app/server-tls.js';
import { PreflightError } from '../../../../src/util/errors.js';

const base = { tlsCertFile: '', tlsPrivateKeyFile: '', clientCaFile: '', nodeIP: '10.1.2.3', nodeName: 'kwok-controller' };

test('without a certificate file, a self-signed serving certificate for the names the controller is dialed by', async () => {
  const tls = await serverTls(base, '0.0.0.0');
  const cert = new X509Certificate(tls.cert);
  assert.equal(cert.verify(cert.publicKey), true, 'signed by its own key');
  assert.equal(cert.checkPrivateKey(createPrivateKey(tls.key)), true);
  for (const name of ['DNS:localhost', 'DNS:kwok-controller', 'IP Address:127.0.0.1', 'IP Address:10.1.2.3']) assert.ok(cert.subjectAltName?.includes(name), `${name} in ${cert.subjectAltName}`);
  assert.equal(tls.clientCa, undefined);
  const other = await serverTls(base, '127.0.0.1');
  assert.notEqual(other.key, tls.key, 'a key of its own each time');
});

test('named files are read, and one that cannot be read names its flag', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kwok-server-tls-'));
  try {
    writeFileSync(join(dir, 'tls.crt'), 'CERT');
    writeFileSync(join(dir, 'tls.key'), 'KEY');
    writeFileSync(join(dir, 'ca.crt'), 'CA');
    assert.deepEqual(await serverTls({ ...base, tlsCertFile: join(dir, 'tls.crt'), tlsPrivateKeyFile: join(dir, 'tls.key'), clientCaFile: join(dir, 'ca.crt') }, '127.0.0.1'), { cert: 'CERT', key: 'KEY', clientCa: 'CA' });
    await assert.rejects(serverTls({ ...base, clientCaFile: join(dir, 'missing.crt') }, '127.0.0.1'), (error: Error) => error instanceof PreflightError && /^--client-ca-file: cannot read .*missing\.crt: ENOENT$/.test(error.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
