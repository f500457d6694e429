/**
 * Conversions sprig relies on: spf13/cast (ToInt64, ToInt, ToFloat64), sprig's strval/strslice
 * and empty, reflect.DeepEqual and copystructure's deep copy, all on the values.ts model.
 */
import { FuncError } from '../errors.js';
import { formatValue } from '../fmt.js';
import { parseFloat64, parseInt64 } from '../go-numbers.js';
import { GoComplex, GoFloat, JsonNumber, float64, isGoObject, isPlainObject, kindOf, setEntry, tagType, typeName } from '../values.js';

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** Wraps to int64, as Go integer arithmetic does. */
export function int64(v: bigint): bigint {
  return BigInt.asIntN(64, v);
}

/** cast's trimZeroDecimal: "1.0" → "1", but "1.5" stays. */
function trimZeroDecimal(s: string): string {
  let foundZero = false;
  for (let i = s.length; i > 0; i--) {
    const c = s[i - 1];
    if (c === '.') {
      if (foundZero) return s.slice(0, i - 1);
    } else if (c === '0') {
      foundZero = true;
    } else {
      return s;
    }
  }
  return s;
}

function floatToInt64(f: number): bigint {
  if (!Number.isFinite(f)) return INT64_MIN;
  const b = BigInt(Math.trunc(f));
  return b < INT64_MIN || b > INT64_MAX ? INT64_MIN : b;
}

/** cast.ToInt64 (errors become 0). */
export function toInt64(v: unknown): bigint {
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) ? BigInt(v) : floatToInt64(v);
    case 'bigint':
      return v;
    case 'boolean':
      return v ? 1n : 0n;
    case 'string':
      return parseInt64(trimZeroDecimal(v)) ?? 0n;
  }
  if (v instanceof GoFloat) return floatToInt64(v.value);
  if (v instanceof JsonNumber) return parseInt64(trimZeroDecimal(v.text)) ?? 0n;
  return 0n;
}

/** cast.ToInt: an int (JS number). */
export function toInt(v: unknown): number {
  return Number(toInt64(v));
}

/** cast.ToFloat64 (errors become 0); returns the JS number. */
export function toFloat(v: unknown): number {
  switch (typeof v) {
    case 'number':
      return v;
    case 'bigint':
      return Number(v);
    case 'boolean':
      return v ? 1 : 0;
    case 'string':
      return parseFloat64(v) ?? 0;
  }
  if (v instanceof GoFloat) return v.value;
  if (v instanceof JsonNumber) return parseFloat64(v.text) ?? 0;
  return 0;
}

/** cast.ToFloat64 as a Go float64 value. */
export function toFloat64(v: unknown): unknown {
  return float64(toFloat(v));
}

/** sprig's strval: strings as is, Stringers via String(), everything else with %v. */
export function strval(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof JsonNumber) return v.text;
  if (v instanceof Error) return v.message;
  if (isGoObject(v) && typeof v.String === 'function') return v.String();
  return formatValue(v === undefined ? null : v);
}

/** sprig's strslice: a []string of the non-nil elements (or the value itself). */
export function strslice(v: unknown): string[] {
  if (Array.isArray(v)) return tagType(v.filter((e) => e !== null && e !== undefined).map(strval), '[]string');
  if (v === null || v === undefined) return tagType([], '[]string');
  return tagType([strval(v)], '[]string');
}

/** sprig's empty: the zero value of its type (nil, 0, "", false, empty collections). */
export function empty(v: unknown): boolean {
  switch (kindOf(v)) {
    case 'invalid':
      return true;
    case 'bool':
      return v === false;
    case 'string':
      return (typeof v === 'string' ? v : (v as JsonNumber).text).length === 0;
    case 'int':
      return v === 0;
    case 'int64':
      return v === 0n;
    case 'float64':
      return (v instanceof GoFloat ? v.value : (v as number)) === 0;
    case 'complex128':
      return (v as GoComplex).re === 0 && (v as GoComplex).im === 0;
    case 'slice':
      return (v as unknown[]).length === 0;
    case 'map':
      return Object.keys(v as object).length === 0;
    case 'struct':
      return false;
    default:
      return false;
  }
}

/** reflect.Kind name, as sprig's error messages print it. */
export function kindName(v: unknown): string {
  return kindOf(v === null ? undefined : v);
}

/** Throws like Go's reflect.TypeOf(nil).Kind(): a nil pointer dereference. */
export function requireNonNil(v: unknown): void {
  if (v === null || v === undefined) throw new FuncError('runtime error: invalid memory address or nil pointer dereference');
}

/** reflect.DeepEqual on template values (types must match too: json.Number 1 is not int 1). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === null || b === null) return a === b;
  if (typeName(a) !== typeName(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((e, i) => deepEqual(e, bb[i]));
  }
  if (isPlainObject(a)) {
    const bb = b as Record<string, unknown>;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(bb).length) return false;
    return ka.every((k) => Object.hasOwn(bb, k) && deepEqual(a[k], bb[k]));
  }
  if (a instanceof JsonNumber) return a.text === (b as JsonNumber).text;
  if (a instanceof GoFloat) return a.value === (b as GoFloat).value;
  if (a instanceof GoComplex) return a.re === (b as GoComplex).re && a.im === (b as GoComplex).im;
  if (isGoObject(a) && typeof a.String === 'function') return a.String() === (b as { String(): string }).String();
  return a === b;
}

/** copystructure.Copy: maps and slices are copied deeply; scalars are immutable. */
export function deepCopy(v: unknown): unknown {
  if (Array.isArray(v)) {
    const out = v.map(deepCopy);
    const t = typeName(v);
    return t === '[]interface {}' ? out : tagType(out, t);
  }
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) setEntry(out, k, deepCopy(v[k]));
    const t = typeName(v);
    return t === 'map[string]interface {}' ? out : tagType(out, t);
  }
  return v;
}
