/**
 * A fast reader for the small YAML subset that stage templates render: block mappings and block
 * sequences laid out by indentation (including `- key: v` and sequences flush with their parent
 * key, as go-yaml writes them), one-line plain, double-quoted and single-quoted scalars, `[]` and
 * `{}`, blank lines. Plain scalars resolve through the same go-yaml v2 rules as loadYaml11.
 *
 * Why: reading a rendered template with js-yaml cost about three times the render itself and
 * was the biggest single cost of planning a stage. This reader answers only when it is sure its
 * answer is loadYaml11's; on anything else (comments, anchors, tags, flow collections, block
 * scalars, multi-line scalars, tabs, duplicate keys, odd indentation, unusual characters...) it
 * returns NOT_SIMPLE and the caller asks loadYaml11, so results and error messages stay js-yaml's.
 * The differential tests in test/unit/gocompat/yaml/simple-block-yaml.test.ts hold it to that.
 */
import { resolvePlainScalar } from './yaml11-schema.js';

/** readSimpleYaml's answer when the text is outside the subset it reads. */
export const NOT_SIMPLE: unique symbol = Symbol('not simple YAML');

// Thrown (one shared instance, no stack) from deep inside the reader to give up at once.
const GIVE_UP = { giveUp: true };

/**
 * Only characters every YAML reader treats alike in the subset: printable ASCII, line feeds and
 * most of the BMP. Tabs, carriage returns, control and C1 characters, NEL, the line/paragraph
 * separators, BOMs, non-characters and surrogates (so astral characters too) go to js-yaml.
 */
const UNUSUAL_CHARACTER = /[^\n\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd]/;

// js-yaml refuses documents nested deeper than 100; stay well clear of that limit.
const MAX_DEPTH = 32;

const SPACE = 0x20;
const DASH = 0x2d;
const COLON = 0x3a;
const HASH = 0x23;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;

/** Characters that may not start a plain scalar or key here (YAML indicators, plus `-` `?` `:`). */
const INDICATOR = new Uint8Array(128);
for (const c of '-?:,[]{}#&*!|>\'"%@`') INDICATOR[c.charCodeAt(0)] = 1;

/** The value of a one-character escape after a backslash in a double-quoted scalar. */
const SIMPLE_ESCAPES: ReadonlyMap<number, string> = new Map(
  (
    [
      ['0', '\x00'],
      ['a', '\x07'],
      ['b', '\x08'],
      ['t', '\x09'],
      ['n', '\x0a'],
      ['v', '\x0b'],
      ['f', '\x0c'],
      ['r', '\x0d'],
      ['e', '\x1b'],
      [' ', ' '],
      ['"', '"'],
      ['/', '/'],
      ['\\', '\\'],
      ['N', '\x85'],
      ['_', '\xa0'],
      ['L', '\u2028'],
      ['P', '\u2029'],
    ] as const
  ).map(([c, v]): [number, string] => [c.charCodeAt(0), v]),
);

const HEX_ESCAPE_LENGTH: ReadonlyMap<number, number> = new Map([
  [0x78 /* x */, 2],
  [0x75 /* u */, 4],
  [0x55 /* U */, 8],
]);

/**
 * The value loadYaml11(text) ?? null would return, or NOT_SIMPLE when the text is not in the
 * subset this reader is sure of. Never throws.
 */
export function readSimpleYaml(text: string): unknown {
  if (UNUSUAL_CHARACTER.test(text)) return NOT_SIMPLE;
  try {
    return new Reader(text).document();
  } catch (error) {
    if (error === GIVE_UP) return NOT_SIMPLE;
    throw error;
  }
}

function giveUp(): never {
  throw GIVE_UP;
}

/**
 * A recursive-descent reader over the document's non-blank lines. Each line has its indentation
 * (the column its content starts at) and the offsets of its content; `- key: v` and `- - x` move
 * a line's content and indentation past the dash, so the compact forms read like any other block.
 */
class Reader {
  private readonly lineStart: number[] = [];
  private readonly indent: number[] = [];
  private readonly start: number[] = [];
  private readonly end: number[] = [];
  private line = 0;
  private depth = 0;
  /** The first backslash at or after the last search's start (2^32 - 1 when there is none). */
  private nextBackslash = -1;

