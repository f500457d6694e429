import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { clusterPaths } from '../../../src/naming/naming.js';
import { writePki } from '../../../src/cluster/write-pki.js';
import { RealExecutor } from '../../../src/exec/real-executor.js';
import { silentLogger } from '../../../src/util/log.js';

test('writePki: pki/ and pki/etcd/ 0700 (even if they existed 0755), keys 0600, certificates 0644, every path a component names', async () => {
  const work = mkdtempSync(join(tmpdir(), 'kwokts-write-pki-'));
  try {
    const paths = clusterPaths(work, 'c1');
    mkdirSync(paths.pki, { recursive: true });
    chmodSync(paths.pki, 0o755);
    const executor = new RealExecutor(silentLogger);
    await executor.mkdirp(paths.root, { mode: 0o700 });
    await writePki(executor, paths, { apiserverSans: [], etcdDnsSans: ['kwok-c1-etcd'], rbac: true });
    const mode = (p: string): string => (statSync(p).mode & 0o777).toString(8);
    assert.equal(mode(paths.root), '700');
    assert.equal(mode(paths.pki), '700');
    assert.equal(mode(paths.etcdPki), '700');
    const files: string[] = [];
    const walk = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true })) (e.isDirectory() ? walk : (f: string) => files.push(f))(join(d, e.name));
    };
    walk(paths.pki);
    for (const f of files) assert.equal(mode(f), f.endsWith('.key') ? '600' : '644', relative(paths.pki, f));
    // Every certificate and key path in ClusterPaths is written, but etcd's CA key, kept for kind only.
    const named = Object.entries(paths).filter(([k, v]) => /(Cert|Key|Pub)$/.test(k) && v.startsWith(paths.pki) && k !== 'etcdCaKey').map(([, v]) => v).sort();
    assert.deepEqual(files.sort(), named);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test("writePki with etcdCaKey (kind): etcd's CA key is written 0600 and is the key of pki/etcd/ca.crt, which signed the host's etcd client certificate", async () => {
  const work = mkdtempSync(join(tmpdir(), 'kwokts-write-pki-'));
  try {
    const paths = clusterPaths(work, 'c1');
    const executor = new RealExecutor(silentLogger);
    await executor.mkdirp(paths.root, { mode: 0o700 });
    await writePki(executor, paths, { apiserverSans: [], etcdDnsSans: [], rbac: true, etcdCaKey: true });
    assert.equal((statSync(paths.etcdCaKey).mode & 0o777).toString(8), '600');
    const ca = new X509Certificate(readFileSync(paths.etcdCaCert));
    assert.ok(ca.checkPrivateKey(createPrivateKey(readFileSync(paths.etcdCaKey))));
    assert.ok(new X509Certificate(readFileSync(paths.etcdClientCert)).checkIssued(ca));
    rmSync(paths.root, { recursive: true, force: true });
    await executor.mkdirp(paths.root, { mode: 0o700 });
    await writePki(executor, paths, { apiserverSans: [], etcdDnsSans: [], rbac: true });
    assert.ok(!existsSync(paths.etcdCaKey), 'not written unless asked');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
