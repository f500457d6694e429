/**
 * Go's strconv.ParseInt/ParseUint (base 0) and ParseFloat, as the template parser uses them to
 * classify number literals: prefixes 0x/0o/0b and a leading 0 for octal, '_' separators, hex floats.
 */

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);
const UINT64_MAX = (1n << 64n) - 1n;

/** Go's underscoreOK: '_' may only sit between digits, or between a base prefix and a digit. */
export function underscoreOK(s: string): boolean {
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'bBoOxX'.includes(s[1] as string)) {
    i = 2;
    saw = '0';
    hex = s[1] === 'x' || s[1] === 'X';
  }
  for (; i < s.length; i++) {
    const c = s[i] as string;
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

function digitValue(c: string): number {
  const code = c.charCodeAt(0);
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61 + 10;
  if (code >= 0x41 && code <= 0x5a) return code - 0x41 + 10;
  return 99;
}

/** strconv.ParseUint(s, 0, 64). */
export function parseUint64(s: string): bigint | undefined {
  if (s.length === 0) return undefined;
  let base = 10;
  let body = s;
  if (s[0] === '0') {
    if (s.length >= 3 && (s[1] === 'x' || s[1] === 'X')) {
      base = 16;
      body = s.slice(2);
    } else if (s.length >= 3 && (s[1] === 'o' || s[1] === 'O')) {
      base = 8;
      body = s.slice(2);
    } else if (s.length >= 3 && (s[1] === 'b' || s[1] === 'B')) {
      base = 2;
      body = s.slice(2);
    } else {
      base = 8;
      body = s.slice(1);
      if (body.length === 0) return 0n;
    }
  }
  let n = 0n;
  let underscores = false;
  let digits = 0;
  for (const c of body) {
    if (c === '_') {
      underscores = true;
      continue;
    }
    const d = digitValue(c);
    if (d >= base) return undefined;
    n = n * BigInt(base) + BigInt(d);
    digits++;
    if (n > UINT64_MAX) return undefined;
  }
  if (digits === 0 && !(base === 8 && s === '0')) return undefined;
  if (underscores && !underscoreOK(s)) return undefined;
  return n;
}

/** strconv.ParseInt(s, 0, 64). */
export function parseInt64(s: string): bigint | undefined {
  if (s.length === 0) return undefined;
  let neg = false;
  let body = s;
  if (s[0] === '+' || s[0] === '-') {
    neg = s[0] === '-';
    body = s.slice(1);
  }
  const u = parseUint64(body);
  if (u === undefined) return undefined;
  const v = neg ? -u : u;
  if (v > INT64_MAX || v < INT64_MIN) return undefined;
  return v;
}

const DECIMAL_FLOAT = /^[+-]?(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d[\d_]*)?$/;
const HEX_FLOAT = /^([+-]?)0[xX]([\da-fA-F_]*)(?:\.([\da-fA-F_]*))?[pP]([+-]?[\d_]+)$/;

/** strconv.ParseFloat(s, 64); undefined on a syntax or range error, as Go returns an error then. */
export function parseFloat64(s: string): number | undefined {
  let value: number;
  const hex = HEX_FLOAT.exec(s);
  if (hex) {
    if (s.includes('_') && !underscoreOK(s)) return undefined;
    const intPart = (hex[2] ?? '').replaceAll('_', '');
    const fracPart = (hex[3] ?? '').replaceAll('_', '');
    if (intPart.length + fracPart.length === 0) return undefined;
    const mantissa = Number.parseInt(intPart + fracPart || '0', 16);
    const exp = Number.parseInt((hex[4] as string).replaceAll('_', ''), 10) - 4 * fracPart.length;
    value = mantissa * 2 ** exp;
    if (hex[1] === '-') value = -value;
  } else {
    if (!DECIMAL_FLOAT.test(s)) return undefined;
    if (s.includes('_') && !underscoreOK(s)) return undefined;
    value = Number(s.replaceAll('_', ''));
  }
  if (!Number.isFinite(value)) return undefined;
  return value;
}
