import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTwoWayMergePatch } from '../../../src/snapshot/two-way-patch.js';
import { OPAQUE_SCHEMA, patchSchemaFor, type OpenApiDocument } from '../../../src/snapshot/patch-schema.js';

/** A hand-written OpenAPI v3 fragment with the three list kinds a pod has. */
const DOC: OpenApiDocument = {
  components: {
    schemas: {
      'x.Pod': {
        'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Pod' }],
        properties: { metadata: { allOf: [{ $ref: '#/components/schemas/x.Meta' }] }, spec: { $ref: '#/components/schemas/x.Spec' }, status: { allOf: [{ $ref: '#/components/schemas/x.Status' }] } },
      } as never,
      'x.Meta': { properties: { finalizers: { 'x-kubernetes-patch-strategy': 'merge' }, labels: { additionalProperties: {} } } } as never,
      'x.Spec': { properties: { containers: { 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name', items: { allOf: [{ $ref: '#/components/schemas/x.Container' }] } }, args: {} } } as never,
      'x.Container': { properties: { ports: { 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'containerPort' } } } as never,
      'x.Status': { properties: { conditions: { 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'type' } } } as never,
    },
  },
};
const POD = patchSchemaFor(DOC, '', 'v1', 'Pod');

test('maps: changed and added keys, removed keys as null, unchanged keys left out', () => {
  const patch = createTwoWayMergePatch({ metadata: { labels: { a: '1', b: '2' } }, data: { x: '1' } }, { metadata: { labels: { a: '1', c: '3' } }, data: { x: '1' } }, POD);
  assert.deepEqual(patch, { metadata: { labels: { b: null, c: '3' } } });
  assert.deepEqual(createTwoWayMergePatch({ a: 1 }, { a: 1 }, POD), {});
});

test('lists of objects with a merge key: element diffs, deletions and the new order', () => {
  const before = { status: { conditions: [{ type: 'Ready', status: 'False' }, { type: 'Old', status: 'True' }] } };
  const after = { status: { conditions: [{ type: 'Scheduled', status: 'True' }, { type: 'Ready', status: 'True' }] } };
  assert.deepEqual(createTwoWayMergePatch(before, after, POD), {
    status: {
      '$setElementOrder/conditions': [{ type: 'Scheduled' }, { type: 'Ready' }],
      conditions: [{ type: 'Scheduled', status: 'True' }, { type: 'Ready', status: 'True' }, { type: 'Old', $patch: 'delete' }],
    },
  });
});

test('nested merge lists follow the schema down (containers → ports)', () => {
  const before = { spec: { containers: [{ name: 'c', image: 'a', ports: [{ containerPort: 80 }] }] } };
  const after = { spec: { containers: [{ name: 'c', image: 'a', ports: [{ containerPort: 80 }, { containerPort: 90 }] }] } };
  assert.deepEqual(createTwoWayMergePatch(before, after, POD), {
    spec: {
      '$setElementOrder/containers': [{ name: 'c' }],
      containers: [{ name: 'c', '$setElementOrder/ports': [{ containerPort: 80 }, { containerPort: 90 }], ports: [{ containerPort: 90 }] }],
    },
  });
});

test('lists of scalars with merge strategy: additions, $deleteFromPrimitiveList, order', () => {
  const patch = createTwoWayMergePatch({ metadata: { finalizers: ['a', 'b'] } }, { metadata: { finalizers: ['b', 'c'] } }, POD);
  assert.deepEqual(patch, { metadata: { '$setElementOrder/finalizers': ['b', 'c'], finalizers: ['c'], '$deleteFromPrimitiveList/finalizers': ['a'] } });
});

test('lists without a merge strategy, and every list of an unknown kind, are replaced whole', () => {
  assert.deepEqual(createTwoWayMergePatch({ spec: { args: ['a', 'b'] } }, { spec: { args: ['b'] } }, POD), { spec: { args: ['b'] } });
  assert.deepEqual(createTwoWayMergePatch({ status: { conditions: [{ type: 'A' }] } }, { status: { conditions: [] } }, OPAQUE_SCHEMA), { status: { conditions: [] } });
  assert.deepEqual(createTwoWayMergePatch({ a: { b: 1 } }, { a: [1] }, POD), { a: [1] });
});
