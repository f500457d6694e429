/**
 * sprig v3.3.0 string functions (strings.go, goutils, xstrings). Go strings are bytes, so
 * length-based functions (trunc, substr) count UTF-8 bytes as sprig does.
 */
import { createHash, randomInt } from 'node:crypto';
import { FuncError } from '../errors.js';
import { sprintf } from '../fmt.js';
import { goQuote } from '../quote.js';
import { typed, type FuncMap } from '../signature.js';
import { byteLength, byteSlice, compareStrings, tagType } from '../values.js';
import { strslice, strval } from './conv.js';

const s = (v: unknown): string => v as string;
const n = (v: unknown): number => v as number;

const WHITESPACE = /\s/u;

/** strings.TrimSpace (Unicode White_Space). */
function trimSpace(str: string): string {
  return str.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '');
}

/** strings.Trim(str, cutset). */
function trimCutset(str: string, cutset: string): string {
  if (str === '' || cutset === '') return str;
  const set = new Set(cutset);
  const chars = [...str];
  let i = 0;
  let j = chars.length;
  while (i < j && set.has(chars[i] as string)) i++;
  while (j > i && set.has(chars[j - 1] as string)) j--;
  return chars.slice(i, j).join('');
}

function isSeparator(ch: string): boolean {
  const c = ch.codePointAt(0) as number;
  if (c <= 0x7f) {
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f) return false;
    return true;
  }
  if (/[\p{L}\p{Nd}]/u.test(ch)) return false;
  return WHITESPACE.test(ch);
}

/** strings.Title: upper-case the first letter of each word. */
function title(str: string): string {
  let prev = ' ';
  let out = '';
  for (const ch of str) {
    out += isSeparator(prev) ? ch.toUpperCase() : ch;
    prev = ch;
  }
  return out;
}

/** goutils.Uncapitalize. */
function untitle(str: string): string {
  if (str === '') return str;
  const first = String.fromCodePoint(str.codePointAt(0) as number);
  return first.toLowerCase() + str.slice(first.length);
}

/** goutils.SwapCase. */
function swapcase(str: string): string {
  let out = '';
  for (const ch of str) {
    const lower = ch.toLowerCase();
    out += ch === lower ? ch.toUpperCase() : lower;
  }
  return out;
}

/** goutils.Initials: the first letter of each whitespace-separated word. */
function initials(str: string): string {
  return str
    .split(/\s+/u)
    .filter((w) => w !== '')
    .map((w) => String.fromCodePoint(w.codePointAt(0) as number))
    .join('');
}

/** Splits an identifier into words, as xstrings does for case conversion. */
function words(str: string): string[] {
  const out: string[] = [];
  let cur = '';
  const chars = [...str];
  const isUpper = (c: string | undefined): boolean => c !== undefined && c !== c.toLowerCase() && c === c.toUpperCase();
  const isLower = (c: string | undefined): boolean => c !== undefined && c !== c.toUpperCase() && c === c.toLowerCase();
  const isAlnum = (c: string): boolean => /[\p{L}\p{Nd}]/u.test(c);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (!isAlnum(c)) {
      if (cur !== '') out.push(cur);
      cur = '';
      continue;
    }
    const prev = chars[i - 1];
    const next = chars[i + 1];
    const boundary = cur !== '' && isUpper(c) && (isLower(prev) || (isUpper(prev) && isLower(next)));
    if (boundary) {
      out.push(cur);
      cur = '';
    }
    cur += c;
  }
  if (cur !== '') out.push(cur);
  return out;
}

function joinWords(str: string, sep: string): string {
  return words(str)
    .map((w) => w.toLowerCase())
    .join(sep);
}

/** xstrings.ToCamelCase: "http_server" → "HttpServer". */
function camelcase(str: string): string {
  const parts = str.split(/[_\s-]+/u).filter((p) => p !== '');
  return parts.map((p) => String.fromCodePoint(p.codePointAt(0) as number).toUpperCase() + p.slice(String.fromCodePoint(p.codePointAt(0) as number).length)).join('');
}

