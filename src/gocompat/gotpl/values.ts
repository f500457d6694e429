/**
 * How Go values are represented in JS, so builtins and sprig behave as they do on kwok's data
 * (the object JSON-decoded into interface{} with UseNumber):
 *
 *   Go                         JS
 *   invalid (missing map key)  undefined
 *   nil interface              null
 *   bool / string              boolean / string
 *   int                        integral number
 *   int64                      bigint
 *   float64                    non-integral number, or GoFloat (keeps 3.0 a float)
 *   json.Number                JsonNumber (a string kind: numbers in data print their JSON text)
 *   []interface{}              Array ([]string etc. via tagType)
 *   map[string]interface{}     plain object
 *   time.Time                  GoTime (go-time.ts)
 *   func                       function
 */

/** json.Number: data numbers keep their exact JSON text, and behave as strings in comparisons, as in kwok. */
export class JsonNumber {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** A float64 whose value happens to be integral (3.0), so it still prints and compares as a float. */
export class GoFloat {
  constructor(readonly value: number) {}
}

export class GoComplex {
  constructor(
    readonly re: number,
    readonly im: number,
  ) {}
}

/**
 * Objects with Go methods callable from templates ({{ now.Unix }}, {{ (semver "1.2.3").Major }}).
 * Each method receives the receiver first.
 */
export interface GoObject {
  readonly goTypeName: string;
  readonly goKind: 'struct' | 'ptr';
  goMethod(name: string): ((...args: unknown[]) => unknown) | undefined;
  /** fmt.Stringer, when the type has a String method. */
  String?(): string;
}

export function isGoObject(v: unknown): v is GoObject {
  return typeof v === 'object' && v !== null && typeof (v as Partial<GoObject>).goMethod === 'function';
}

/** Returns a float64 value: plain numbers when non-integral, GoFloat otherwise. */
export function float64(n: number): number | GoFloat {
  return Number.isInteger(n) || Object.is(n, -0) ? new GoFloat(n) : n;
}

const typeTags = new WeakMap<object, string>();

const nilSlices = new WeakSet<unknown[]>();

/** A Go nil slice (what sprig's rest/initial return for an empty list): prints [] but marshals to null. */
export function nilSlice(): unknown[] {
  const s: unknown[] = [];
  nilSlices.add(s);
  return s;
}

export function isNilSlice(v: unknown): boolean {
  return Array.isArray(v) && nilSlices.has(v);
}

/** Records a more specific Go type for a container (e.g. "[]string" for splitList's result). */
export function tagType<T extends object>(v: T, goType: string): T {
  typeTags.set(v, goType);
  return v;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

export type GoKind =
  | 'invalid'
  | 'bool'
  | 'int'
  | 'int64'
  | 'uint8'
  | 'float64'
  | 'complex128'
  | 'string'
  | 'slice'
  | 'map'
  | 'func'
  | 'struct'
  | 'ptr';

/** reflect.Kind of the concrete value (nil and missing are both "invalid"). */
export function kindOf(v: unknown): GoKind {
  switch (typeof v) {
    case 'undefined':
      return 'invalid';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(v) && !Object.is(v, -0) ? 'int' : 'float64';
    case 'bigint':
      return 'int64';
    case 'function':
      return 'func';
    case 'object':
      if (v === null) return 'invalid';
      if (Array.isArray(v)) return 'slice';
      if (v instanceof JsonNumber) return 'string';
      if (v instanceof GoFloat) return 'float64';
      if (v instanceof GoComplex) return 'complex128';
      if (isGoObject(v)) return v.goKind;
      if (isPlainObject(v)) return 'map';
      return 'struct';
  }
  return 'invalid';
}

/** fmt's %T: the Go type name. */
export function typeName(v: unknown): string {
  switch (typeof v) {
    case 'undefined':
      return '<nil>';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(v) && !Object.is(v, -0) ? 'int' : 'float64';
    case 'bigint':
      return 'int64';
    case 'function':
      return 'func(...interface {}) interface {}';
    case 'object': {
      if (v === null) return '<nil>';
      const tag = typeTags.get(v);
      if (tag !== undefined) return tag;
      if (Array.isArray(v)) return '[]interface {}';
      if (v instanceof JsonNumber) return 'json.Number';
      if (v instanceof GoFloat) return 'float64';
      if (v instanceof GoComplex) return 'complex128';
      if (isGoObject(v)) return v.goTypeName;
      if (isPlainObject(v)) return 'map[string]interface {}';
      return (v as object).constructor?.name ?? 'struct {}';
    }
  }
  return '<nil>';
}

/** The element type of a container, for %#v ("interface {}" unless tagged). */
export function elemTypeName(v: object): string {
  const t = typeName(v);
  if (t.startsWith('[]')) return t.slice(2);
  if (t.startsWith('map[string]')) return t.slice('map[string]'.length);
  return 'interface {}';
}

/** Whether the value is a Go string kind (string or json.Number). */
export function isStringKind(v: unknown): v is string | JsonNumber {
  return typeof v === 'string' || v instanceof JsonNumber;
}

/** The bytes-as-text of a string-kind value. */
export function stringOf(v: string | JsonNumber): string {
  return typeof v === 'string' ? v : v.text;
}

/** A float64 value's number, or undefined when v is not a float64. */
export function floatValue(v: unknown): number | undefined {
  if (v instanceof GoFloat) return v.value;
  if (typeof v === 'number' && (!Number.isInteger(v) || Object.is(v, -0))) return v;
  return undefined;
}

/** An int or int64 value as a bigint, or undefined when v is not an integer kind. */
export function intValue(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isInteger(v) && !Object.is(v, -0)) return BigInt(v);
  return undefined;
}

/** text/template's truth: false, 0, nil, and empty strings, slices and maps are false. */
export function isTrue(v: unknown): boolean {
  switch (typeof v) {
    case 'undefined':
      return false;
    case 'boolean':
      return v;
    case 'string':
      return v.length > 0;
    case 'number':
      return v !== 0;
    case 'bigint':
      return v !== 0n;
    case 'function':
      return true;
    case 'object': {
      if (v === null) return false;
      if (Array.isArray(v)) return v.length > 0;
      if (v instanceof JsonNumber) return v.text.length > 0;
      if (v instanceof GoFloat) return v.value !== 0;
      if (v instanceof GoComplex) return v.re !== 0 || v.im !== 0;
      if (isPlainObject(v)) {
        for (const _ in v) return true;
        return false;
      }
      return true;
    }
  }
  return true;
}

/** Length in bytes of the UTF-8 encoding, as Go's len(string). */
export function byteLength(s: string): number {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(s) ? s.length : Buffer.byteLength(s, 'utf8');
}

/** Go's s[i:j] on the UTF-8 bytes of s. */
export function byteSlice(s: string, i: number, j: number): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s.slice(i, j);
  return Buffer.from(s, 'utf8').subarray(i, j).toString('utf8');
}

