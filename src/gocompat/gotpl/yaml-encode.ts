/**
 * sigs.k8s.io/yaml.Marshal for template values: JSON-encode, then emit YAML the way go-yaml v2
 * does (sorted keys, 2-space indent, sequences flush with their key, strings quoted only when a
 * YAML 1.1 reader would take them for something else). kwok's YAML function uses this to embed
 * parts of the object in a rendered document.
 */
import { formatFloat } from './go-float.js';
import { marshalJson, unmarshalJson } from './go-json.js';
import { parseInt64, parseUint64 } from './go-numbers.js';
import { JsonNumber, isPlainObject } from './values.js';

const RESOLVE_MAP = new Set([
  '',
  '~',
  'null',
  'Null',
  'NULL',
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'on',
  'On',
  'ON',
  'true',
  'True',
  'TRUE',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'off',
  'Off',
  'OFF',
  'false',
  'False',
  'FALSE',
  '.nan',
  '.NaN',
  '.NAN',
  '.inf',
  '.Inf',
  '.INF',
  '+.inf',
  '+.Inf',
  '+.INF',
  '-.inf',
  '-.Inf',
  '-.INF',
]);

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const TIMESTAMP = /^\d{4}-\d{1,2}-\d{1,2}(?:(?:[Tt]\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d+)?(?:Z|[+-]\d{1,2}(?::\d{2})?))|(?: \d{1,2}:\d{1,2}:\d{1,2}(?:\.\d+)?))?$/;

/** Whether go-yaml v2 would resolve the plain scalar to something other than a string. */
function resolvesToNonString(s: string): boolean {
  if (RESOLVE_MAP.has(s)) return true;
  const c = s[0];
  if (c === '.') return YAML_STYLE_FLOAT.test(s);
  if (c !== undefined && (c === '+' || c === '-' || (c >= '0' && c <= '9'))) {
    if (TIMESTAMP.test(s)) return true;
    const plain = s.replaceAll('_', '');
    if (parseInt64(plain) !== undefined || parseUint64(plain) !== undefined) return true;
    if (YAML_STYLE_FLOAT.test(plain)) return true;
    if (/^-?0b[01]+$/.test(plain)) return true;
  }
  return false;
}

/** libyaml's is_printable (tab is not). */
function isYamlPrintable(c: number): boolean {
  return (
    c === 0x0a ||
    (c >= 0x20 && c <= 0x7e) ||
    c === 0x85 ||
    (c >= 0xa0 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}

function isBreak(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
}

interface ScalarAnalysis {
  plain: boolean;
  single: boolean;
  block: boolean;
}

/** A condensed yaml_emitter_analyze_scalar for block context. */
function analyze(s: string): ScalarAnalysis {
  if (s === '') return { plain: false, single: true, block: false };
  if (s.startsWith('---') || s.startsWith('...')) {
    const after = s.charCodeAt(3);
    if (Number.isNaN(after) || after === 0x20 || after === 0x09 || isBreak(after)) return { plain: false, single: true, block: true };
  }
  let blockIndicators = false;
  let special = false;
  let lineBreaks = false;
  let spaceBreak = false;
  let breakSpace = false;
  let prevSpace = false;
  let prevBreak = false;
  const chars = [...s];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    const c = ch.codePointAt(0) as number;
    const next = chars[i + 1];
    const followedByBlank = next === undefined || next === ' ' || next === '\t' || isBreak(next.codePointAt(0) as number);
    const precededByBlank = i === 0 || chars[i - 1] === ' ' || chars[i - 1] === '\t' || isBreak((chars[i - 1] as string).codePointAt(0) as number);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) blockIndicators = true;
      if ((ch === '?' || ch === ':' || ch === '-') && followedByBlank) blockIndicators = true;
    } else {
      if (ch === ':' && followedByBlank) blockIndicators = true;
      if (ch === '#' && precededByBlank) blockIndicators = true;
    }
    if (!isYamlPrintable(c) || c === 0xfeff) special = true;
    if (isBreak(c)) lineBreaks = true;
    if (ch === ' ') {
      if (prevBreak) breakSpace = true;
      prevSpace = true;
      prevBreak = false;
    } else if (isBreak(c)) {
      if (prevSpace) spaceBreak = true;
      prevBreak = true;
      prevSpace = false;
    } else {
      prevSpace = false;
      prevBreak = false;
    }
  }
  const leadingSpace = chars[0] === ' ';
  const leadingBreak = isBreak(s.charCodeAt(0));
  const trailingSpace = chars[chars.length - 1] === ' ';
  const trailingBreak = isBreak(s.charCodeAt(s.length - 1));
  let plain = !blockIndicators;
  let single = true;
  let block = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) plain = false;
  if (trailingSpace) block = false;
  if (breakSpace) {
    plain = false;
    single = false;
  }
  if (spaceBreak || special) {
    plain = false;
    single = false;
    block = false;
  }
  if (lineBreaks) {
    plain = false;
    single = false; // multi-line single-quoted output is avoided here; double quotes are equivalent
  }
  return { plain, single, block };
}

function doubleQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    switch (c) {
      case 0x00:
        out += '\\0';
        continue;
      case 0x07:
        out += '\\a';
        continue;
      case 0x08:
        out += '\\b';
        continue;
      case 0x09:
        out += '\\t';
        continue;
      case 0x0a:
        out += '\\n';
        continue;
      case 0x0b:
        out += '\\v';
        continue;
      case 0x0c:
        out += '\\f';
        continue;
      case 0x0d:
        out += '\\r';
        continue;
      case 0x1b:
        out += '\\e';
        continue;
      case 0x22:
        out += '\\"';
        continue;
      case 0x5c:
        out += '\\\\';
        continue;
      case 0x85:
        out += '\\N';
        continue;
      case 0x2028:
        out += '\\L';
        continue;
      case 0x2029:
        out += '\\P';
        continue;
    }
    if (isYamlPrintable(c) && c !== 0xfeff) {
      out += ch;
    } else if (c <= 0xff) {
      out += '\\x' + c.toString(16).toUpperCase().padStart(2, '0');
    } else if (c <= 0xffff) {
      out += '\\u' + c.toString(16).toUpperCase().padStart(4, '0');
    } else {
      out += '\\U' + c.toString(16).toUpperCase().padStart(8, '0');
    }
  }
  return out + '"';
}

type Style = 'plain' | 'single' | 'double';
type Scalar =
  | { kind: 'inline'; text: string; style?: Style; source?: string }
  | { kind: 'block'; header: string; lines: string[] };

const BEST_WIDTH = 80;

/** The characters written for each source character in a quoted or plain style. */
function styleUnits(source: string, style: Style): string[] {
  const units: string[] = [];
  for (const ch of source) {
    if (style === 'single') units.push(ch === "'" ? "''" : ch);
    else if (style === 'double') units.push(doubleQuote(ch).slice(1, -1));
    else units.push(ch);
  }
  return units;
}

/**
 * libyaml's line folding: once past column 80, a space (not followed by another) becomes a line
 * break plus indentation. A YAML reader folds it back into the space.
 */
function foldScalar(source: string, style: Style, startColumn: number, indent: number): string {
  const units = styleUnits(source, style);
  const quote = style === 'single' ? "'" : style === 'double' ? '"' : '';
  let out = quote;
  let column = startColumn + quote.length;
  let spaces = false;
  const chars = [...source];
  for (let i = 0; i < units.length; i++) {
    const u = units[i] as string;
    if (chars[i] === ' ') {
      const nextIsSpace = chars[i + 1] === ' ';
      const inner = style === 'plain' || (i !== 0 && i !== units.length - 1);
      if (!spaces && column > BEST_WIDTH && inner && (style === 'double' || !nextIsSpace)) {
        out += '\n' + ' '.repeat(indent);
        column = indent;
        if (style === 'double' && nextIsSpace) {
          out += '\\';
          column++;
        }
      } else {
        out += u;
        column++;
      }
      spaces = true;
    } else {
      out += u;
      column += [...u].length;
      spaces = false;
    }
  }
  return out + quote;
}

function stringScalar(s: string, isKey: boolean): Scalar {
  const a = analyze(s);
  if (!isKey && s.includes('\n') && a.block) {
    let chomp = '-';
    if (s.endsWith('\n')) chomp = /\n\n$/.test(s) || s === '\n' ? '+' : '';
    const indentHint = s[0] === ' ' || isBreak(s.charCodeAt(0)) ? '2' : '';
    const body = chomp === '' || chomp === '+' ? s.replace(/\n$/, '') : s;
    return { kind: 'block', header: `|${indentHint}${chomp}`, lines: body.split('\n') };
  }
  const double = { kind: 'inline' as const, text: doubleQuote(s), style: 'double' as const, source: s };
  if (s.includes('\n')) return double;
  if (resolvesToNonString(s) || BASE60_FLOAT.test(s)) return double;
  if (a.plain) return { kind: 'inline', text: s, style: 'plain', source: s };
  if (a.single) return { kind: 'inline', text: `'${s.replaceAll("'", "''")}'`, style: 'single', source: s };
  return double;
}