  constructor(private readonly text: string) {
    const t = text;
    const n = t.length;
    let ls = 0;
    while (ls < n) {
      let le = t.indexOf('\n', ls);
      if (le === -1) le = n;
      let p = ls;
      while (p < le && t.charCodeAt(p) === SPACE) p++;
      if (p < le) {
        // Document markers and directives are js-yaml's business.
        if (p === ls && (t.startsWith('---', ls) || t.startsWith('...', ls))) giveUp();
        this.lineStart.push(ls);
        this.indent.push(p - ls);
        this.start.push(p);
        this.end.push(le);
      }
      ls = le + 1;
    }
  }

  document(): unknown {
    if (this.indent.length === 0) return null;
    const value = this.block(this.indent[0] as number);
    if (this.line < this.indent.length) giveUp();
    return value;
  }

  /** The mapping or sequence whose entries start at column `col` on the current line. */
  private block(col: number): unknown {
    if (++this.depth > MAX_DEPTH) giveUp();
    const value = this.isSequenceEntry(this.line) ? this.sequence(col) : this.mapping(col);
    this.depth--;
    return value;
  }

  private isSequenceEntry(i: number): boolean {
    const p = this.start[i] as number;
    if (this.text.charCodeAt(p) !== DASH) return false;
    return p + 1 === this.end[i] || this.text.charCodeAt(p + 1) === SPACE;
  }

  private sequence(col: number): unknown[] {
    const t = this.text;
    const out: unknown[] = [];
    const lines = this.indent.length;
    while (this.line < lines && this.indent[this.line] === col && this.isSequenceEntry(this.line)) {
      const i = this.line;
      const e = this.end[i] as number;
      let p = (this.start[i] as number) + 1;
      while (p < e && t.charCodeAt(p) === SPACE) p++;
      if (p === e) {
        // `-` alone: the entry is the more indented block below. A null entry is js-yaml's: in a
        // nested sequence it takes a following less indented `- x` for its own next entry.
        this.line++;
        if (this.line >= this.indent.length || (this.indent[this.line] as number) <= col) giveUp();
        out.push(this.block(this.indent[this.line] as number));
      } else {
        const c = t.charCodeAt(p);
        const nestedSequence = c === DASH && (p + 1 === e || t.charCodeAt(p + 1) === SPACE);
        if (nestedSequence || (c !== DOUBLE_QUOTE && c !== SINGLE_QUOTE && c !== OPEN_BRACKET && c !== OPEN_BRACE && this.keyEnd(p, e) !== -1)) {
          // `- key: v` or `- - x` (go-yaml's lists of lists): a block whose entries sit at this column.
          const innerCol = p - (this.lineStart[i] as number);
          this.indent[i] = innerCol;
          this.start[i] = p;
          out.push(this.block(innerCol));
        } else {
          out.push(this.scalar(p, e));
          this.line++;
        }
      }
      this.endOfEntry(col);
    }
    return out;
  }

  private mapping(col: number): Record<string, unknown> {
    const t = this.text;
    const out: Record<string, unknown> = {};
    const lines = this.indent.length;
    while (this.line < lines && this.indent[this.line] === col) {
      const i = this.line;
      const p = this.start[i] as number;
      const e = this.end[i] as number;
      const c = t.charCodeAt(p);
      if (c < 128 && INDICATOR[c] === 1) giveUp(); // quoted, flow or explicit keys, comments, a stray `- `
      const k = this.keyEnd(p, e);
      if (k === -1 || t.charCodeAt(k - 1) === SPACE) giveUp();
      const keyText = t.slice(p, k);
      if (keyText === '<<') giveUp(); // a merge key
      const key = String(resolvePlainScalar(keyText));
      if (key === '__proto__' || Object.hasOwn(out, key)) giveUp();
      let v = k + 1;
      while (v < e && t.charCodeAt(v) === SPACE) v++;
      if (v === e) {
        this.line++;
        out[key] = this.nestedBlockOrNull(col);
      } else {
        out[key] = this.scalar(v, e);
        this.line++;
      }
      this.endOfEntry(col);
    }
    return out;
  }

  /** After `key:` with nothing behind it: a block indented deeper, a sequence flush with the key (as go-yaml writes them), or null. */
  private nestedBlockOrNull(col: number): unknown {
    if (this.line >= this.indent.length) return null;
    const next = this.indent[this.line] as number;
    if (next > col) return this.block(next);
    if (next === col && this.isSequenceEntry(this.line)) {
      if (++this.depth > MAX_DEPTH) giveUp();
      const value = this.sequence(col);
      this.depth--;
      return value;
    }
    return null;
  }