/** goutils.WrapCustom(str, wrapLength, newLine, wrapLongWords). */
function wrapCustom(str: string, wrapLength: number, newLine: string, wrapLongWords: boolean): string {
  if (str === '') return '';
  if (newLine === '') newLine = '\n';
  if (wrapLength < 1) wrapLength = 1;
  const len = str.length;
  let offset = 0;
  let out = '';
  while (len - offset > wrapLength) {
    if (str[offset] === ' ') {
      offset++;
      continue;
    }
    const end = wrapLength + offset + 1;
    let spaceToWrapAt = str.slice(offset, end).lastIndexOf(' ') + offset;
    if (spaceToWrapAt >= offset) {
      out += str.slice(offset, spaceToWrapAt) + newLine;
      offset = spaceToWrapAt + 1;
    } else if (wrapLongWords) {
      out += str.slice(offset, wrapLength + offset) + newLine;
      offset += wrapLength;
    } else {
      const e = wrapLength + offset;
      const index = str.slice(e).indexOf(' ');
      if (index === -1) {
        out += str.slice(offset);
        offset = len;
      } else {
        spaceToWrapAt = index + e;
        out += str.slice(offset, spaceToWrapAt) + newLine;
        offset = spaceToWrapAt + 1;
      }
    }
  }
  return out + str.slice(offset);
}

/** goutils.AbbreviateFull. */
function abbreviateFull(str: string, offset: number, maxWidth: number): string {
  if (str === '') return '';
  if (maxWidth < 4) return '';
  const len = byteLength(str);
  if (len <= maxWidth) return str;
  if (offset > len) offset = len;
  if (len - offset < maxWidth - 3) offset = len - (maxWidth - 3);
  if (offset <= 4) return byteSlice(str, 0, maxWidth - 3) + '...';
  if (maxWidth < 7) return '';
  if (offset + maxWidth - 3 < len) return '...' + abbreviateFull(byteSlice(str, offset, len), 0, maxWidth - 3);
  return '...' + byteSlice(str, len - (maxWidth - 3), len);
}

function sliceBounds(message: string): FuncError {
  return new FuncError(`runtime error: slice bounds out of range ${message}`);
}

function trunc(c: number, str: string): string {
  const len = byteLength(str);
  if (c < 0 && len + c > 0) return byteSlice(str, len + c, len);
  if (c >= 0 && len > c) return byteSlice(str, 0, c);
  return str;
}

function substr(start: number, end: number, str: string): string {
  const len = byteLength(str);
  if (start < 0) {
    if (end < 0 || end > len) throw sliceBounds(`[:${end}] with length ${len}`);
    return byteSlice(str, 0, end);
  }
  if (end < 0 || end > len) {
    if (start > len) throw sliceBounds(`[${start}:${len}]`);
    return byteSlice(str, start, len);
  }
  if (start > end) throw sliceBounds(`[${start}:${end}]`);
  return byteSlice(str, start, end);
}

/** strings.Split / SplitN (n < 0: all). */
function splitN(str: string, sep: string, max: number): string[] {
  if (max === 0) return [];
  if (sep === '') {
    const chars = [...str];
    if (max > 0 && chars.length > max) return [...chars.slice(0, max - 1), chars.slice(max - 1).join('')];
    return chars;
  }
  const parts = str.split(sep);
  if (max > 0 && parts.length > max) return [...parts.slice(0, max - 1), parts.slice(max - 1).join(sep)];
  return parts;
}

function indexedMap(parts: string[]): Record<string, string> {
  const res: Record<string, string> = {};
  parts.forEach((p, i) => {
    res[`_${i}`] = p;
  });
  return tagType(res, 'map[string]string');
}

const ALPHA = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const NUMERIC = '0123456789';

function randomFrom(chars: string, count: number): string {
  if (count < 0) throw new FuncError(`Requested random string length ${count} is less than 0.`);
  let out = '';
  for (let i = 0; i < count; i++) out += chars[randomInt(chars.length)];
  return out;
}

function randomAscii(count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String.fromCharCode(32 + randomInt(95));
  return out;
}

function shuffle(str: string): string {
  const chars = [...str];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] as string, chars[i] as string];
  }
  return chars.join('');
}

function adler32(str: string): number {
  let a = 1;
  let b = 0;
  for (const byte of Buffer.from(str, 'utf8')) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return (b * 65536 + a) >>> 0;
}

