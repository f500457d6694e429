import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findKectl, kectlInvocation } from '../../../src/cluster/kectl.js';
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

test('kectl is a passthrough: its flags are not ours, and global flags before it still apply', () => {
  const table: CommandTable = { bin: 'kwokts', commands: new Set(['kectl', 'kubectl']), topics: new Set(), globals: { name: { type: 'option' } } };
  assert.deepEqual(routeArgv(['--name', 'c1', 'kectl', 'put', 'no', 'n0', '--path', '-', '--name', 'x'], table), ['kectl', '--name', 'c1', '--', 'put', 'no', 'n0', '--path', '-', '--name', 'x']);
});
