/*
 * Go text/template's predefined functions, ported from Go's src/text/template/funcs.go.
 *
 * Copyright 2011 The Go Authors. All rights reserved.
 * Use of this source code is governed by a BSD-style license:
 * https://go.dev/LICENSE (BSD-3-Clause). Modifications: TypeScript port for kwokts.
 *
 * Functions throw FuncError with Go's error text; the executor reports "error calling <name>: ...".
 * Parameters typed 'value' receive undefined for a missing value and null for a nil interface.
 */
import { FuncError } from './errors.js';
import { sprint, sprintf, sprintln } from './fmt.js';
import { isPrint } from './quote.js';
import { typed, type FuncMap, type TemplateFunc } from './signature.js';
import {
  GoComplex,
  GoFloat,
  JsonNumber,
  byteAt,
  byteLength,
  byteSlice,
  compareStrings,
  isGoObject,
  isPlainObject,
  isTrue,
  kindOf,
  typeName,
} from './values.js';

/** indirectInterface: a nil interface is no value at all. */
function concrete(v: unknown): unknown {
  return v === null ? undefined : v;
}

function indexArg(index: unknown, cap: number): number {
  let x: bigint;
  if (typeof index === 'number' && Number.isInteger(index) && !Object.is(index, -0)) x = BigInt(index);
  else if (typeof index === 'bigint') x = index;
  else if (index === undefined || index === null) throw new FuncError('cannot index slice/array with nil');
  else throw new FuncError(`cannot index slice/array with type ${typeName(index)}`);
  if (x < 0n || x > BigInt(cap)) throw new FuncError(`index out of range: ${x}`);
  return Number(x);
}

/** prepareArg for a map key: map keys here are always strings. */
function mapKey(index: unknown): string {
  if (index === undefined || index === null) throw new FuncError('value is nil; should be of type string');
  if (typeof index === 'string') return index;
  throw new FuncError(`value has type ${typeName(index)}; should be string`);
}

function index(item: unknown, ...indexes: unknown[]): unknown {
  item = concrete(item);
  if (item === undefined) throw new FuncError('index of untyped nil');
  for (let idx of indexes) {
    idx = concrete(idx);
    if (item === null || item === undefined) throw new FuncError('index of nil pointer');
    if (typeof item === 'string' || item instanceof JsonNumber) {
      const s = typeof item === 'string' ? item : item.text;
      const len = byteLength(s);
      const x = indexArg(idx, len);
      if (x >= len) throw new FuncError('reflect: string index out of range');
      item = byteAt(s, x);
    } else if (Array.isArray(item)) {
      const x = indexArg(idx, item.length);
      if (x >= item.length) throw new FuncError('reflect: slice index out of range');
      item = item[x];
    } else if (isPlainObject(item)) {
      const key = mapKey(idx);
      // A missing key yields the element type's zero value (nil for interface{}).
      item = Object.hasOwn(item, key) ? item[key] : typeName(item) === 'map[string]string' ? '' : null;
    } else {
      throw new FuncError(`can't index item of type ${typeName(item)}`);
    }
  }
  return item;
}

function slice(item: unknown, ...indexes: unknown[]): unknown {
  item = concrete(item);
  if (item === undefined) throw new FuncError('slice of untyped nil');
  if (indexes.length > 3) throw new FuncError(`too many slice indexes: ${indexes.length}`);
  let len: number;
  let str: string | undefined;
  if (typeof item === 'string' || item instanceof JsonNumber) {
    str = typeof item === 'string' ? item : item.text;
    if (indexes.length === 3) throw new FuncError('cannot 3-index slice a string');
    len = byteLength(str);
  } else if (Array.isArray(item)) {
    len = item.length;
  } else {
    throw new FuncError(`can't slice item of type ${typeName(item)}`);
  }
  const idx = [0, len, len];
  indexes.forEach((x, i) => {
    idx[i] = indexArg(concrete(x), len);
  });
  const [i, j, k] = idx as [number, number, number];
  if (i > j) throw new FuncError(`invalid slice index: ${i} > ${j}`);
  if (indexes.length === 3 && j > k) throw new FuncError(`invalid slice index: ${j} > ${k}`);
  if (str !== undefined) {
    const sliced = byteSlice(str, i, j);
    return item instanceof JsonNumber ? new JsonNumber(sliced) : sliced;
  }
  return (item as unknown[]).slice(i, j);
}