export function sprigStrings(): FuncMap {
  return {
    abbrev: typed(['int', 'string'], (w, str) => (n(w) < 4 ? s(str) : abbreviateFull(s(str), 0, n(w)))),
    abbrevboth: typed(['int', 'int', 'string'], (l, r, str) =>
      n(r) < 4 || (n(l) > 0 && n(r) < 7) ? s(str) : abbreviateFull(s(str), n(l), n(r)),
    ),
    trunc: typed(['int', 'string'], (c, str) => trunc(n(c), s(str))),
    trim: typed(['string'], (str) => trimSpace(s(str))),
    upper: typed(['string'], (str) => s(str).toUpperCase()),
    lower: typed(['string'], (str) => s(str).toLowerCase()),
    title: typed(['string'], (str) => title(s(str))),
    untitle: typed(['string'], (str) => untitle(s(str))),
    substr: typed(['int', 'int', 'string'], (a, b, str) => substr(n(a), n(b), s(str))),
    repeat: typed(['int', 'string'], (count, str) => {
      if (n(count) < 0) throw new FuncError('strings: negative Repeat count');
      return s(str).repeat(n(count));
    }),
    trimall: typed(['string', 'string'], (a, b) => trimCutset(s(b), s(a))),
    trimAll: typed(['string', 'string'], (a, b) => trimCutset(s(b), s(a))),
    trimSuffix: typed(['string', 'string'], (a, b) => (s(b).endsWith(s(a)) ? s(b).slice(0, s(b).length - s(a).length) : s(b))),
    trimPrefix: typed(['string', 'string'], (a, b) => (s(b).startsWith(s(a)) ? s(b).slice(s(a).length) : s(b))),
    nospace: typed(['string'], (str) => s(str).replace(/[\s\u0085]/gu, '')),
    initials: typed(['string'], (str) => initials(s(str))),
    randAlphaNum: typed(['int'], (c) => randomFrom(ALPHA + NUMERIC, n(c))),
    randAlpha: typed(['int'], (c) => randomFrom(ALPHA, n(c))),
    randAscii: typed(['int'], (c) => randomAscii(n(c))),
    randNumeric: typed(['int'], (c) => randomFrom(NUMERIC, n(c))),
    swapcase: typed(['string'], (str) => swapcase(s(str))),
    shuffle: typed(['string'], (str) => shuffle(s(str))),
    snakecase: typed(['string'], (str) => joinWords(s(str), '_')),
    camelcase: typed(['string'], (str) => camelcase(s(str))),
    kebabcase: typed(['string'], (str) => joinWords(s(str), '-')),
    wrap: typed(['int', 'string'], (l, str) => wrapCustom(s(str), n(l), '\n', false)),
    wrapWith: typed(['int', 'string', 'string'], (l, sep, str) => wrapCustom(s(str), n(l), s(sep), true)),
    contains: typed(['string', 'string'], (sub, str) => s(str).includes(s(sub))),
    hasPrefix: typed(['string', 'string'], (sub, str) => s(str).startsWith(s(sub))),
    hasSuffix: typed(['string', 'string'], (sub, str) => s(str).endsWith(s(sub))),
    quote: typed(
      [],
      (...args) =>
        args
          .filter((a) => a !== null && a !== undefined)
          .map((a) => goQuote(strval(a)))
          .join(' '),
      'any',
    ),
    squote: typed(
      [],
      (...args) =>
        args
          .filter((a) => a !== null && a !== undefined)
          .map((a) => sprintf("'%v'", [a]))
          .join(' '),
      'any',
    ),
    cat: typed(
      [],
      (...args) => {
        const v = args.filter((a) => a !== null && a !== undefined);
        return sprintf(Array(v.length).fill('%v').join(' '), v);
      },
      'any',
    ),
    indent: typed(['int', 'string'], (spaces, str) => indent(n(spaces), s(str))),
    nindent: typed(['int', 'string'], (spaces, str) => '\n' + indent(n(spaces), s(str))),
    replace: typed(['string', 'string', 'string'], (oldS, newS, src) => s(src).replaceAll(s(oldS), s(newS))),
    plural: typed(['string', 'string', 'int'], (one, many, count) => (n(count) === 1 ? s(one) : s(many))),
    sha1sum: typed(['string'], (str) => createHash('sha1').update(s(str), 'utf8').digest('hex')),
    sha256sum: typed(['string'], (str) => createHash('sha256').update(s(str), 'utf8').digest('hex')),
    adler32sum: typed(['string'], (str) => String(adler32(s(str)))),
    toString: typed(['any'], (v: unknown) => strval(v)),
    split: typed(['string', 'string'], (sep, orig) => indexedMap(splitN(s(orig), s(sep), -1))),
    splitList: typed(['string', 'string'], (sep, orig) => tagType(splitN(s(orig), s(sep), -1), '[]string')),
    splitn: typed(['string', 'int', 'string'], (sep, count, orig) => indexedMap(splitN(s(orig), s(sep), n(count)))),
    toStrings: typed(['any'], (v) => strslice(v)),
    join: typed(['string', 'any'], (sep, v) => strslice(v).join(s(sep))),
    sortAlpha: typed(['any'], (v: unknown) => {
      if (Array.isArray(v)) return tagType([...strslice(v)].sort(compareStrings), '[]string');
      return tagType([strval(v)], '[]string');
    }),
    hello: typed([], () => 'Hello!'),
  };
}

function indent(spaces: number, str: string): string {
  const pad = ' '.repeat(Math.max(spaces, 0));
  return pad + str.replaceAll('\n', '\n' + pad);
}
