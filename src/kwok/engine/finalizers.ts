/**
 * The JSON Patch for a finalizers step, computed from the object's current finalizers exactly as
 * kwok's pkg/utils/lifecycle/finalizers.go does:
 * - `empty`, or a `remove` that removes every current finalizer → `remove /metadata/finalizers`
 *   (only if there were any), then the adds as if there were none;
 * - otherwise `remove /metadata/finalizers/<i>` for each match, highest index first, then
 *   `add /metadata/finalizers/-` for each value not already present — or one
 *   `add /metadata/finalizers` with the whole list when the object has no finalizers.
 * kwok serialises the ops with `omitempty`, so an empty finalizer value has no "value" field.
 */
import type { StageFinalizers } from '../api/stage-types.js';
import type { JsonPatchOp } from './json-patch.js';

function addOps(current: readonly string[], add: readonly string[]): JsonPatchOp[] {
  if (current.length === 0) return [{ op: 'add', path: '/metadata/finalizers', value: [...add] }];
  const ops: JsonPatchOp[] = [];
  for (const value of add) {
    if (current.includes(value)) continue;
    ops.push(value === '' ? { op: 'add', path: '/metadata/finalizers/-' } : { op: 'add', path: '/metadata/finalizers/-', value });
  }
  return ops;
}

function removeOps(current: readonly string[], remove: readonly string[]): JsonPatchOp[] {
  const ops: JsonPatchOp[] = [];
  for (let i = current.length - 1; i >= 0; i--) {
    if (remove.includes(current[i]!)) ops.push({ op: 'remove', path: `/metadata/finalizers/${i}` });
  }
  return ops;
}

export function finalizersPatch(current: readonly string[], step: StageFinalizers): JsonPatchOp[] {
  let empty = false;
  const ops: JsonPatchOp[] = [];
  if (step.empty) empty = true;
  else if (step.remove.length !== 0) {
    const removed = removeOps(current, step.remove);
    if (removed.length === current.length) empty = true;
    else ops.push(...removed);
  }
  if (!empty) {
    if (step.add.length !== 0) ops.push(...addOps(current, step.add));
    return ops;
  }
  if (current.length !== 0) ops.push({ op: 'remove', path: '/metadata/finalizers' });
  if (step.add.length !== 0) ops.push(...addOps([], step.add));
  return ops;
}
