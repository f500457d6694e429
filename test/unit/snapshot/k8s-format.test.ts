import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanForCreate, cleanForSnapshot, restoreWaves } from '../../../src/snapshot/k8s-format.js';
import type { KubeObject } from '../../../src/kube/client/types.js';

const obj = (name: string, uid: string, owners: string[] = []): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Thing',
  metadata: { name, uid, resourceVersion: '7', ownerReferences: owners.map((o) => ({ apiVersion: 'v1', kind: 'Thing', name: o, uid: o })) },
});

test('owners come in earlier waves than what they own', () => {
  const waves = restoreWaves([obj('pod', 'p', ['rs']), obj('rs', 'rs', ['d']), obj('d', 'd'), obj('cm', 'c', ['elsewhere'])]);
  assert.deepEqual(waves.map((w) => w.map((o) => o.metadata.name)), [['d', 'cm'], ['rs'], ['pod']]);
});

test('an ownership cycle does not hang the restore', () => {
  const waves = restoreWaves([obj('a', 'a', ['b']), obj('b', 'b', ['a'])]);
  assert.equal(waves.flat().length, 2);
});

test('server-set fields go; owner uids are re-linked or dropped', () => {
  assert.equal(cleanForSnapshot(obj('x', 'u')).metadata.resourceVersion, undefined);
  assert.equal(cleanForSnapshot(obj('x', 'u')).metadata.uid, 'u', 'uids stay in the snapshot for re-linking');
  const body = cleanForCreate(obj('pod', 'p', ['rs', 'gone']), new Map([['rs', 'new-rs']]));
  assert.equal(body.metadata.uid, undefined);
  assert.equal(body.metadata.resourceVersion, undefined);
  assert.deepEqual(body.metadata.ownerReferences?.map((o) => o.uid), ['new-rs']);
  assert.equal(cleanForCreate(obj('x', 'u', ['gone']), new Map()).metadata.ownerReferences, undefined);
});
