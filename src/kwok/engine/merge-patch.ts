/**
 * Merge patches, applied to a copy: RFC 7386 JSON merge patch, and the subset of Kubernetes'
 * strategic merge patch that kwok stages produce for Pods and Nodes.
 *
 * Strategic merge differs from a merge patch for lists that have a patch merge key in the
 * Kubernetes API types: their items are merged by that key instead of the list being replaced.
 * The keys below are the ones on paths kwok's stages write; every other list is replaced.
 * `status.containerStatuses` has no merge key in k8s.io/api (it is replaced as a whole), so it is
 * deliberately absent. Directives handled: `$patch: replace|delete` (map and list item),
 * `$setElementOrder/<list>`, `$retainKeys`, `$deleteFromPrimitiveList/<list>`.
 */
import { cloneJson, isJsonObject, type JsonObject } from './json-value.js';

/*
 * The appliers below build their result by copying only what the patch touches: every map on a
 * patched path is copied one level deep, and everything else (the pod's spec under a status patch,
 * say) is the target's own subtree, shared. The exported appliers then copy the result once, so
 * callers still get a value of their own; patchChangesObject compares the shared result directly,
 * which is what saves the controller a deep copy of the whole object per stage play.
 */

/** RFC 7386 JSON merge patch; the result shares untouched subtrees with target and patch. */
export function mergePatchShared(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return patch;
  const out: JsonObject = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatchShared(out[key], value);
  }
  return out;
}

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  return cloneJson(mergePatchShared(target, patch));
}

/** Dotted path (without list indices) → merge key, for lists merged by key. */
export const STRATEGIC_MERGE_KEYS: Readonly<Record<string, string>> = {
  'status.conditions': 'type',
  'status.addresses': 'type',
  'status.podIPs': 'ip',
  'status.hostIPs': 'ip',
  'spec.containers': 'name',
  'spec.initContainers': 'name',
  'spec.ephemeralContainers': 'name',
  'metadata.ownerReferences': 'uid',
};

/** Lists of scalars merged as sets (patchStrategy=merge without a key). */
const STRATEGIC_SET_LISTS = new Set(['metadata.finalizers']);

const SET_ORDER = '$setElementOrder/';
const DELETE_FROM = '$deleteFromPrimitiveList/';

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

/**
 * A list merged by `key`, in the order kube-apiserver leaves it (apimachinery's strategicpatch
 * mergeSlice): `$patch: delete` items remove every item with their key, a `$patch: replace` item
 * makes the other items the whole list; the rest merge into the item with their key (the first
 * one) or are appended. Then the order: the patch's items in the patch's order, with the items
 * only the object had slotted in by their place in it, each before the first patch item that came
 * after it there. So a pod with `PodScheduled` patched with `Initialized`, `Ready` gets
 * `Initialized, Ready, PodScheduled`, not the object's order with the new items at the end.
 */
function mergeKeyedList(original: unknown[], patch: unknown[], key: string, path: string): unknown[] {
  const keyOf = (v: unknown): unknown => (isJsonObject(v) ? v[key] : undefined);
  let base = original;
  const items: unknown[] = [];
  let replace = false;
  for (const item of patch) {
    if (!isJsonObject(item) || item.$patch === undefined) items.push(item);
    else if (item.$patch === 'delete') base = base.filter((o) => keyOf(o) !== item[key]);
    else if (item.$patch === 'replace') replace = true;
  }
  if (replace) return items;
  const merged = base.slice();
  for (const item of items) {
    if (!isJsonObject(item)) {
      merged.push(item);
      continue;
    }
    const index = merged.findIndex((o) => isJsonObject(o) && o[key] === item[key]);
    if (index >= 0) merged[index] = strategicMerge(merged[index], item, path);
    else merged.push(strategicMerge({}, item, path));
  }
  const rank = (list: unknown[], v: unknown): number => list.findIndex((o) => keyOf(o) === keyOf(v));
  const byRank = (list: unknown[]) => (a: unknown, b: unknown): number => rank(list, a) - rank(list, b);
  const inPatch = (v: unknown): boolean => rank(items, v) >= 0;
  // Array.prototype.sort is stable, as Go's sort.SliceStable.
  const fromPatch = merged.filter(inPatch).sort(byRank(items));
  const serverOnly = merged.filter((v) => !inPatch(v)).sort(byRank(base));
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < fromPatch.length) {
    if (j >= fromPatch.length) out.push(serverOnly[i++]);
    else if (i >= serverOnly.length) out.push(fromPatch[j++]);
    else {
      const left = rank(base, serverOnly[i]);
      const right = rank(base, fromPatch[j]);
      if (left >= 0 && right >= 0 && left < right) out.push(serverOnly[i++]);
      else out.push(fromPatch[j++]);
    }
  }
  return out;
}