/** A JSON number as go-yaml prints it after resolving it to int, uint or float64. */
function numberText(text: string): string {
  if (/^-?\d+$/.test(text)) {
    const i = parseInt64(text);
    if (i !== undefined) return i.toString();
    const u = parseUint64(text);
    if (u !== undefined) return u.toString();
  }
  const f = Number(text);
  if (f === Infinity) return '.inf';
  if (f === -Infinity) return '-.inf';
  return formatFloat(f, 'g', -1);
}

function scalarOf(v: unknown, isKey = false): Scalar {
  if (v === null || v === undefined) return { kind: 'inline', text: 'null' };
  if (typeof v === 'boolean') return { kind: 'inline', text: v ? 'true' : 'false' };
  if (v instanceof JsonNumber) return { kind: 'inline', text: numberText(v.text) };
  if (typeof v === 'string') return stringScalar(v, isKey);
  return { kind: 'inline', text: String(v) };
}

/** go-yaml v2's key order: numbers inside keys compare numerically, letters after non-letters. */
export function compareYamlKeys(a: string, b: string): number {
  const ar = [...a];
  const br = [...b];
  const isLetter = (c: string): boolean => /\p{L}/u.test(c);
  const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const x = ar[i] as string;
    const y = br[i] as string;
    if (x === y) continue;
    const al = isLetter(x);
    const bl = isLetter(y);
    if (al && bl) return (x.codePointAt(0) as number) - (y.codePointAt(0) as number);
    if (al || bl) return bl ? -1 : 1;
    let an = 0n;
    let bn = 0n;
    if (x === '0' || y === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10n + BigInt(Number(ar[ai]));
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10n + BigInt(Number(br[bi]));
    if (an !== bn) return an < bn ? -1 : 1;
    if (ai !== bi) return ai - bi;
    return (x.codePointAt(0) as number) - (y.codePointAt(0) as number);
  }
  return ar.length - br.length;
}

function isNonEmptyContainer(v: unknown): boolean {
  return (Array.isArray(v) && v.length > 0) || (isPlainObject(v) && Object.keys(v).length > 0);
}

/** Lines for a scalar (or empty collection) that follows `prefix` ("key: " or "- "). */
function scalarLines(prefix: string, v: unknown, bodyIndent: number, foldIndent = bodyIndent): string[] {
  if (Array.isArray(v)) return [prefix + '[]'];
  if (isPlainObject(v)) return [prefix + '{}'];
  const s = scalarOf(v);
  if (s.kind === 'inline') {
    const column = [...prefix].length;
    if (s.style === undefined || s.source === undefined || column + [...s.text].length <= BEST_WIDTH) return [prefix + s.text];
    return (prefix + foldScalar(s.source, s.style, column, foldIndent)).split('\n');
  }
  const pad = ' '.repeat(bodyIndent);
  return [prefix + s.header, ...s.lines.map((l) => (l === '' ? '' : pad + l))];
}

/** Lines for a non-empty map or sequence whose entries start at `indent`. */
function emitNode(v: unknown, indent: number): string[] {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  if (Array.isArray(v)) {
    for (const item of v) {
      if (isNonEmptyContainer(item)) {
        const sub = emitNode(item, indent + 2);
        sub[0] = pad + '- ' + (sub[0] as string).slice(indent + 2);
        lines.push(...sub);
      } else {
        lines.push(...scalarLines(pad + '- ', item, indent + 2));
      }
    }
    return lines;
  }
  const m = v as Record<string, unknown>;
  for (const k of Object.keys(m).sort(compareYamlKeys)) {
    const key = (scalarOf(k, true) as { text: string }).text;
    const val = m[k];
    if (isPlainObject(val) && Object.keys(val).length > 0) {
      lines.push(`${pad}${key}:`, ...emitNode(val, indent + 2));
    } else if (Array.isArray(val) && val.length > 0) {
      // go-yaml v2 does not indent a sequence under its key.
      lines.push(`${pad}${key}:`, ...emitNode(val, indent));
    } else {
      lines.push(...scalarLines(`${pad}${key}: `, val, indent + 2));
    }
  }
  return lines;
}

function emitDocument(v: unknown): string {
  if (isNonEmptyContainer(v)) return emitNode(v, 0).join('\n') + '\n';
  return scalarLines('', v, 2, 0).join('\n') + '\n';
}

/** yaml.Marshal(v) as sigs.k8s.io/yaml does it (JSON first, so only JSON-representable values). */
export function marshalYaml(v: unknown): string {
  const tree = unmarshalJson(marshalJson(v), 'json.Number');
  return emitDocument(tree);
}
