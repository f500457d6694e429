import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeArgv } from '../../../src/cli/argv.js';

test('leading global flags move after the command words', () => {
  assert.deepEqual(normalizeArgv(['--name', 'foo', 'create', 'cluster', '--wait', '1m']), ['create', 'cluster', '--name', 'foo', '--wait', '1m']);
  assert.deepEqual(normalizeArgv(['--name=foo', '-v', 'DEBUG', 'get', 'clusters']), ['get', 'clusters', '--name=foo', '-v', 'DEBUG']);
  assert.deepEqual(normalizeArgv(['-c', 'a.yaml', '--config', 'b.yaml', '--dry-run', 'create', 'cluster']), ['create', 'cluster', '-c', 'a.yaml', '--config', 'b.yaml', '--dry-run']);
});

test('flags after the command stay where they are', () => {
  assert.deepEqual(normalizeArgv(['create', 'cluster', '--name', 'x']), ['create', 'cluster', '--name', 'x']);
});

test('passthrough commands keep every tool argument verbatim after --', () => {
  assert.deepEqual(normalizeArgv(['--name', 'ci', 'kubectl', 'get', 'ns', '--name', 'x', '-v', '9', '--', 'y']), ['kubectl', '--name', 'ci', '--', 'get', 'ns', '--name', 'x', '-v', '9', '--', 'y']);
  assert.deepEqual(normalizeArgv(['etcdctl', 'get', '/registry', '--prefix']), ['etcdctl', '--', 'get', '/registry', '--prefix']);
});
