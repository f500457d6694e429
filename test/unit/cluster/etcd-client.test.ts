import { test } from 'node:test';
import assert from 'node:assert/strict';
import { etcdClientArgs } from '../../../src/cluster/etcd-client.js';
import { clusterPaths } from '../../../src/naming/naming.js';
import { etcdctlInvocation } from '../../../src/cluster/passthrough.js';
import type { ClusterRecord } from '../../../src/cluster/record.js';
import type { Component } from '../../../src/components/index.js';
import { defaultOptionValues } from '../../../src/config/options.js';
import { OperationError } from '../../../src/util/errors.js';

const paths = clusterPaths('/w', 'c1');
const record = (etcd?: Partial<Component>): ClusterRecord => ({
  name: 'c1',
  runtime: 'binary',
  options: defaultOptionValues(),
  componentsPatches: [],
  components: etcd ? [{ name: 'etcd', program: { artifact: 'etcd' }, args: [], env: {}, links: [], ports: [], ...etcd }] : [],
  programs: {},
  kwokDocuments: [],
  version: '0.1.0',
});

test('a TLS etcd (recorded https port) is reached with etcd\'s CA and the host\'s client certificate', () => {
  const tls = record({ ports: [{ name: 'https', port: 2001 }, { name: 'peer-https', port: 2002 }, { name: 'metrics', port: 2003 }] });
  assert.deepEqual(etcdClientArgs(tls, paths), {
    endpoint: 'https://127.0.0.1:2001',
    tlsArgs: ['--cacert=/w/clusters/c1/pki/etcd/ca.crt', '--cert=/w/clusters/c1/pki/etcd/healthcheck-client.crt', '--key=/w/clusters/c1/pki/etcd/healthcheck-client.key'],
  });
  // The user's flags come after ours, so one they repeat wins.
  assert.deepEqual(etcdctlInvocation('/bin/etcdctl', tls, paths, ['--cert=/mine.crt', 'get', 'x']).args, [
    '--endpoints=https://127.0.0.1:2001',
    '--cacert=/w/clusters/c1/pki/etcd/ca.crt',
    '--cert=/w/clusters/c1/pki/etcd/healthcheck-client.crt',
    '--key=/w/clusters/c1/pki/etcd/healthcheck-client.key',
    '--cert=/mine.crt',
    'get',
    'x',
  ]);
});

test('a cluster recorded before etcd TLS (plain http port) is reached as before, without certificates', () => {
  const old = record({ ports: [{ name: 'http', port: 2001 }, { name: 'peer-http', port: 2002 }] });
  assert.deepEqual(etcdClientArgs(old, paths), { endpoint: 'http://127.0.0.1:2001', tlsArgs: [] });
  assert.deepEqual(etcdctlInvocation('/bin/etcdctl', old, paths, ['get', 'x']).args, ['--endpoints=http://127.0.0.1:2001', 'get', 'x']);
});

test('no etcd (a kind cluster) is one clear error', () => {
  assert.throws(() => etcdClientArgs(record(), paths), (e: unknown) => e instanceof OperationError && /has no etcd endpoint/.test(e.message) && /kind/.test(e.hint ?? ''));
});
