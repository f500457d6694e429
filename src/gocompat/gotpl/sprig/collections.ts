/**
 * sprig v3.3.0 lists (list.go) and dicts (dict.go), including mergo-style merge/mergeOverwrite.
 * Non-"must" variants fail the same way as the must ones: sprig panics and Go's template engine
 * turns the panic into an error.
 */
import { FuncError } from '../errors.js';
import { typed, type FuncMap, type TemplateFunc } from '../signature.js';
import { isPlainObject, nilSlice, setEntry, tagType, typeName } from '../values.js';
import { deepEqual, empty, kindName, requireNonNil, strval, toInt } from './conv.js';

type Dict = Record<string, unknown>;

function asList(v: unknown, what: string): unknown[] {
  requireNonNil(v);
  if (Array.isArray(v)) return v;
  throw new FuncError(`Cannot ${what} on type ${kindName(v)}`);
}

function inList(haystack: readonly unknown[], needle: unknown): boolean {
  return haystack.some((h) => deepEqual(needle, h));
}

function listSlice(list: unknown, indices: unknown[]): unknown {
  requireNonNil(list);
  if (!Array.isArray(list)) throw new FuncError(`list should be type of slice or array but ${kindName(list)}`);
  const l = list.length;
  if (l === 0) return null;
  const start = indices.length > 0 ? toInt(indices[0]) : 0;
  const end = indices.length < 2 ? l : toInt(indices[1]);
  if (start < 0 || end < start || end > l) throw new FuncError('reflect.Value.Slice: slice index out of bounds');
  const out = list.slice(start, end);
  const t = typeName(list);
  return t === '[]interface {}' ? out : tagType(out, t);
}

function chunk(size: number, list: unknown): unknown[][] {
  requireNonNil(list);
  if (!Array.isArray(list)) throw new FuncError(`Cannot chunk type ${kindName(list)}`);
  const l = list.length;
  const cs = Math.floor((l - 1) / size) + 1;
  const out: unknown[][] = [];
  for (let i = 0; i < cs; i++) {
    let clen = size;
    if (i === cs - 1) {
      clen = Math.floor(l % size);
      if (clen === 0) clen = size;
    }
    out.push(list.slice(i * size, i * size + clen));
  }
  return tagType(out, '[][]interface {}');
}

function dig(ps: unknown[]): unknown {
  if (ps.length < 3) throw new FuncError('dig needs at least three arguments');
  const dict = ps[ps.length - 1];
  if (!isPlainObject(dict)) throw new FuncError(`interface conversion: interface {} is ${typeName(dict)}, not map[string]interface {}`);
  const def = ps[ps.length - 2];
  const keys = ps.slice(0, -2).map((k) => {
    if (typeof k !== 'string') throw new FuncError(`interface conversion: interface {} is ${typeName(k)}, not string`);
    return k;
  });
  let cur: Dict = dict;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    if (!Object.hasOwn(cur, k)) return def;
    const step = cur[k];
    if (i === keys.length - 1) return step;
    if (!isPlainObject(step)) throw new FuncError(`interface conversion: interface {} is ${typeName(step)}, not map[string]interface {}`);
    cur = step;
  }
  return def;
}

function requireDict(d: unknown): Dict | null {
  if (d === null || d === undefined) return null;
  return d as Dict;
}

/** mergo.Merge / MergeWithOverwrite for map[string]interface{} values. */
function mergeInto(dst: Dict, src: Dict, overwrite: boolean): void {
  for (const key of Object.keys(src)) {
    const s = src[key];
    if (s === null || s === undefined) {
      if (overwrite) setEntry(dst, key, null);
      continue;
    }
    const has = Object.hasOwn(dst, key);
    const d = has ? dst[key] : undefined;
    if (isPlainObject(s) && isPlainObject(d)) mergeInto(d, s, overwrite);
    const dEmpty = !has || empty(d);
    if (has && !empty(d)) {
      if (Array.isArray(s)) continue;
      if (isPlainObject(s) && isPlainObject(d)) continue;
    }
    if (overwrite || dEmpty) setEntry(dst, key, s);
  }
}

function merge(overwrite: boolean): TemplateFunc {
  return typed(
    ['map'],
    (dst, ...srcs) => {
      let d = requireDict(dst);
      for (const src of srcs) {
        if (!isPlainObject(src)) return '';
        d ??= {};
        mergeInto(d, src, overwrite);
      }
      return d;
    },
    'any',
  );
}

