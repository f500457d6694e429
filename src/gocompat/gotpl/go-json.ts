/**
 * Go's encoding/json for template values: Marshal (sorted map keys, HTML-safe escaping of <, >, &,
 * json.Number written verbatim) and Unmarshal into interface{} (numbers as float64, or as
 * json.Number with UseNumber, which is how kwok decodes the object a template sees).
 */
import { FuncError } from './errors.js';
import {
  GoComplex,
  GoFloat,
  JsonNumber,
  float64,
  formatJsonNumber,
  isGoObject,
  isNilSlice,
  isPlainObject,
  setEntry,
  sortedKeys,
  typeName,
} from './values.js';

export interface MarshalOptions {
  /** Escape <, > and & as \u003c etc. (json.Marshal does; toRawJson turns it off). */
  escapeHTML?: boolean;
  /** MarshalIndent's indent (prefix is always empty here). */
  indent?: string;
}

/** Values that marshal themselves (time.Time as RFC 3339, semver as its string). */
export interface JsonMarshaler {
  goMarshalJSON(): string;
}

function isJsonMarshaler(v: unknown): v is JsonMarshaler {
  return typeof v === 'object' && v !== null && typeof (v as Partial<JsonMarshaler>).goMarshalJSON === 'function';
}

const HEX = '0123456789abcdef';

/** Whether any character needs escaping (a plain loop beats a Unicode-range regex on short strings). */
function needsEscape(s: string, escapeHTML: boolean): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) return true;
    if (escapeHTML && (c === 0x3c || c === 0x3e || c === 0x26)) return true;
    if (c >= 0x2028 && (c === 0x2028 || c === 0x2029 || (c >= 0xd800 && c <= 0xdfff))) return true;
  }
  return false;
}

/** encoding/json's string encoder. */
export function encodeJsonString(s: string, escapeHTML = true): string {
  if (!needsEscape(s, escapeHTML)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c && !(escapeHTML && (c === 0x3c || c === 0x3e || c === 0x26))) {
        out += s[i];
        continue;
      }
      switch (c) {
        case 0x5c:
        case 0x22:
          out += '\\' + s[i];
          break;
        case 0x08:
          out += '\\b';
          break;
        case 0x0c:
          out += '\\f';
          break;
        case 0x0a:
          out += '\\n';
          break;
        case 0x0d:
          out += '\\r';
          break;
        case 0x09:
          out += '\\t';
          break;
        default:
          out += '\\u00' + HEX[c >> 4] + HEX[c & 0xf];
      }
      continue;
    }
    if (c === 0x2028 || c === 0x2029) {
      out += c === 0x2028 ? '\\u2028' : '\\u2029';
      continue;
    }
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += s[i] + (s[i + 1] as string);
        i++;
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      out += '\\ufffd'; // not valid UTF-8 on the Go side
      continue;
    }
    out += s[i];
  }
  return out + '"';
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function marshalNumber(n: number): string {
  if (!Number.isFinite(n)) throw new FuncError(`json: unsupported value: ${formatGoFloat(n)}`);
  return formatJsonNumber(n);
}

function formatGoFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  return n > 0 ? '+Inf' : '-Inf';
}

