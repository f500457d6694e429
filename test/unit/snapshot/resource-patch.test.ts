import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inReplayOrder, resourcePatchProblem, splitRecording, type ResourcePatch } from '../../../src/snapshot/resource-patch.js';

const change = (durationNanosecond: number, method: ResourcePatch['method'] = 'delete', name = 'x'): ResourcePatch => ({
  apiVersion: 'action.kwok.x-k8s.io/v1alpha1',
  kind: 'ResourcePatch',
  resource: { version: 'v1', resource: 'configmaps' },
  target: { name, namespace: 'default' },
  durationNanosecond,
  method,
});

test('a recording is the objects up to the first ResourcePatch, then the changes', () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } };
  const split = splitRecording([cm, change(2), change(1), cm]);
  assert.deepEqual(split.objects, [cm]);
  assert.equal(split.patches.length, 2);
  assert.deepEqual(split.strays, [4]);
  assert.deepEqual(splitRecording([cm]), { objects: [cm], patches: [], strays: [] });
});

test('changes replay by recorded time; equal times keep file order', () => {
  const order = inReplayOrder([change(5, 'delete', 'c'), change(1, 'delete', 'a'), change(5, 'delete', 'd'), change(3, 'delete', 'b')]);
  assert.deepEqual(order.map((p) => p.target.name), ['a', 'b', 'c', 'd']);
});

test('a change that cannot be replayed says why', () => {
  assert.equal(resourcePatchProblem(change(1)), undefined);
  assert.match(resourcePatchProblem({ ...change(1), method: 'create' })!, /needs a template/);
  assert.match(resourcePatchProblem({ ...change(1), method: 'move' as never })!, /method must be/);
  assert.match(resourcePatchProblem({ ...change(1), target: { name: '' } })!, /target.name/);
  assert.match(resourcePatchProblem({ ...change(1), durationNanosecond: 'soon' as never })!, /durationNanosecond/);
});
