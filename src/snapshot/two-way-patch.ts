/**
 * A strategic merge patch that turns `original` into `modified` (what the apiserver, kubectl and
 * kwokctl's recorder produce for the same pair): maps are diffed key by key (a removed key becomes
 * null); lists the schema marks `merge` are diffed element by element, by merge key for lists of
 * objects (a removed element is `{key: v, $patch: delete}`) and by value for lists of scalars
 * (removed values go in `$deleteFromPrimitiveList/<field>`), with `$setElementOrder/<field>`
 * giving the new order; every other list, and every value whose type changed, is replaced whole.
 */
import { isDeepStrictEqual } from 'node:util';
import type { PatchSchema } from './patch-schema.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonMap = { [key: string]: Json };

function isMap(v: unknown): v is JsonMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function createTwoWayMergePatch(original: JsonMap, modified: JsonMap, schema: PatchSchema): JsonMap {
  return diffMaps(original, modified, schema);
}

function diffMaps(original: JsonMap, modified: JsonMap, schema: PatchSchema): JsonMap {
  const patch: JsonMap = {};
  for (const [key, value] of Object.entries(modified)) {
    const before = original[key];
    if (!(key in original)) {
      patch[key] = value;
      continue;
    }
    if (isDeepStrictEqual(before, value)) continue;
    const { meta, schema: sub } = schema.field(key);
    if (isMap(before) && isMap(value)) {
      const inner = diffMaps(before, value, sub);
      if (Object.keys(inner).length > 0) patch[key] = inner;
    } else if (Array.isArray(before) && Array.isArray(value) && meta.strategies.includes('merge')) {
      Object.assign(patch, diffMergeList(key, before, value, meta.mergeKey, sub));
    } else {
      patch[key] = value;
    }
  }
  for (const key of Object.keys(original)) if (!(key in modified)) patch[key] = null;
  return patch;
}

function diffMergeList(key: string, before: Json[], after: Json[], mergeKey: string | undefined, schema: PatchSchema): JsonMap {
  const objects = [...before, ...after].every(isMap);
  if (objects && mergeKey) {
    const keyOf = (v: Json): string => JSON.stringify((v as JsonMap)[mergeKey] ?? null);
    const old = new Map(before.map((v) => [keyOf(v), v as JsonMap]));
    const now = new Set(after.map(keyOf));
    const changes: Json[] = [];
    for (const item of after as JsonMap[]) {
      const previous = old.get(keyOf(item));
      if (!previous) changes.push(item);
      else {
        const inner = diffMaps(previous, item, schema);
        if (Object.keys(inner).length > 0) changes.push({ [mergeKey]: item[mergeKey] ?? null, ...inner });
      }
    }
    for (const item of before as JsonMap[]) if (!now.has(keyOf(item))) changes.push({ [mergeKey]: item[mergeKey] ?? null, $patch: 'delete' });
    if (changes.length === 0) return {};
    return { [`$setElementOrder/${key}`]: (after as JsonMap[]).map((item) => ({ [mergeKey]: item[mergeKey] ?? null })), [key]: changes };
  }
  if (!objects && [...before, ...after].every((v) => !isMap(v) && !Array.isArray(v))) {
    const had = new Set(before.map((v) => JSON.stringify(v)));
    const has = new Set(after.map((v) => JSON.stringify(v)));
    const added = after.filter((v) => !had.has(JSON.stringify(v)));
    const removed = before.filter((v) => !has.has(JSON.stringify(v)));
    const patch: JsonMap = { [`$setElementOrder/${key}`]: after };
    if (added.length > 0) patch[key] = added;
    if (removed.length > 0) patch[`$deleteFromPrimitiveList/${key}`] = removed;
    return patch;
  }
  // Mixed lists, or objects without a merge key: nothing to merge by.
  return { [key]: after };
}