function marshalValue(v: unknown, opts: Required<MarshalOptions>, seen: Set<object>, level: string): string {
  switch (typeof v) {
    case 'undefined':
      return 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'string':
      return encodeJsonString(v, opts.escapeHTML);
    case 'number':
      return marshalNumber(v);
    case 'bigint':
      return v.toString();
    case 'function':
      throw new FuncError(`json: unsupported type: ${typeName(v)}`);
  }
  if (v === null) return 'null';
  if (v instanceof JsonNumber) {
    const text = v.text === '' ? '0' : v.text;
    if (!JSON_NUMBER.test(text)) throw new FuncError(`json: invalid number literal ${JSON.stringify(v.text)}`);
    return text;
  }
  if (v instanceof GoFloat) return marshalNumber(v.value);
  if (v instanceof GoComplex) throw new FuncError('json: unsupported type: complex128');
  if (isJsonMarshaler(v)) return v.goMarshalJSON();
  const obj = v as object;
  if (seen.has(obj)) throw new FuncError(`json: unsupported value: encountered a cycle via ${typeName(v)}`);
  seen.add(obj);
  try {
    const inner = opts.indent === '' ? '' : level + opts.indent;
    const nl = opts.indent === '' ? '' : '\n';
    if (Array.isArray(v)) {
      if (v.length === 0) return isNilSlice(v) ? 'null' : '[]';
      const parts = v.map((e: unknown) => inner + marshalValue(e, opts, seen, inner));
      return `[${nl}${parts.join(',' + nl)}${nl}${opts.indent === '' ? '' : level}]`;
    }
    if (isPlainObject(v)) {
      const keys = sortedKeys(v);
      if (keys.length === 0) return '{}';
      const colon = opts.indent === '' ? ':' : ': ';
      const parts = keys.map((k) => inner + encodeJsonString(k, opts.escapeHTML) + colon + marshalValue(v[k], opts, seen, inner));
      return `{${nl}${parts.join(',' + nl)}${nl}${opts.indent === '' ? '' : level}}`;
    }
    if (isGoObject(v) && typeof v.String === 'function') return encodeJsonString(v.String(), opts.escapeHTML);
    return '{}';
  } finally {
    seen.delete(obj);
  }
}

/** json.Marshal / json.MarshalIndent(v, "", indent). Throws FuncError with Go's message. */
export function marshalJson(v: unknown, options: MarshalOptions = {}): string {
  if (typeof v === 'string') return encodeJsonString(v, options.escapeHTML ?? true);
  return marshalValue(v, { escapeHTML: options.escapeHTML ?? true, indent: options.indent ?? '' }, new Set(), '');
}

export type NumberMode = 'json.Number' | 'float64';

class JsonSyntaxError extends FuncError {}

/** json.Unmarshal into interface{}; numbers decode as float64, or as json.Number (UseNumber). */
export function unmarshalJson(text: string, numbers: NumberMode = 'float64'): unknown {
  let i = 0;
  const n = text.length;
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      i++;
    }
  };
  const fail = (context: string): never => {
    if (i >= n) throw new JsonSyntaxError('unexpected end of JSON input');
    throw new JsonSyntaxError(`invalid character ${describeChar(text[i] as string)} ${context}`);
  };
  const value = (): unknown => {
    ws();
    if (i >= n) fail('looking for beginning of value');
    const c = text[i] as string;
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      ws();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('looking for beginning of object key string');
        const key = str();
        ws();
        if (text[i] !== ':') fail('after object key');
        i++;
        setEntry(obj, key, value());
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return obj;
        }
        fail('after object key:value pair');
      }
    }
    if (c === '[') {
      i++;
      const arr: unknown[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(value());
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        fail('after array element');
      }
    }
    if (c === '"') return str();
    if (c === '-' || (c >= '0' && c <= '9')) {
      const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
      if (!m) {
        i++;
        fail('in numeric literal');
      }
      const lit = (m as RegExpExecArray)[0];
      i += lit.length;
      return numbers === 'json.Number' ? new JsonNumber(lit) : float64(Number(lit));
    }
    for (const [word, val] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return val;
      }
    }
    return fail('looking for beginning of value');
  };
  const str = (): string => {
    const start = i;
    i++;
    let simple = true;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) {
        simple = false;
        i += 2;
        continue;
      }
      if (c < 0x20) fail('in string literal');
      i++;
    }
    if (i >= n) fail('in string literal');
    i++;
    const raw = text.slice(start, i);
    if (simple) return raw.slice(1, -1);
    try {
      return JSON.parse(raw) as string;
    } catch {
      throw new JsonSyntaxError('invalid character in string escape code');
    }
  };
  const result = value();
  ws();
  if (i < n) fail('after top-level value');
  return result;
}

function describeChar(c: string): string {
  if (c === "'") return "'\\''";
  if (c === '"') return "'\"'";
  return `'${c}'`;
}
