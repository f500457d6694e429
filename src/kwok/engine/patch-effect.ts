/**
 * The local effect of a StageAction on an object: used by the controller to skip patches that
 * would not change anything (kwok checks this before sending), and by `stage test --steps` to
 * replay a stage without an API server.
 */
import type { StageAction } from './actions.js';
import { applyJsonPatch, type JsonPatchOp } from './json-patch.js';
import { cloneJson, isJsonObject, jsonEqual } from './json-value.js';
import { applyMergePatch, applyStrategicMergePatch, mergePatchShared, strategicMergePatchShared } from './merge-patch.js';

export type ObjectEffect = { deleted: true } | { deleted: false; object: Record<string, unknown> };

/**
 * The object after `action`. Events leave it unchanged; an apply changes another object (or, with
 * a subresource, possibly this one, which is not modelled) and also leaves it unchanged here.
 * Throws JsonPatchError when a JSON patch cannot apply.
 */
export function applyAction(object: Record<string, unknown>, action: StageAction): ObjectEffect {
  switch (action.kind) {
    case 'delete':
      return { deleted: true };
    case 'event':
    case 'apply':
      return { deleted: false, object: cloneJson(object) };
    case 'finalizers':
      return { deleted: false, object: applyJsonPatch(object, action.patch) as Record<string, unknown> };
    case 'patch': {
      let out: unknown;
      if (action.patchType === 'json') out = applyJsonPatch(object, action.body as JsonPatchOp[]);
      else if (action.patchType === 'merge') out = applyMergePatch(object, action.body);
      else out = applyStrategicMergePatch(object, action.body);
      return { deleted: false, object: out as Record<string, unknown> };
    }
  }
}

/**
 * Whether sending `action` would change `object`. Only patches (and finalizer patches) can be
 * "no-ops"; every other action is reported as a change. A JSON patch that fails locally is also
 * reported as a change, so the API server gets to answer it.
 */
export function patchChangesObject(object: Record<string, unknown>, action: StageAction): boolean {
  if (action.kind !== 'patch' && action.kind !== 'finalizers') return true;
  // Merge patches are compared without copying the object: the result shares every subtree the
  // patch leaves alone, so the comparison also stops at once on those (same reference).
  if (action.kind === 'patch' && action.patchType !== 'json') {
    if (addsMissingKey(object, action.body)) return true;
    const patched = action.patchType === 'merge' ? mergePatchShared(object, action.body) : strategicMergePatchShared(object, action.body);
    return !jsonEqual(object, patched);
  }
  try {
    const effect = applyAction(object, action);
    return effect.deleted || !jsonEqual(object, effect.object);
  } catch {
    return true;
  }
}

/**
 * Whether a merge or strategic patch surely sets a key the object lacks: a non-null value under
 * a key the object does not have, at a level of the patch without directives. Such a key is in
 * the result, so the patch changes the object, which is decided here without building the
 * patched copy (a new pod's first status patch, a new node's). `false` means "not sure".
 */
function addsMissingKey(object: unknown, patch: unknown): boolean {
  if (!isJsonObject(object) || !isJsonObject(patch)) return false;
  // $retainKeys may drop keys and $patch may replace or delete the whole level: no shortcut there.
  for (const key of Object.keys(patch)) if (key.startsWith('$')) return false;
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) continue;
    const current = object[key];
    if (current === undefined) {
      if (!isJsonObject(value)) return true;
      if (value['$patch'] !== 'delete') return true;
      continue;
    }
    if (addsMissingKey(current, value)) return true;
  }
  return false;
}
