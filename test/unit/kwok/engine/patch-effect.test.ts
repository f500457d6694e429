import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyAction, patchChangesObject, type StageAction } from '../../../../src/kwok/engine/index.js';
import { applyJsonPatch, JsonPatchError } from '../../../../src/kwok/engine/json-patch.js';
import { applyMergePatch, applyStrategicMergePatch, strategicMergeIsExact } from '../../../../src/kwok/engine/merge-patch.js';

const pod = (): Record<string, unknown> => ({
  metadata: { name: 'p', finalizers: ['a', 'b'], labels: { x: '1' } },
  status: {
    phase: 'Pending',
    conditions: [
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
    ],
    containerStatuses: [
      { name: 'c1', ready: false },
      { name: 'c2', ready: false },
    ],
  },
});

describe('JSON patch (RFC 6902)', () => {
  test('add, remove, replace, move, copy, test; escapes; "-" appends', () => {
    const doc = { a: { 'b/c': 1, 'd~e': 2 }, l: [1, 2] };
    assert.deepEqual(
      applyJsonPatch(doc, [
        { op: 'add', path: '/l/-', value: 3 },
        { op: 'add', path: '/l/0', value: 0 },
        { op: 'remove', path: '/a/b~1c' },
        { op: 'replace', path: '/a/d~0e', value: 5 },
        { op: 'copy', from: '/a', path: '/c' },
        { op: 'move', from: '/c', path: '/m' },
        { op: 'test', path: '/m/d~0e', value: 5 },
      ]),
      { a: { 'd~e': 5 }, l: [0, 1, 2, 3], m: { 'd~e': 5 } },
    );
    assert.deepEqual(doc, { a: { 'b/c': 1, 'd~e': 2 }, l: [1, 2] }, 'input untouched');
  });
  test('errors', () => {
    assert.throws(() => applyJsonPatch({}, [{ op: 'remove', path: '/x' }]), JsonPatchError);
    assert.throws(() => applyJsonPatch({ l: [] }, [{ op: 'replace', path: '/l/0', value: 1 }]), JsonPatchError);
    assert.throws(() => applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }]), /test failed/);
  });
});

