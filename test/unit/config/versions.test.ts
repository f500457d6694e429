import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterVersions, etcdImageTagForKube, etcdVersionForKube, normalizeVersion } from '../../../src/config/versions.js';
import { resolveImages } from '../../../src/artifacts/images.js';
import { defaultOptionValues } from '../../../src/config/options.js';

test('etcd follows kwokctl\'s table and clamps at both ends', () => {
  assert.equal(etcdVersionForKube('v1.36.1'), 'v3.6.10');
  assert.equal(etcdImageTagForKube('1.30.0'), '3.5.21-0');
  assert.equal(etcdImageTagForKube('v1.22.0'), '3.5.12-0');
  assert.equal(etcdImageTagForKube('v1.99.0'), '3.6.10-0');
  assert.equal(etcdImageTagForKube('v1.2.0'), '3.0.17');
  assert.equal(etcdImageTagForKube('garbage'), '3.6.10-0');
  assert.equal(normalizeVersion('1.36.1'), 'v1.36.1');
});

test("kwokctl's etcdVersion is an image tag: 3.6.10-0 is the release v3.6.10, the image tag stays", () => {
  assert.deepEqual(clusterVersions({ kubeVersion: 'v1.33.0', etcdVersion: '3.5.24-0' }), { kubeVersion: 'v1.33.0', etcdVersion: 'v3.5.24' });
  assert.equal(resolveImages({ ...defaultOptionValues(), etcdVersion: '3.5.24-0' }, 'v1.33.0', 'v3.5.24').etcd, 'registry.k8s.io/etcd:3.5.24-0');
});
