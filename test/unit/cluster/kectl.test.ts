import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findKectl, kectlForCluster, kectlInvocation } from '../../../src/cluster/kectl.js';
import { etcdctlInvocation } from '../../../src/cluster/passthrough.js';
import { clusterPaths } from '../../../src/naming/naming.js';
import type { ClusterRecord } from '../../../src/cluster/record.js';
import type { ClusterOptionValues } from '../../../src/config/options.js';
import { KwoktsError, PreflightError } from '../../../src/util/errors.js';
import { routeArgv, type CommandTable } from '../../../src/cli/argv.js';

const PATHS = clusterPaths('/w', 'kectl-unit');

function recordWithEtcd(port: number | undefined): ClusterRecord {
  return {
    name: 'kectl-unit',
    runtime: 'binary',
    options: {} as ClusterOptionValues,
    componentsPatches: [],
    components: [{ name: 'etcd', program: { artifact: 'etcd' }, args: [], env: {}, links: [], ports: port === undefined ? [] : [{ name: 'http', port }] }],
    programs: {},
    kwokDocuments: [],
    version: 'test',
  };
}

test('kectl gets the cluster etcd endpoint first and the user arguments unchanged after it', () => {
  const inv = kectlInvocation('/opt/kectl', recordWithEtcd(2400), PATHS, ['get', 'no', 'node-0', '-o', 'yaml']);
  assert.equal(inv.command, '/opt/kectl');
  assert.deepEqual(inv.args, ['--endpoints=http://127.0.0.1:2400', 'get', 'no', 'node-0', '-o', 'yaml']);
});

test('kectl gets exactly etcdctl\'s connection flags', () => {
  const record = recordWithEtcd(32379);
  assert.deepEqual(kectlInvocation('k', record, PATHS, ['x']).args, etcdctlInvocation('e', record, PATHS, ['x']).args);
});

test('a cluster without an etcd port is a user-facing error, not a crash', () => {
  assert.throws(() => kectlInvocation('k', recordWithEtcd(undefined), PATHS, []), KwoktsError);
});

test('KWOK_KECTL_BINARY wins over PATH; without either, the error says how to get kectl', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-kectl-'));
  const onPath = join(dir, 'kectl');
  writeFileSync(onPath, '#!/bin/sh\n');
  chmodSync(onPath, 0o755);
  assert.equal(findKectl({ PATH: dir }), onPath);
  assert.equal(findKectl({ PATH: dir, KWOK_KECTL_BINARY: '/elsewhere/kectl' }), '/elsewhere/kectl');
  assert.throws(() => findKectl({ PATH: join(dir, 'none') }), (error: unknown) => {
    assert.ok(error instanceof PreflightError);
    assert.match(error.hint ?? '', /go install github\.com\/kwok-ci\/kectl/);
    return true;
  });
});

test("the cluster's kectlBinary is used when KWOK_KECTL_BINARY is unset: a path, a name on PATH or a file:// URL; a URL counts as unset", () => {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-kectl-'));
  for (const name of ['kectl', 'kectl-0.0.10']) {
    writeFileSync(join(dir, name), '#!/bin/sh\n');
    chmodSync(join(dir, name), 0o755);
  }
  assert.equal(findKectl({ PATH: dir }, '/opt/kectl'), '/opt/kectl');
  assert.equal(findKectl({ PATH: dir, KWOK_KECTL_BINARY: '/env/kectl' }, '/opt/kectl'), '/env/kectl');
  assert.equal(findKectl({ PATH: dir }, 'kectl-0.0.10'), join(dir, 'kectl-0.0.10'));
  assert.equal(findKectl({ PATH: dir }, 'file:///opt/kectl'), '/opt/kectl');
  assert.equal(findKectl({ PATH: dir }, 'bin/kectl'), join(process.cwd(), 'bin/kectl'));
  // What kwokctl writes into its records when nothing was set: its download URL.
  assert.equal(findKectl({ PATH: dir }, 'https://github.com/kwok-ci/kectl/releases/download/v0.0.10/kectl_linux_amd64'), join(dir, 'kectl'));
  assert.throws(() => findKectl({ PATH: dir }, 'kectl-9'), (error: unknown) => {
    assert.ok(error instanceof PreflightError);
    assert.equal(error.message, 'kectl was not found: the cluster\'s kectlBinary names "kectl-9", which is not on PATH');
    return true;
  });
  assert.throws(() => findKectl({ PATH: dir, KWOK_KECTL_BINARY: 'kectl-9' }), /KWOK_KECTL_BINARY names "kectl-9", which is not on PATH/);
});

test("kectlForCluster (both the oclif command and the fast path) runs the cluster's kectlBinary", () => {
  const record = recordWithEtcd(2400);
  record.options = { kectlBinary: '/opt/kectl' } as ClusterOptionValues;
  const inv = kectlForCluster(record, PATHS, ['get', 'no'], { PATH: '/nonexistent' });
  assert.equal(inv.command, '/opt/kectl');
  assert.deepEqual(inv.args, ['--endpoints=http://127.0.0.1:2400', 'get', 'no']);
});

test('kectl is a passthrough: its flags are not ours, and global flags before it still apply', () => {
  const table: CommandTable = { bin: 'kwokts', commands: new Set(['kectl', 'kubectl']), topics: new Set(), globals: { name: { type: 'option' } } };
  assert.deepEqual(routeArgv(['--name', 'c1', 'kectl', 'put', 'no', 'n0', '--path', '-', '--name', 'x'], table), ['kectl', '--name', 'c1', '--', 'put', 'no', 'n0', '--path', '-', '--name', 'x']);
});