function orderBy(list: unknown[], order: unknown[], key: string | undefined): unknown[] {
  const keyOf = (v: unknown): unknown => (key !== undefined && isJsonObject(v) ? v[key] : v);
  const wanted = order.map((o) => keyOf(o));
  const ranked = list.map((v, i) => ({ v, i, rank: wanted.findIndex((w) => w === keyOf(v)) }));
  ranked.sort((a, b) => (a.rank < 0 ? Infinity : a.rank) - (b.rank < 0 ? Infinity : b.rank) || a.i - b.i);
  return ranked.map((r) => r.v);
}

function strategicMerge(target: unknown, patch: unknown, path: string): unknown {
  if (!isJsonObject(patch)) return patch;
  if (patch.$patch === 'replace') {
    const { $patch: _ignored, ...rest } = patch;
    return rest;
  }
  if (patch.$patch === 'delete') return undefined;
  let out: JsonObject = isJsonObject(target) ? { ...target } : {};
  const retain = patch.$retainKeys;
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch' || key === '$retainKeys' || key.startsWith(SET_ORDER)) continue;
    if (key.startsWith(DELETE_FROM)) {
      const list = key.slice(DELETE_FROM.length);
      const current = out[list];
      if (Array.isArray(current) && Array.isArray(value)) out[list] = current.filter((v) => !value.includes(v));
      continue;
    }
    const childPath = join(path, key);
    if (value === null) {
      delete out[key];
      continue;
    }
    const mergeKey = STRATEGIC_MERGE_KEYS[childPath];
    const current = out[key];
    if (Array.isArray(value) && Array.isArray(current) && mergeKey !== undefined) out[key] = mergeKeyedList(current, value, mergeKey, childPath);
    else if (Array.isArray(value) && Array.isArray(current) && STRATEGIC_SET_LISTS.has(childPath)) out[key] = [...current, ...value.filter((v) => !current.includes(v))];
    else if (Array.isArray(value)) out[key] = value.filter((v) => !(isJsonObject(v) && v.$patch === 'delete')).map((v) => strategicMerge({}, v, childPath));
    else if (isJsonObject(value)) {
      const merged = strategicMerge(current, value, childPath);
      if (merged === undefined) delete out[key];
      else out[key] = merged;
    } else out[key] = value;
  }
  for (const [key, order] of Object.entries(patch)) {
    if (!key.startsWith(SET_ORDER) || !Array.isArray(order)) continue;
    const list = key.slice(SET_ORDER.length);
    const current = out[list];
    if (Array.isArray(current)) out[list] = orderBy(current, order, STRATEGIC_MERGE_KEYS[join(path, list)]);
  }
  if (Array.isArray(retain)) out = Object.fromEntries(Object.entries(out).filter(([k]) => retain.includes(k)));
  return out;
}

/** Strategic merge patch (see the notes above); the result shares untouched subtrees with target and patch. */
export function strategicMergePatchShared(target: unknown, patch: unknown): unknown {
  const out = strategicMerge(target, patch, '');
  return out === undefined ? {} : out;
}

/**
 * Whether strategicMergePatchShared(target, patch) is exactly what kube-apiserver's strategic
 * merge makes of a Pod or Node, so the result may be written in its place. Said only where that
 * is sure: no directives anywhere, and every list that lands on a non-empty list is one whose
 * merge key we know, of flat objects that all carry it as a string (the merge and its order are
 * checked against kube-apiserver in test/e2e/status-routes.e2e.ts). Other lists replace what
 * they land on only when that is empty, since a list we know no key for may have one in Go.
 */
export function strategicMergeIsExact(target: unknown, patch: unknown, path = ''): boolean {
  if (!isJsonObject(patch)) return !Array.isArray(patch) || patch.every((v) => noDirectives(v));
  const base = isJsonObject(target) ? target : undefined;
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$')) return false;
    const childPath = join(path, key);
    const existing = base?.[key];
    if (Array.isArray(value)) {
      if (!noDirectives(value)) return false;
      if (!Array.isArray(existing) || existing.length === 0) continue;
      const mergeKey = STRATEGIC_MERGE_KEYS[childPath];
      if (mergeKey === undefined) return false;
      const keyed = (item: unknown): boolean => isJsonObject(item) && typeof item[mergeKey] === 'string' && Object.values(item).every((v) => v === null || typeof v !== 'object');
      if (!value.every(keyed) || !existing.every(keyed)) return false;
    } else if (isJsonObject(value)) {
      if (Array.isArray(existing) || !strategicMergeIsExact(existing, value, childPath)) return false;
    }
  }
  return true;
}

function noDirectives(value: unknown): boolean {
  if (Array.isArray(value)) return value.every((v) => noDirectives(v));
  if (!isJsonObject(value)) return true;
  return Object.entries(value).every(([k, v]) => !k.startsWith('$') && noDirectives(v));
}

/** Strategic merge patch for the built-in kinds kwok patches (Pod, Node); see the notes above. */
export function applyStrategicMergePatch(target: unknown, patch: unknown): unknown {
  return cloneJson(strategicMergePatchShared(target, patch));
}
