/**
 * Go's strconv quoting rules (Quote, QuoteToASCII, QuoteRune, Unquote, IsPrint) for template
 * literals and fmt's %q. Go strings are bytes; here they are JS strings, and escapes that name raw
 * bytes (\xNN, \NNN) are decoded as UTF-8 once the whole literal is read.
 */

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function isPrint(c: number): boolean {
  if (c < 0x80) return c >= 0x20 && c < 0x7f;
  if (c >= 0xd800 && c <= 0xdfff) return false;
  return PRINTABLE.test(String.fromCodePoint(c));
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

function appendEscapedRune(out: string[], c: number, quote: number, asciiOnly: boolean): void {
  if (c === quote || c === 0x5c) {
    out.push('\\', String.fromCharCode(c));
    return;
  }
  if (asciiOnly ? c < 0x80 && isPrint(c) : isPrint(c)) {
    out.push(String.fromCodePoint(c));
    return;
  }
  switch (c) {
    case 0x07:
      out.push('\\a');
      return;
    case 0x08:
      out.push('\\b');
      return;
    case 0x0c:
      out.push('\\f');
      return;
    case 0x0a:
      out.push('\\n');
      return;
    case 0x0d:
      out.push('\\r');
      return;
    case 0x09:
      out.push('\\t');
      return;
    case 0x0b:
      out.push('\\v');
      return;
  }
  if (c < 0x20 || c === 0x7f) {
    out.push('\\x', hex(c, 2));
  } else if (c >= 0xd800 && c <= 0xdfff) {
    out.push('\\ufffd'); // A lone surrogate is not valid UTF-8; Go would see U+FFFD.
  } else if (c < 0x10000) {
    out.push('\\u', hex(c, 4));
  } else {
    out.push('\\U', hex(c, 8));
  }
}

function quoteWith(s: string, quote: number, asciiOnly: boolean): string {
  const out: string[] = [String.fromCharCode(quote)];
  for (const ch of s) appendEscapedRune(out, ch.codePointAt(0) as number, quote, asciiOnly);
  out.push(String.fromCharCode(quote));
  return out.join('');
}

const SIMPLE_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** strconv.Quote. */
export function goQuote(s: string): string {
  if (SIMPLE_ASCII.test(s)) return `"${s}"`;
  return quoteWith(s, 0x22, false);
}

/** strconv.QuoteToASCII. */
export function goQuoteToASCII(s: string): string {
  return quoteWith(s, 0x22, true);
}

/** strconv.QuoteRune / QuoteRuneToASCII. */
export function goQuoteRune(c: number, asciiOnly = false): string {
  if (c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) c = 0xfffd;
  const out: string[] = ["'"];
  appendEscapedRune(out, c, 0x27, asciiOnly);
  out.push("'");
  return out.join('');
}

/** strconv.CanBackquote. */
export function canBackquote(s: string): boolean {
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (c === 0x60 || c === 0xfeff) return false;
    if (c < 0x20 && c !== 0x09) return false;
    if (c === 0x7f) return false;
  }
  return true;
}

export class SyntaxError extends Error {
  constructor() {
    super('invalid syntax');
  }
}

