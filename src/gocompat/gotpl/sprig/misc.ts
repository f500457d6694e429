/**
 * The rest of sprig v3.3.0: defaults and flow control, JSON, reflection, encoding, hashes and
 * UUIDs, regular expressions (Go RE2 syntax mapped onto JS RegExp for the common subset), semver,
 * paths, environment and URLs.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import semverLib from 'semver';
import { FuncError } from '../errors.js';
import { marshalJson, unmarshalJson } from '../go-json.js';
import { typed, type FuncMap, type TemplateFunc } from '../signature.js';
import { isPlainObject, kindOf, tagType, typeName, type GoObject } from '../values.js';
import { deepCopy, deepEqual, empty } from './conv.js';

const s = (v: unknown): string => v as string;

function swallow<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

function toRawJson(v: unknown): string {
  return marshalJson(v, { escapeHTML: false });
}

// Encoding.

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;

function base64Decode(v: string): string {
  // Go's StdEncoding is strict: padded, no stray characters; sprig returns the error text.
  for (let i = 0; i < v.length; i++) {
    const c = v[i] as string;
    if (!/[A-Za-z0-9+/=\r\n]/.test(c)) return `illegal base64 data at input byte ${i}`;
  }
  const clean = v.replace(/[\r\n]/g, '');
  if (clean.length % 4 !== 0 || !B64.test(clean)) {
    const pad = clean.indexOf('=');
    const at = pad >= 0 && pad < clean.length - 2 ? pad : clean.length - (clean.length % 4 || 4);
    return `illegal base64 data at input byte ${Math.max(at, 0)}`;
  }
  return Buffer.from(clean, 'base64').toString('utf8');
}

const B32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Encode(v: string): string {
  const bytes = Buffer.from(v, 'utf8');
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += B32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32_ALPHABET[(value << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += '=';
  return out;
}

function base32Decode(v: string): string {
  const clean = v.replace(/[\r\n]/g, '');
  if (clean.length % 8 !== 0) return `illegal base32 data at input byte ${clean.length - (clean.length % 8)}`;
  const body = clean.replace(/=+$/, '');
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (let i = 0; i < body.length; i++) {
    const idx = B32_ALPHABET.indexOf(body[i] as string);
    if (idx < 0) return `illegal base32 data at input byte ${i}`;
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

// Regular expressions.

/** Compiles a Go RE2 pattern: leading (?flags), \A, \z and (?P<name>) are translated. */
function compileRegex(pattern: string, global = false): RegExp {
  let flags = global ? 'g' : '';
  let src = pattern;
  const lead = /^\(\?([imsU]+)\)/.exec(src);
  if (lead) {
    for (const f of lead[1] as string) if (f !== 'U' && !flags.includes(f)) flags += f;
    src = src.slice(lead[0].length);
  }
  src = src.replace(/\(\?P</g, '(?<').replace(/\\A/g, '^').replace(/\\z/g, '$(?![\\s\\S])');
  try {
    return new RegExp(src, flags + 'u');
  } catch {
    try {
      return new RegExp(src, flags);
    } catch (e) {
      throw new FuncError(`regexp: Compile(${JSON.stringify(pattern)}): error parsing regexp: ${(e as Error).message}`);
    }
  }
}

function findAll(re: RegExp, str: string, n: number): RegExpExecArray[] {
  if (n === 0) return [];
  const out: RegExpExecArray[] = [];
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g');
  let prevEnd = -1;
  for (let m = g.exec(str); m !== null; m = g.exec(str)) {
    // Go ignores an empty match abutting the previous match.
    if (m[0] === '' && m.index === prevEnd) {
      g.lastIndex++;
      continue;
    }
    out.push(m);
    prevEnd = m.index + m[0].length;
    if (m[0] === '') g.lastIndex++;
    if (n > 0 && out.length >= n) break;
  }
  return out;
}

/** Regexp.Expand: $1, ${1}, $name, ${name}, $$. */
function expand(template: string, m: RegExpExecArray): string {
  return template.replace(/\$(\$|\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/g, (_match, dollar: string, braced?: string, bare?: string) => {
    if (dollar === '$') return '$';
    const name = braced ?? bare ?? '';
    if (/^\d+$/.test(name)) return m[Number(name)] ?? '';
    return m.groups?.[name] ?? '';
  });
}

function replaceAll(pattern: string, str: string, repl: string, literal: boolean): string {
  const re = compileRegex(pattern);
  let out = '';
  let last = 0;
  for (const m of findAll(re, str, -1)) {
    out += str.slice(last, m.index) + (literal ? repl : expand(repl, m));
    last = m.index + m[0].length;
  }
  return out + str.slice(last);
}

function regexSplit(pattern: string, str: string, n: number): string[] {
  if (n === 0) return tagType([], '[]string');
  if (pattern.length > 0 && str.length === 0) return tagType([''], '[]string');
  const matches = findAll(compileRegex(pattern), str, n);
  const parts: string[] = [];
  let beg = 0;
  let end = 0;
  for (const m of matches) {
    if (n > 0 && parts.length === n - 1) break;
    end = m.index;
    if (m.index + m[0].length !== 0) parts.push(str.slice(beg, end));
    beg = m.index + m[0].length;
  }
  if (end !== str.length) parts.push(str.slice(beg));
  return tagType(parts, '[]string');
}

// Semver.

class SemverVersion implements GoObject {
  readonly goTypeName = '*semver.Version';
  readonly goKind = 'ptr' as const;
  constructor(
    readonly version: semverLib.SemVer,
    readonly original: string,
  ) {}

  String(): string {
    const v = this.version;
    let out = `${v.major}.${v.minor}.${v.patch}`;
    if (v.prerelease.length > 0) out += `-${v.prerelease.join('.')}`;
    if (v.build.length > 0) out += `+${v.build.join('.')}`;
    return out;
  }

  goMarshalJSON(): string {
    return JSON.stringify(this.String());
  }

  goMethod(name: string): TemplateFunc | undefined {
    const v = this.version;
    switch (name) {
      case 'Major':
        return typed([], () => BigInt(v.major));
      case 'Minor':
        return typed([], () => BigInt(v.minor));
      case 'Patch':
        return typed([], () => BigInt(v.patch));
      case 'Prerelease':
        return typed([], () => v.prerelease.join('.'));
      case 'Metadata':
        return typed([], () => v.build.join('.'));
      case 'Original':
        return typed([], () => this.original);
      case 'String':
        return typed([], () => this.String());
      case 'Compare':
        return typed(['any'], (o) => semverLib.compare(v, (o as SemverVersion).version));
      case 'LessThan':
        return typed(['any'], (o) => semverLib.lt(v, (o as SemverVersion).version));
      case 'GreaterThan':
        return typed(['any'], (o) => semverLib.gt(v, (o as SemverVersion).version));
      case 'Equal':
        return typed(['any'], (o) => semverLib.eq(v, (o as SemverVersion).version));
    }
    return undefined;
  }
}

/** Masterminds/semver's NewVersion accepts "v1", "1.2" and so on; coerce partial versions. */
function parseSemver(version: string): SemverVersion {
  const full = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.exec(version);
  if (full === null) throw new FuncError('Invalid Semantic Version');
  const [, major, minor = '0', patch = '0', pre = '', build = ''] = full;
  const parsed = semverLib.parse(`${major}.${minor}.${patch}${pre}${build}`, { loose: true });
  if (parsed === null) throw new FuncError('Invalid Semantic Version');
  return new SemverVersion(parsed, version);
}

function semverCompare(constraint: string, version: string): boolean {
  const v = parseSemver(version);
  const range = constraint.replace(/,/g, ' ').replace(/\s+/g, ' ').trim();
  let r: semverLib.Range;
  try {
    r = new semverLib.Range(range, { loose: true });
  } catch {
    throw new FuncError(`improper constraint: ${constraint}`);
  }
  return r.test(v.version);
}

// Paths (Go's path package: slash-separated, lexical).

function pathClean(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(part);
  }
  const joined = out.join('/');
  if (rooted) return '/' + joined;
  return joined === '' ? '.' : joined;
}

function pathBase(p: string): string {
  if (p === '') return '.';
  p = p.replace(/\/+$/, '');
  const i = p.lastIndexOf('/');
  if (i >= 0) p = p.slice(i + 1);
  return p === '' ? '/' : p;
}

function pathDir(p: string): string {
  const i = p.lastIndexOf('/');
  return pathClean(p.slice(0, i + 1));
}

function pathExt(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}

// Environment.

function isShellSpecial(c: string | undefined): boolean {
  return c !== undefined && '*#$@!?-0123456789'.includes(c);
}

function shellName(str: string): [string, number] {
  if (str[0] === '{') {
    if (str.length > 2 && isShellSpecial(str[1]) && str[2] === '}') return [str.slice(1, 2), 3];
    for (let i = 1; i < str.length; i++) {
      if (str[i] === '}') {
        if (i === 1) return ['', 2];
        return [str.slice(1, i), i + 1];
      }
    }
    return ['', 1];
  }
  if (isShellSpecial(str[0])) return [str.slice(0, 1), 1];
  let i = 0;
  while (i < str.length && /[A-Za-z0-9_]/.test(str[i] as string)) i++;
  return [str.slice(0, i), i];
}

/** os.ExpandEnv. */
function expandEnv(str: string, env: NodeJS.ProcessEnv): string {
  let out = '';
  let i = 0;
  for (let j = 0; j < str.length; j++) {
    if (str[j] === '$' && j + 1 < str.length) {
      out += str.slice(i, j);
      const [name, w] = shellName(str.slice(j + 1));
      if (name === '' && w > 0) {
        // invalid syntax: the characters are eaten
      } else if (name === '') {
        out += '$';
      } else {
        out += env[name] ?? '';
      }
      j += w;
      i = j + 1;
    }
  }
  return out + str.slice(i);
}

// URLs.

const URL_RE = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/(?:([^@/?#]*)@)?([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/;

function urlParse(v: string): Record<string, unknown> {
  const m = URL_RE.exec(v);
  if (m === null) throw new FuncError(`unable to parse url: parse ${JSON.stringify(v)}: invalid URL`);
  const [, scheme = '', userinfo, host = '', rawPath = '', query = '', fragment = ''] = m;
  const opaque = scheme !== '' && !rawPath.startsWith('/') && host === '' && !v.includes('//') ? rawPath : '';
  const hostname = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '');
  let path = opaque === '' ? rawPath : '';
  try {
    path = decodeURIComponent(path);
  } catch {
    // keep the raw path
  }
  return { scheme, host, hostname, path, query, opaque, fragment, userinfo: userinfo ?? '' };
}

function urlJoin(d: Record<string, unknown>): string {
  const get = (k: string): string => (typeof d[k] === 'string' ? (d[k] as string) : '');
  let out = '';
  if (get('scheme') !== '') out += get('scheme') + ':';
  if (get('opaque') !== '') {
    out += get('opaque');
  } else {
    if (get('scheme') !== '' || get('host') !== '' || get('userinfo') !== '') {
      out += '//';
      if (get('userinfo') !== '') out += get('userinfo') + '@';
      out += get('host');
    }
    const path = get('path');
    if (path !== '' && !path.startsWith('/') && get('host') !== '') out += '/';
    out += encodeURI(path);
  }
  if (get('query') !== '') out += '?' + get('query');
  if (get('fragment') !== '') out += '#' + encodeURIComponent(get('fragment')).replace(/%2F/g, '/');
  return out;
}

export interface MiscOptions {
  env?: NodeJS.ProcessEnv;
}

function notSupported(name: string): TemplateFunc {
  return typed(
    [],
    () => {
      throw new FuncError(`${name} is not supported by kwokts`);
    },
    'any',
  );
}

export function sprigMisc(options: MiscOptions = {}): FuncMap {
  const env = options.env ?? process.env;
  const fromJson = typed(['string'], (v) => swallow(() => unmarshalJson(s(v)), null));
  const mustFromJson = typed(['string'], (v) => unmarshalJson(s(v)));
  const toJson = typed(['any'], (v) => swallow(() => marshalJson(v), ''));
  const toPrettyJson = typed(['any'], (v) => swallow(() => marshalJson(v, { indent: '  ' }), ''));
  const rawJson = typed(['any'], (v) => swallow(() => toRawJson(v), ''));
  const regexMatch = typed(['string', 'string'], (re, str) => compileRegex(s(re)).test(s(str)));
  const regexFindAll = typed(['string', 'string', 'int'], (re, str, n) =>
    tagType(findAll(compileRegex(s(re)), s(str), n as number).map((m) => m[0]), '[]string'),
  );
  const regexFind = typed(['string', 'string'], (re, str) => compileRegex(s(re)).exec(s(str))?.[0] ?? '');
  const regexReplaceAll = typed(['string', 'string', 'string'], (re, str, repl) => replaceAll(s(re), s(str), s(repl), false));
  const regexReplaceAllLiteral = typed(['string', 'string', 'string'], (re, str, repl) => replaceAll(s(re), s(str), s(repl), true));
  const regexSplitFn = typed(['string', 'string', 'int'], (re, str, n) => regexSplit(s(re), s(str), n as number));
  const funcs: FuncMap = {
    default: typed(['any'], (d, ...given) => (given.length === 0 || empty(given[0]) ? d : given[0]), 'any'),
    empty: typed(['any'], (v) => empty(v)),
    coalesce: typed([], (...v) => v.find((x) => !empty(x)) ?? null, 'any'),
    all: typed([], (...v) => v.every((x) => !empty(x)), 'any'),
    any: typed([], (...v) => v.some((x) => !empty(x)), 'any'),
    ternary: typed(['any', 'any', 'bool'], (vt, vf, v) => (v === true ? vt : vf)),
    fail: typed(['string'], (msg) => {
      throw new FuncError(s(msg));
    }),
    fromJson,
    mustFromJson,
    toJson,
    mustToJson: typed(['any'], (v) => marshalJson(v)),
    toPrettyJson,
    mustToPrettyJson: typed(['any'], (v) => marshalJson(v, { indent: '  ' })),
    toRawJson: rawJson,
    mustToRawJson: typed(['any'], (v) => toRawJson(v)),
    deepCopy: typed(['any'], (v) => deepCopy(v)),
    mustDeepCopy: typed(['any'], (v) => {
      if (v === null || v === undefined) throw new FuncError('copy: Copy(nil)');
      return deepCopy(v);
    }),

    typeOf: typed(['any'], (v) => typeName(v)),
    typeIs: typed(['string', 'any'], (t, v) => t === typeName(v)),
    typeIsLike: typed(['string', 'any'], (t, v) => t === typeName(v) || t === `*${typeName(v)}`),
    kindOf: typed(['any'], (v) => kindOf(v === null ? undefined : v)),
    kindIs: typed(['string', 'any'], (t, v) => t === kindOf(v === null ? undefined : v)),
    deepEqual: typed(['any', 'any'], (a, b) => deepEqual(a, b)),

    env: typed(['string'], (name) => env[s(name)] ?? ''),
    expandenv: typed(['string'], (str) => expandEnv(s(str), env)),

    base: typed(['string'], (p) => pathBase(s(p))),
    dir: typed(['string'], (p) => pathDir(s(p))),
    clean: typed(['string'], (p) => pathClean(s(p))),
    ext: typed(['string'], (p) => pathExt(s(p))),
    isAbs: typed(['string'], (p) => s(p).startsWith('/')),
    osBase: typed(['string'], (p) => pathBase(s(p))),
    osClean: typed(['string'], (p) => pathClean(s(p))),
    osDir: typed(['string'], (p) => pathDir(s(p))),
    osExt: typed(['string'], (p) => pathExt(s(p))),
    osIsAbs: typed(['string'], (p) => s(p).startsWith('/')),

    b64enc: typed(['string'], (v) => Buffer.from(s(v), 'utf8').toString('base64')),
    b64dec: typed(['string'], (v) => base64Decode(s(v))),
    b32enc: typed(['string'], (v) => base32Encode(s(v))),
    b32dec: typed(['string'], (v) => base32Decode(s(v))),

    uuidv4: typed([], () => randomUUID()),
    randBytes: typed(['int'], (n) => randomBytes(n as number).toString('base64')),

    semver: typed(['string'], (v) => parseSemver(s(v))),
    semverCompare: typed(['string', 'string'], (c, v) => semverCompare(s(c), s(v))),

    regexMatch,
    mustRegexMatch: regexMatch,
    regexFindAll,
    mustRegexFindAll: regexFindAll,
    regexFind,
    mustRegexFind: regexFind,
    regexReplaceAll,
    mustRegexReplaceAll: regexReplaceAll,
    regexReplaceAllLiteral,
    mustRegexReplaceAllLiteral: regexReplaceAllLiteral,
    regexSplit: regexSplitFn,
    mustRegexSplit: regexSplitFn,
    regexQuoteMeta: typed(['string'], (v) => s(v).replace(/[\\.+*?()|[\]{}^$]/g, '\\$&')),

    urlParse: typed(['string'], (v) => urlParse(s(v))),
    urlJoin: typed(['map'], (d) => (isPlainObject(d) ? urlJoin(d) : '')),
  };
  for (const name of [
    'bcrypt',
    'htpasswd',
    'genPrivateKey',
    'derivePassword',
    'buildCustomCert',
    'genCA',
    'genCAWithKey',
    'genSelfSignedCert',
    'genSelfSignedCertWithKey',
    'genSignedCert',
    'genSignedCertWithKey',
    'encryptAES',
    'decryptAES',
    'getHostByName',
  ]) {
    funcs[name] = notSupported(name);
  }
  return funcs;
}