export function sprigCollections(): FuncMap {
  const push = typed(['any', 'any'], (list, v) => [...asList(list, 'push'), v]);
  const prepend = typed(['any', 'any'], (list, v) => [v, ...asList(list, 'prepend')]);
  const first = typed(['any'], (list) => {
    const l = asList(list, 'find first');
    return l.length === 0 ? null : l[0];
  });
  const last = typed(['any'], (list) => {
    const l = asList(list, 'find last');
    return l.length === 0 ? null : l[l.length - 1];
  });
  const rest = typed(['any'], (list) => {
    const l = asList(list, 'find rest');
    return l.length === 0 ? nilSlice() : l.slice(1);
  });
  const initial = typed(['any'], (list) => {
    const l = asList(list, 'find initial');
    return l.length === 0 ? nilSlice() : l.slice(0, -1);
  });
  const reverse = typed(['any'], (v) => [...asList(v, 'find reverse')].reverse());
  const compact = typed(['any'], (list) => asList(list, 'compact').filter((e) => !empty(e)));
  const uniq = typed(['any'], (list) => {
    const dest: unknown[] = [];
    for (const item of asList(list, 'find uniq')) if (!inList(dest, item)) dest.push(item);
    return dest;
  });
  const without = typed(['any'], (list, ...omit) => asList(list, 'find without').filter((e) => !inList(omit, e)), 'any');
  const has = typed(['any', 'any'], (needle, haystack) => {
    if (haystack === null || haystack === undefined) return false;
    return inList(asList(haystack, 'find has'), needle);
  });
  const slice = typed(['any'], (list, ...indices) => listSlice(list, indices), 'any');
  const chunker = typed(['int', 'any'], (size, list) => chunk(size as number, list));
  return {
    list: typed([], (...v) => v, 'any'),
    tuple: typed([], (...v) => v, 'any'),
    append: push,
    push,
    mustAppend: push,
    mustPush: push,
    prepend,
    mustPrepend: prepend,
    first,
    mustFirst: first,
    last,
    mustLast: last,
    rest,
    mustRest: rest,
    initial,
    mustInitial: initial,
    reverse,
    mustReverse: reverse,
    compact,
    mustCompact: compact,
    uniq,
    mustUniq: uniq,
    without,
    mustWithout: without,
    has,
    mustHas: has,
    slice,
    mustSlice: slice,
    chunk: chunker,
    mustChunk: chunker,
    concat: typed(
      [],
      (...lists) => {
        const res: unknown[] = [];
        for (const l of lists) {
          requireNonNil(l);
          if (!Array.isArray(l)) throw new FuncError(`Cannot concat type ${kindName(l)} as list`);
          res.push(...l);
        }
        return res.length === 0 ? nilSlice() : res;
      },
      'any',
    ),
    dig: typed([], (...ps) => dig(ps), 'any'),

    dict: typed(
      [],
      (...v) => {
        const d: Dict = {};
        for (let i = 0; i < v.length; i += 2) setEntry(d, strval(v[i]), i + 1 >= v.length ? '' : v[i + 1]);
        return d;
      },
      'any',
    ),
    get: typed(['map', 'string'], (d, key) => {
      const m = requireDict(d);
      return m !== null && Object.hasOwn(m, key as string) ? m[key as string] : '';
    }),
    set: typed(['map', 'string', 'any'], (d, key, value) => {
      const m = requireDict(d);
      if (m === null) throw new FuncError('assignment to entry in nil map');
      setEntry(m, key as string, value);
      return m;
    }),
    unset: typed(['map', 'string'], (d, key) => {
      const m = requireDict(d);
      if (m !== null) delete m[key as string];
      return m;
    }),
    hasKey: typed(['map', 'string'], (d, key) => {
      const m = requireDict(d);
      return m !== null && Object.hasOwn(m, key as string);
    }),
    pluck: typed(
      ['string'],
      (key, ...dicts) => {
        const res: unknown[] = [];
        for (const d of dicts) {
          const m = requireDict(d);
          if (m !== null && Object.hasOwn(m, key as string)) res.push(m[key as string]);
        }
        return res;
      },
      'map',
    ),
    keys: typed(
      [],
      (...dicts) => {
        const k: string[] = [];
        for (const d of dicts) if (d !== null) k.push(...Object.keys(d as Dict));
        return tagType(k, '[]string');
      },
      'map',
    ),
    pick: typed(
      ['map'],
      (d, ...keys) => {
        const m = requireDict(d) ?? {};
        const res: Dict = {};
        for (const k of keys as string[]) if (Object.hasOwn(m, k)) setEntry(res, k, m[k]);
        return res;
      },
      'string',
    ),
    omit: typed(
      ['map'],
      (d, ...keys) => {
        const m = requireDict(d) ?? {};
        const drop = new Set(keys as string[]);
        const res: Dict = {};
        for (const k of Object.keys(m)) if (!drop.has(k)) setEntry(res, k, m[k]);
        return res;
      },
      'string',
    ),
    values: typed(['map'], (d) => Object.values(requireDict(d) ?? {})),
    merge: merge(false),
    mustMerge: merge(false),
    mergeOverwrite: merge(true),
    mustMergeOverwrite: merge(true),
  };
}