describe('merge patches', () => {
  test('neither the object nor the patch is changed, and the result is a copy of its own', () => {
    const object = pod();
    const patch = { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], extra: { a: [1] } } };
    const before = { object: structuredClone(object), patch: structuredClone(patch) };
    for (const apply of [applyMergePatch, applyStrategicMergePatch]) {
      const out = apply(object, patch) as { metadata: { labels: Record<string, string> }; status: { extra: { a: number[] } } };
      out.metadata.labels['y'] = '2';
      out.status.extra.a.push(2);
      assert.deepEqual(object, before.object);
      assert.deepEqual(patch, before.patch);
    }
    assert.equal(patchChangesObject(object, { kind: 'patch', patchType: 'strategic', body: patch } as StageAction), true);
    assert.equal(patchChangesObject(object, { kind: 'patch', patchType: 'merge', body: patch } as StageAction), true);
    assert.deepEqual(object, before.object);
    assert.deepEqual(patch, before.patch);
  });
  test('a patch that restates what the object has changes nothing (keyed lists merged in place)', () => {
    const same = { status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False' }], containerStatuses: (pod()['status'] as { containerStatuses: unknown[] }).containerStatuses } };
    assert.equal(patchChangesObject(pod(), { kind: 'patch', patchType: 'strategic', body: same } as StageAction), false);
    assert.equal(patchChangesObject(pod(), { kind: 'patch', patchType: 'merge', body: { metadata: { labels: { x: '1' } } } } as StageAction), false);
    assert.equal(patchChangesObject(pod(), { kind: 'patch', patchType: 'merge', body: { metadata: { labels: { x: null } } } } as StageAction), true);
    assert.equal(patchChangesObject(pod(), { kind: 'patch', patchType: 'merge', body: { metadata: { labels: { z: null } } } } as StageAction), false);
  });
  test('RFC 7386: null deletes, objects merge, lists replace', () => {
    assert.deepEqual(applyMergePatch({ a: 1, b: { c: 1, d: 2 }, l: [1, 2] }, { a: null, b: { c: 3 }, l: [3] }), { b: { c: 3, d: 2 }, l: [3] });
    assert.deepEqual(applyMergePatch({ a: 1 }, 'x'), 'x');
  });

  test('strategic: conditions merge by type, other lists (containerStatuses) are replaced', () => {
    const out = applyStrategicMergePatch(pod(), {
      status: { conditions: [{ type: 'Ready', status: 'True', reason: null }, { type: 'ContainersReady', status: 'True' }], containerStatuses: [{ name: 'c1', ready: true }] },
    }) as { status: Record<string, unknown> };
    assert.deepEqual(out.status.conditions, [
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: 'True' },
      { type: 'ContainersReady', status: 'True' },
    ]);
    assert.deepEqual(out.status.containerStatuses, [{ name: 'c1', ready: true }]);
  });

  test('strategic directives: $setElementOrder, $patch delete/replace, finalizers as a set, node addresses by type', () => {
    const out = applyStrategicMergePatch(pod(), {
      metadata: { finalizers: ['b', 'c'], labels: { $patch: 'replace', y: '2' } },
      status: { $setElementOrder: undefined, '$setElementOrder/conditions': [{ type: 'Ready' }, { type: 'Initialized' }], conditions: [{ type: 'Initialized', $patch: 'delete' }, { type: 'Ready', status: 'True' }] },
    }) as { metadata: Record<string, unknown>; status: Record<string, unknown> };
    assert.deepEqual(out.metadata.finalizers, ['a', 'b', 'c']);
    assert.deepEqual(out.metadata.labels, { y: '2' });
    assert.deepEqual(out.status.conditions, [{ type: 'Ready', status: 'True', reason: 'ContainersNotReady' }]);
    const node = applyStrategicMergePatch({ status: { addresses: [{ type: 'InternalIP', address: '1' }] } }, { status: { addresses: [{ type: 'Hostname', address: 'h' }] } });
    // kube-apiserver puts the patch's items first here: an item only the object had goes before
    // the first patch item that came after it in the object, and a new item came after none.
    assert.deepEqual(node, { status: { addresses: [{ type: 'Hostname', address: 'h' }, { type: 'InternalIP', address: '1' }] } });
  });
});