function length(item: unknown): number {
  if (item === undefined) throw new FuncError('reflect: call of reflect.Value.Type on zero Value');
  if (item === null) throw new FuncError('len of nil pointer');
  if (typeof item === 'string') return byteLength(item);
  if (item instanceof JsonNumber) return byteLength(item.text);
  if (Array.isArray(item)) return item.length;
  if (isPlainObject(item)) return Object.keys(item).length;
  throw new FuncError(`len of type ${typeName(item)}`);
}

function not(arg: unknown): boolean {
  return !isTrue(arg);
}

type BasicKind = 'invalid' | 'bool' | 'complex' | 'int' | 'float' | 'string';

function basicKind(v: unknown): BasicKind {
  switch (kindOf(v)) {
    case 'bool':
      return 'bool';
    case 'int':
    case 'int64':
    case 'uint8':
      return 'int';
    case 'float64':
      return 'float';
    case 'complex128':
      return 'complex';
    case 'string':
      return 'string';
    default:
      return 'invalid';
  }
}

function asFloat(v: unknown): number {
  return v instanceof GoFloat ? v.value : (v as number);
}

function asBigInt(v: unknown): bigint {
  return typeof v === 'bigint' ? v : BigInt(v as number);
}

function asString(v: unknown): string {
  return typeof v === 'string' ? v : (v as JsonNumber).text;
}

function comparable(v: unknown): boolean {
  return !(Array.isArray(v) || isPlainObject(v) || typeof v === 'function');
}

function eq(arg1: unknown, ...arg2: unknown[]): boolean {
  arg1 = concrete(arg1);
  if (arg2.length === 0) throw new FuncError('missing argument for comparison');
  const k1 = basicKind(arg1);
  for (let arg of arg2) {
    arg = concrete(arg);
    const k2 = basicKind(arg);
    let truth = false;
    if (k1 !== k2) {
      if (arg1 !== undefined && arg !== undefined) {
        throw new FuncError(`incompatible types for comparison: ${typeName(arg1)} and ${typeName(arg)}`);
      }
    } else {
      switch (k1) {
        case 'bool':
          truth = arg1 === arg;
          break;
        case 'complex':
          truth = (arg1 as GoComplex).re === (arg as GoComplex).re && (arg1 as GoComplex).im === (arg as GoComplex).im;
          break;
        case 'float':
          truth = asFloat(arg1) === asFloat(arg);
          break;
        case 'int':
          truth = asBigInt(arg1) === asBigInt(arg);
          break;
        case 'string':
          truth = asString(arg1) === asString(arg);
          break;
        default: {
          const sameKind = kindOf(arg1) === kindOf(arg) || arg1 === undefined || arg === undefined;
          if (!sameKind) {
            throw new FuncError(sprintf('non-comparable types %s: %v, %s: %v', [arg1, typeName(arg1), typeName(arg), arg]));
          }
          if (arg1 === undefined || arg === undefined) {
            truth = (arg1 === undefined) === (arg === undefined);
          } else {
            if (!comparable(arg)) throw new FuncError(sprintf('non-comparable type %s: %v', [arg, typeName(arg)]));
            truth = isGoObject(arg1) && isGoObject(arg) ? sprint([arg1]) === sprint([arg]) : arg1 === arg;
          }
        }
      }
    }
    if (truth) return true;
  }
  return false;
}

function ne(arg1: unknown, arg2: unknown): boolean {
  return !eq(arg1, arg2);
}

function lt(arg1: unknown, arg2: unknown): boolean {
  arg1 = concrete(arg1);
  const k1 = basicKind(arg1);
  if (k1 === 'invalid') throw new FuncError('invalid type for comparison');
  arg2 = concrete(arg2);
  const k2 = basicKind(arg2);
  if (k2 === 'invalid') throw new FuncError('invalid type for comparison');
  if (k1 !== k2) throw new FuncError(`incompatible types for comparison: ${typeName(arg1)} and ${typeName(arg2)}`);
  switch (k1) {
    case 'bool':
    case 'complex':
      throw new FuncError('invalid type for comparison');
    case 'float':
      return asFloat(arg1) < asFloat(arg2);
    case 'int':
      return asBigInt(arg1) < asBigInt(arg2);
    default:
      return compareStrings(asString(arg1), asString(arg2)) < 0;
  }
}