  /** An entry at `col` is done: the next line may not be indented deeper (a continuation or bad indentation). */
  private endOfEntry(col: number): void {
    if (this.line < this.indent.length && (this.indent[this.line] as number) > col) giveUp();
  }

  /**
   * Where the implicit key starting at p ends (its `:` followed by a space or the line's end),
   * or -1 when the line holds no key. A comment on the way gives up.
   */
  private keyEnd(p: number, e: number): number {
    const t = this.text;
    for (let k = p; k < e; k++) {
      const c = t.charCodeAt(k);
      if (c === COLON) {
        if (k + 1 === e || t.charCodeAt(k + 1) === SPACE) return k;
      } else if (c === HASH && t.charCodeAt(k - 1) === SPACE) {
        giveUp();
      }
    }
    return -1;
  }

  /** A one-line scalar from p to the line's end e (p is at its first character). */
  private scalar(p: number, e: number): unknown {
    const t = this.text;
    const c = t.charCodeAt(p);
    if (c === DOUBLE_QUOTE) return this.doubleQuoted(p, e);
    if (c === SINGLE_QUOTE) return this.singleQuoted(p, e);
    if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      // Only the empty collections go-yaml writes for empty lists and maps.
      if (t.charCodeAt(p + 1) !== c + 2) giveUp(); // `]` is `[` + 2, `}` is `{` + 2
      this.onlySpaces(p + 2, e);
      return c === OPEN_BRACKET ? [] : {};
    }
    if (c < 128 && INDICATOR[c] === 1) {
      // `-7` is a plain scalar; `- x` and a lone `-` would be a sequence where a scalar belongs.
      if (c !== DASH || p + 1 === e || t.charCodeAt(p + 1) === SPACE) giveUp();
    }
    let last = p; // the last non-space character
    for (let k = p; k < e; k++) {
      const ch = t.charCodeAt(k);
      if (ch === SPACE) continue;
      if (ch === COLON && (k + 1 === e || t.charCodeAt(k + 1) === SPACE)) giveUp(); // a mapping where a scalar belongs
      if (ch === HASH && t.charCodeAt(k - 1) === SPACE) giveUp(); // a comment
      last = k;
    }
    const text = t.slice(p, last + 1);
    if (text === '<<') giveUp();
    return resolvePlainScalar(text);
  }

  private doubleQuoted(p: number, e: number): string {
    const t = this.text;
    let out = '';
    let from = p + 1;
    for (;;) {
      // Native searches: most quoted scalars are long and have no escapes.
      const close = t.indexOf('"', from);
      if (close === -1 || close >= e) giveUp(); // the scalar goes on to the next line
      if (this.nextBackslash < from) this.nextBackslash = t.indexOf('\\', from) >>> 0; // none: 2^32 - 1
      const k = this.nextBackslash;
      if (k > close) {
        this.onlySpaces(close + 1, e);
        return out + t.slice(from, close);
      }
      out += t.slice(from, k);
      const escape = t.charCodeAt(k + 1);
      const simple = SIMPLE_ESCAPES.get(escape);
      if (simple !== undefined) {
        out += simple;
        from = k + 2;
      } else {
        const length = HEX_ESCAPE_LENGTH.get(escape);
        if (length === undefined || k + 2 + length > e) giveUp(); // an unknown escape, a line continuation
        const hex = t.slice(k + 2, k + 2 + length);
        if (!/^[0-9a-fA-F]+$/.test(hex)) giveUp();
        const code = parseInt(hex, 16);
        if (code > 0x10ffff) giveUp();
        out += String.fromCodePoint(code);
        from = k + 2 + length;
      }
    }
  }

  private singleQuoted(p: number, e: number): string {
    const t = this.text;
    let out = '';
    let from = p + 1;
    for (let k = from; k < e; k++) {
      if (t.charCodeAt(k) !== SINGLE_QUOTE) continue;
      if (t.charCodeAt(k + 1) === SINGLE_QUOTE && k + 1 < e) {
        out += t.slice(from, k + 1);
        k += 1;
        from = k + 1;
        continue;
      }
      this.onlySpaces(k + 1, e);
      return out + t.slice(from, k);
    }
    return giveUp();
  }

  private onlySpaces(from: number, e: number): void {
    for (let k = from; k < e; k++) if (this.text.charCodeAt(k) !== SPACE) giveUp();
  }
}