describe('strategicMergeIsExact', () => {
  const scheduled = { status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'True' }], containerStatuses: [{ name: 'c' }] } };

  test('keyed lists of flat items, and lists landing where there is none, are merged exactly here', () => {
    assert.equal(strategicMergeIsExact(scheduled, { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', reason: null }] } }), true);
    assert.equal(strategicMergeIsExact({ status: {} }, { status: { podIPs: [{ ip: '10.0.0.1' }], containerStatuses: [{ name: 'c', state: { running: {} } }] } }), true);
    assert.equal(strategicMergeIsExact({ status: { conditions: [] } }, { status: { conditions: [{ type: 'Ready', status: 'True' }] } }), true);
  });

  test('directives, a list with no known key on a list, or items without their key or with nesting are left to the apiserver', () => {
    assert.equal(strategicMergeIsExact(scheduled, { status: { containerStatuses: [{ name: 'c', ready: true }] } }), false);
    assert.equal(strategicMergeIsExact(scheduled, { status: { $retainKeys: ['phase'] } }), false);
    assert.equal(strategicMergeIsExact(scheduled, { status: { conditions: [{ type: 'Ready', $patch: 'delete' }] } }), false);
    assert.equal(strategicMergeIsExact({ status: {} }, { status: { podIPs: [{ ip: '1', $patch: 'replace' }] } }), false);
    assert.equal(strategicMergeIsExact(scheduled, { status: { conditions: [{ status: 'True' }] } }), false);
    assert.equal(strategicMergeIsExact(scheduled, { status: { conditions: [{ type: 'Ready', extra: { a: 1 } }] } }), false);
    assert.equal(strategicMergeIsExact({ status: { conditions: [{ type: 1 }] } }, { status: { conditions: [{ type: 'Ready' }] } }), false);
    assert.equal(strategicMergeIsExact({ status: [] }, { status: { phase: 'Running' } }), false);
  });
});

describe('patchChangesObject', () => {
  const patch = (body: unknown, patchType: 'json' | 'merge' | 'strategic' = 'strategic'): StageAction => ({ kind: 'patch', patchType, subresource: 'status', body });

  test('a strategic patch re-stating existing conditions is a no-op; a new value is a change', () => {
    assert.equal(patchChangesObject(pod(), patch({ status: { phase: 'Pending', conditions: [{ type: 'Ready', status: 'False' }] } })), false);
    assert.equal(patchChangesObject(pod(), patch({ status: { conditions: [{ type: 'Ready', status: 'True' }] } })), true);
  });
  test('merge patches replace lists, so a partial list is a change', () => {
    assert.equal(patchChangesObject(pod(), patch({ status: { conditions: [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }] } }, 'merge')), true);
    assert.equal(patchChangesObject(pod(), patch({ status: { phase: 'Pending' } }, 'merge')), false);
  });
  test('json patches and finalizer patches', () => {
    assert.equal(patchChangesObject(pod(), patch([{ op: 'replace', path: '/status/phase', value: 'Pending' }], 'json')), false);
    assert.equal(patchChangesObject(pod(), { kind: 'finalizers', patch: [{ op: 'remove', path: '/metadata/finalizers' }] }), true);
    assert.equal(patchChangesObject(pod(), patch([{ op: 'remove', path: '/nope' }], 'json')), true, 'failing locally: let the server answer');
  });
  test('decides as the full merge does on random objects and patches (shortcut for keys the object lacks)', () => {
    let seed = 42;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor(seed / 65536) % n;
    };
    const keys = ['a', 'b', 'conditions', 'status', '$patch', '$retainKeys'];
    const value = (depth: number, directives: boolean): unknown => {
      switch (random(depth > 2 ? 4 : 7)) {
        case 0:
          return null;
        case 1:
          return `s${random(2)}`;
        case 2:
          return random(2);
        case 3:
          return [`s${random(2)}`];
        case 4:
          return [{ type: `t${random(2)}`, status: `s${random(2)}` }];
        default: {
          const out: Record<string, unknown> = {};
          for (let i = random(4); i > 0; i--) {
            const key = keys[random(directives ? keys.length : keys.length - 2)]!;
            if (key === '$patch') out[key] = ['delete', 'replace', 'merge'][random(3)];
            else if (key === '$retainKeys') out[key] = ['a', 'status'];
            else out[key] = value(depth + 1, directives);
          }
          return out;
        }
      }
    };
    for (let i = 0; i < 3000; i++) {
      const object = { status: value(1, false), a: value(1, false) };
      const body = value(0, true);
      for (const patchType of ['merge', 'strategic'] as const) {
        const merged = patchType === 'merge' ? applyMergePatch(object, body) : applyStrategicMergePatch(object, body);
        const expected = JSON.stringify(sortKeys(merged)) !== JSON.stringify(sortKeys(object));
        assert.equal(patchChangesObject(object, patch(body, patchType)), expected, `${patchType} ${JSON.stringify(body)} on ${JSON.stringify(object)}`);
      }
    }
  });
  test('events, deletes and applies always count as changes', () => {
    assert.equal(patchChangesObject(pod(), { kind: 'event', type: 'Normal', reason: 'r', message: 'm' }), true);
    assert.equal(patchChangesObject(pod(), { kind: 'delete' }), true);
    assert.equal(patchChangesObject(pod(), { kind: 'apply', applyType: 'apply', object: { apiVersion: 'v1', kind: 'ConfigMap' } }), true);
  });
  test('applyAction replays actions locally', () => {
    assert.deepEqual(applyAction(pod(), { kind: 'delete' }), { deleted: true });
    const after = applyAction(pod(), { kind: 'finalizers', patch: [{ op: 'remove', path: '/metadata/finalizers/0' }] });
    assert.ok(!after.deleted);
    assert.deepEqual((after.object.metadata as { finalizers: string[] }).finalizers, ['b']);
  });
});

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
  );
}