function le(arg1: unknown, arg2: unknown): boolean {
  return lt(arg1, arg2) || eq(arg1, arg2);
}

function gt(arg1: unknown, arg2: unknown): boolean {
  return !le(arg1, arg2);
}

function ge(arg1: unknown, arg2: unknown): boolean {
  return !lt(arg1, arg2);
}

/** evalArgs: fmt.Sprint of the arguments, where a nil argument prints as "<no value>". */
function evalArgs(args: unknown[]): string {
  if (args.length === 1 && typeof args[0] === 'string') return args[0];
  return sprint(args.map((a) => (a === null || a === undefined ? '<no value>' : a)));
}

export function htmlEscapeString(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/['"&<>\x00]/.test(s)) return s;
  return s.replace(/['"&<>\x00]/g, (c) => {
    switch (c) {
      case '"':
        return '&#34;';
      case "'":
        return '&#39;';
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      default:
        return '\uFFFD';
    }
  });
}

export function jsEscapeString(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    switch (ch) {
      case '\\':
        out += '\\\\';
        continue;
      case "'":
        out += "\\'";
        continue;
      case '"':
        out += '\\"';
        continue;
      case '<':
        out += '\\u003C';
        continue;
      case '>':
        out += '\\u003E';
        continue;
      case '&':
        out += '\\u0026';
        continue;
      case '=':
        out += '\\u003D';
        continue;
    }
    if (c < 0x20) {
      out += '\\u00' + c.toString(16).toUpperCase().padStart(2, '0');
    } else if (c < 0x80 || isPrint(c)) {
      out += ch;
    } else {
      out += '\\u' + c.toString(16).toUpperCase().padStart(4, '0');
    }
  }
  return out;
}

/** net/url.QueryEscape. */
export function queryEscape(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    if ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || b === 0x2d || b === 0x5f || b === 0x2e || b === 0x7e) {
      out += String.fromCharCode(b);
    } else if (b === 0x20) {
      out += '+';
    } else {
      out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
    }
  }
  return out;
}

const unreachable: TemplateFunc = () => {
  throw new FuncError('unreachable');
};

/** The and/or/call entries exist for arity checks; the executor implements them (short-circuit, callee name). */
export const builtinAnd = typed(['value'], unreachable, 'value');
export const builtinOr = typed(['value'], (...a: unknown[]) => unreachable(...a), 'value');
export const builtinCall = typed(['value'], (...a: unknown[]) => unreachable(...a), 'value');

/** Go's builtins(): the functions every template can call. */
export const BUILTINS: Readonly<FuncMap> = Object.freeze({
    and: builtinAnd,
    call: builtinCall,
    html: typed([], (...args: unknown[]) => htmlEscapeString(evalArgs(args)), 'any'),
    index: typed(['value'], index as TemplateFunc, 'value'),
    slice: typed(['value'], slice as TemplateFunc, 'value'),
    js: typed([], (...args: unknown[]) => jsEscapeString(evalArgs(args)), 'any'),
    len: typed(['value'], length as TemplateFunc),
    not: typed(['value'], not as TemplateFunc),
    or: builtinOr,
    print: typed([], (...args: unknown[]) => sprint(args), 'any'),
    printf: typed(['string'], (format: unknown, ...args: unknown[]) => sprintf(format as string, args), 'any'),
    println: typed([], (...args: unknown[]) => sprintln(args), 'any'),
    urlquery: typed([], (...args: unknown[]) => queryEscape(evalArgs(args)), 'any'),
    eq: typed(['value'], eq as TemplateFunc, 'value'),
    ge: typed(['value', 'value'], ge as TemplateFunc),
    gt: typed(['value', 'value'], gt as TemplateFunc),
    le: typed(['value', 'value'], le as TemplateFunc),
    lt: typed(['value', 'value'], lt as TemplateFunc),
    ne: typed(['value', 'value'], ne as TemplateFunc),
});

