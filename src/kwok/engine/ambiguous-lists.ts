/**
 * Strategic merge patches for lists whose items share a merge key.
 *
 * A strategic merge merges a keyed list item by item, each patch item into the first object item
 * with its key. `status.addresses` is keyed by `type`, yet a dual-stack node has two `InternalIP`
 * items: a patch that sends both back merges both into the first, and the apiserver refuses the
 * result (422, "Duplicate value"). kwok's own node heartbeat stage sends a node's addresses back
 * on every beat, so every heartbeat of such a node failed. The kubelet meets the same flaw in
 * k8s.io/component-helpers (node status patches: "NodeStatus.Addresses is incorrectly annotated
 * as patchStrategy=merge") by replacing the list.
 *
 * Here, where the patch's list or the object's list has two items with one key:
 * - a list equal to the object's is left out of the patch (it changes nothing, which is what the
 *   stage means by sending it back);
 * - any other list replaces the object's (`$patch: replace`), since merging it by key has no
 *   meaning the stage could intend.
 * Lists whose keys are all distinct merge as before.
 */
import { isJsonObject, jsonEqual, type JsonObject } from './json-value.js';
import { STRATEGIC_MERGE_KEYS } from './merge-patch.js';

function hasRepeatedKey(list: readonly unknown[], key: string): boolean {
  const seen = new Set<unknown>();
  for (const item of list) {
    if (!isJsonObject(item) || item[key] === undefined) continue;
    if (seen.has(item[key])) return true;
    seen.add(item[key]);
  }
  return false;
}

/** Paths (dotted) that lead to a keyed list: where the walk below has to look. */
const PREFIXES = new Set(Object.keys(STRATEGIC_MERGE_KEYS).flatMap((path) => path.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'))));

/**
 * The strategic merge patch `patch` for `object`, with every keyed list whose items share a key
 * left out or made a replacement (see above). Returns `patch` itself when nothing needs changing;
 * otherwise a copy of the maps on the changed paths.
 */
export function replaceAmbiguousKeyedLists(patch: unknown, object: unknown, path = ''): unknown {
  if (!isJsonObject(patch)) return patch;
  let out: JsonObject | undefined;
  const target = isJsonObject(object) ? object : undefined;
  for (const [name, value] of Object.entries(patch)) {
    const childPath = path === '' ? name : `${path}.${name}`;
    if (!PREFIXES.has(childPath)) continue;
    const existing = target?.[name];
    const mergeKey = STRATEGIC_MERGE_KEYS[childPath];
    if (mergeKey !== undefined && Array.isArray(value)) {
      const hasDirective = value.some((item) => isJsonObject(item) && item.$patch !== undefined);
      const ambiguous = hasRepeatedKey(value, mergeKey) || (Array.isArray(existing) && hasRepeatedKey(existing, mergeKey));
      if (hasDirective || !ambiguous) continue;
      out ??= { ...patch };
      if (Array.isArray(existing) && jsonEqual(value, existing)) delete out[name];
      else out[name] = [{ $patch: 'replace' }, ...value];
    } else if (isJsonObject(value)) {
      const replaced = replaceAmbiguousKeyedLists(value, existing, childPath);
      if (replaced !== value) {
        out ??= { ...patch };
        out[name] = replaced;
      }
    }
  }
  return out ?? patch;
}
