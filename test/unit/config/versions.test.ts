import { test } from 'node:test';
import assert from 'node:assert/strict';
import { etcdImageTagForKube, etcdVersionForKube, normalizeVersion } from '../../../src/config/versions.js';

test('etcd follows kwokctl\'s table and clamps at both ends', () => {
  assert.equal(etcdVersionForKube('v1.36.1'), 'v3.6.10');
  assert.equal(etcdImageTagForKube('1.30.0'), '3.5.21-0');
  assert.equal(etcdImageTagForKube('v1.22.0'), '3.5.12-0');
  assert.equal(etcdImageTagForKube('v1.99.0'), '3.6.10-0');
  assert.equal(etcdImageTagForKube('v1.2.0'), '3.0.17');
  assert.equal(etcdImageTagForKube('garbage'), '3.6.10-0');
  assert.equal(normalizeVersion('1.36.1'), 'v1.36.1');
});