/** Go's s[i] on the UTF-8 bytes of s. */
export function byteAt(s: string, i: number): number {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s.charCodeAt(i);
  return Buffer.from(s, 'utf8')[i] as number;
}

/**
 * Sets a map entry. "__proto__" is an ordinary key in Go maps (and in JSON), but assigning it on a
 * JS object would replace the prototype instead.
 */
export function setEntry(m: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(m, key, { value, enumerable: true, writable: true, configurable: true });
  else m[key] = value;
}

/** Map keys in Go's sorted order (byte order of the UTF-8 keys). */
export function sortedKeys(m: Record<string, unknown>): string[] {
  const keys = Object.keys(m);
  return keys.length < 2 ? keys : keys.sort(compareStrings);
}

/** Go string comparison (UTF-8 byte order). Differs from JS's UTF-16 order only above U+FFFF. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys && (x >= 0xe000 || y >= 0xe000)) return xs ? 1 : -1;
      return x < y ? -1 : 1;
    }
  }
  return a.length - b.length;
}

/**
 * Copies JSON-like data into template values: numbers become json.Number as kwok's decoder does,
 * and the copy keeps sprig's mutating functions (set, unset, merge) away from the caller's object.
 */
export function toTemplateData(v: unknown): unknown {
  switch (typeof v) {
    case 'number':
      return new JsonNumber(formatJsonNumber(v));
    case 'bigint':
      return new JsonNumber(v.toString());
    case 'object': {
      if (v === null) return null;
      if (Array.isArray(v)) {
        const out = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) {
          const e = v[i] as unknown;
          out[i] = e === undefined ? null : toTemplateData(e);
        }
        return out;
      }
      if (v instanceof JsonNumber || v instanceof GoFloat || v instanceof GoComplex || isGoObject(v)) return v;
      // Anything else goes the way of a JSON round trip, as kwok's renderer does: toJSON() if
      // present (Date becomes its ISO string), otherwise the own enumerable properties.
      const json = (v as { toJSON?: () => unknown }).toJSON;
      if (typeof json === 'function') return toTemplateData(json.call(v));
      const src = v as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(src)) {
        const e = src[k];
        if (e !== undefined && typeof e !== 'function' && typeof e !== 'symbol') setEntry(out, k, toTemplateData(e));
      }
      return out;
    }
    default:
      return v;
  }
}

/** A JS number as Go's encoding/json writes a float64 (same as JS, except -0). */
export function formatJsonNumber(n: number): string {
  if (Object.is(n, -0)) return '-0';
  return String(n);
}
