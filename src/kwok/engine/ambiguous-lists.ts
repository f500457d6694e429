/**
 * Strategic merge patches for lists whose items share a merge key.
 *
 * A strategic merge merges a keyed list item by item, each patch item into the first object item
 * with its key. `status.addresses` is keyed by `type`, yet a dual-stack node has two `InternalIP`
 * items: a patch that sends both back merges both into the first, and the apiserver refuses the
 * result (422, "Duplicate value"). kwok's own node heartbeat stage sends a node's addresses back
 * on every beat, so every heartbeat of such a node failed, with Go kwok as with us. The kubelet
 * meets the same flaw in k8s.io/component-helpers (node status patches: "NodeStatus.Addresses is
 * incorrectly annotated as patchStrategy=merge") by replacing the list.
 *
 * Here, a key is ambiguous when the patch has two items with it, or the patch has one and the
 * object two. The items of an ambiguous key replace the object's items of that key, where the
 * first of those stood; every other item merges by key as the apiserver would. The list so made
 * is left out of the patch when it equals the object's (the stage sent it back unchanged), and
 * otherwise sent whole, as a replacement (`$patch: replace`). A list without an ambiguous key, or
 * with directives of its own, is left as it is.
 */
import { isJsonObject, jsonEqual, type JsonObject } from './json-value.js';
import { mergePatchShared, STRATEGIC_MERGE_KEYS } from './merge-patch.js';

function countKeys(list: readonly unknown[], key: string): Map<unknown, number> {
  const counts = new Map<unknown, number>();
  for (const item of list) if (isJsonObject(item) && item[key] !== undefined) counts.set(item[key], (counts.get(item[key]) ?? 0) + 1);
  return counts;
}

/** The list `patch` leaves on `current`, or undefined when no key of the patch is ambiguous. */
function mergeAmbiguous(current: readonly unknown[], patch: readonly unknown[], key: string): unknown[] | undefined {
  const inPatch = countKeys(patch, key);
  const inObject = countKeys(current, key);
  const ambiguous = new Set([...inPatch].filter(([k, n]) => n > 1 || (inObject.get(k) ?? 0) > 1).map(([k]) => k));
  if (ambiguous.size === 0) return undefined;
  const keyOf = (item: unknown): unknown => (isJsonObject(item) ? item[key] : undefined);
  const placed = new Set<unknown>();
  const out: unknown[] = [];
  for (const item of current) {
    const k = keyOf(item);
    if (ambiguous.has(k)) {
      if (!placed.has(k)) out.push(...patch.filter((p) => keyOf(p) === k));
      placed.add(k);
    } else if (inPatch.has(k)) {
      out.push(mergePatchShared(item, patch.find((p) => keyOf(p) === k)));
      placed.add(k);
    } else out.push(item);
  }
  for (const item of patch) if (!placed.has(keyOf(item))) out.push(item);
  return out;
}

/** Paths (dotted) that lead to a keyed list: where the walk below has to look. */
const PREFIXES = new Set(Object.keys(STRATEGIC_MERGE_KEYS).flatMap((path) => path.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'))));

/**
 * The strategic merge patch `patch` for `object`, with every keyed list that has an ambiguous key
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
      const directives = value.some((item) => !isJsonObject(item) || Object.keys(item).some((k) => k.startsWith('$')));
      const merged = directives ? undefined : mergeAmbiguous(Array.isArray(existing) ? existing : [], value, mergeKey);
      if (merged === undefined) continue;
      out ??= { ...patch };
      if (Array.isArray(existing) && jsonEqual(merged, existing)) delete out[name];
      else out[name] = [{ $patch: 'replace' }, ...merged];
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