interface UnquotedChar {
  value: number;
  /** True when the escape names a single byte (\x, octal) rather than a code point. */
  isByte: boolean;
  rest: number;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** strconv.UnquoteChar on s starting at index i. */
function unquoteChar(s: string, i: number, quote: number): UnquotedChar {
  const c = s.codePointAt(i) as number;
  if (c === quote && (quote === 0x27 || quote === 0x22)) throw new SyntaxError();
  if (c !== 0x5c) return { value: c, isByte: false, rest: i + (c > 0xffff ? 2 : 1) };
  if (i + 1 >= s.length) throw new SyntaxError();
  const e = s.charCodeAt(i + 1);
  let j = i + 2;
  switch (e) {
    case 0x61:
      return { value: 0x07, isByte: false, rest: j };
    case 0x62:
      return { value: 0x08, isByte: false, rest: j };
    case 0x66:
      return { value: 0x0c, isByte: false, rest: j };
    case 0x6e:
      return { value: 0x0a, isByte: false, rest: j };
    case 0x72:
      return { value: 0x0d, isByte: false, rest: j };
    case 0x74:
      return { value: 0x09, isByte: false, rest: j };
    case 0x76:
      return { value: 0x0b, isByte: false, rest: j };
    case 0x78: // \x
    case 0x75: // \u
    case 0x55: {
      // \U
      const n = e === 0x78 ? 2 : e === 0x75 ? 4 : 8;
      if (j + n > s.length) throw new SyntaxError();
      let v = 0;
      for (let k = 0; k < n; k++) {
        const d = hexValue(s.charCodeAt(j + k));
        if (d < 0) throw new SyntaxError();
        v = v * 16 + d;
      }
      j += n;
      if (e === 0x78) return { value: v, isByte: true, rest: j };
      if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) throw new SyntaxError();
      return { value: v, isByte: false, rest: j };
    }
    case 0x30:
    case 0x31:
    case 0x32:
    case 0x33:
    case 0x34:
    case 0x35:
    case 0x36:
    case 0x37: {
      let v = e - 0x30;
      if (j + 2 > s.length) throw new SyntaxError();
      for (let k = 0; k < 2; k++) {
        const d = s.charCodeAt(j + k) - 0x30;
        if (d < 0 || d > 7) throw new SyntaxError();
        v = v * 8 + d;
      }
      j += 2;
      if (v > 255) throw new SyntaxError();
      return { value: v, isByte: true, rest: j };
    }
    case 0x5c:
      return { value: 0x5c, isByte: false, rest: j };
    case 0x27:
    case 0x22:
      if (e !== quote) throw new SyntaxError();
      return { value: e, isByte: false, rest: j };
    default:
      throw new SyntaxError();
  }
}

function decodeWithBytes(parts: UnquotedChar[]): string {
  const bytes: number[] = [];
  for (const p of parts) {
    if (p.isByte) bytes.push(p.value);
    else for (const b of Buffer.from(String.fromCodePoint(p.value), 'utf8')) bytes.push(b);
  }
  return Buffer.from(bytes).toString('utf8');
}

/** strconv.Unquote for "...", `...` and '...' literals. */
export function goUnquote(text: string): string {
  const n = text.length;
  if (n < 2) throw new SyntaxError();
  const quote = text.charCodeAt(0);
  if (quote !== text.charCodeAt(n - 1)) throw new SyntaxError();
  const body = text.slice(1, n - 1);
  if (quote === 0x60) {
    if (body.includes('`')) throw new SyntaxError();
    return body.includes('\r') ? body.replaceAll('\r', '') : body;
  }
  if (quote !== 0x22 && quote !== 0x27) throw new SyntaxError();
  if (body.includes('\n')) throw new SyntaxError();
  if (!body.includes('\\') && !body.includes(String.fromCharCode(quote))) {
    if (quote === 0x22) return body;
    if (quote === 0x27 && [...body].length === 1) return body;
  }
  const parts: UnquotedChar[] = [];
  let anyByte = false;
  for (let i = 0; i < body.length; ) {
    const part = unquoteChar(body, i, quote);
    parts.push(part);
    anyByte ||= part.isByte && part.value >= 0x80;
    i = part.rest;
    if (quote === 0x27 && i < body.length) throw new SyntaxError();
  }
  if (quote === 0x27 && parts.length !== 1) throw new SyntaxError();
  if (anyByte) return decodeWithBytes(parts);
  return parts.map((p) => String.fromCodePoint(p.value)).join('');
}

/**
 * Character constant value as Go's parser computes it: the first escape or rune of the body, and
 * whether exactly the closing quote follows it.
 */
export function unquoteCharConstant(text: string): { value: number; wellFormed: boolean } {
  const part = unquoteChar(text, 1, 0x27);
  return { value: part.value, wellFormed: text.slice(part.rest) === "'" };
}
