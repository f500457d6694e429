/**
 * The Go parsers kwok applies to jq outputs besides durations (./go-duration.ts), ported exactly
 * because their edge cases decide delays and weights: time.Parse(time.RFC3339Nano, s) and
 * strconv.ParseInt(s, 0, 64). Go's time itself (layouts, zones) is ./gotpl/go-time.ts. Times and
 * durations are int64 nanoseconds, kept as bigint so that values beyond 2^53 ns stay exact.
 */
import { parseTime, RFC3339_NANO, TimeParseError, UTC } from './gotpl/go-time.js';
import { underscoreOK } from './gotpl/go-numbers.js';

const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);

/** A point in time with nanosecond precision: nanoseconds since the Unix epoch. */
export type UnixNanos = bigint;

/**
 * Go's time.Parse(time.RFC3339Nano, s), through the one port of Go's time parsing (the template
 * engine's). Returns undefined where Go returns an error.
 */
export function parseRFC3339Nano(s: string): UnixNanos | undefined {
  try {
    const t = parseTime(RFC3339_NANO, s, UTC);
    return BigInt(t.sec) * 1_000_000_000n + BigInt(t.nsec);
  } catch (error) {
    if (error instanceof TimeParseError) return undefined;
    throw error;
  }
}

export function dateToUnixNanos(d: Date): UnixNanos {
  return BigInt(d.getTime()) * 1_000_000n;
}

/** Go's t.Sub(u): the difference, saturated to the int64 range. */
export function subNanos(t: UnixNanos, u: UnixNanos): bigint {
  const d = t - u;
  if (d > MAX_INT64) return MAX_INT64;
  if (d < MIN_INT64) return MIN_INT64;
  return d;
}

/**
 * strconv.ParseInt(s, 0, 64): optional sign, then a 0x/0o/0b prefix, a leading 0 for octal, or
 * decimal; underscores allowed between digits. Returns undefined on syntax or range errors.
 */
export function parseGoInt(s: string): bigint | undefined {
  if (s === '') return undefined;
  let body = s;
  let neg = false;
  if (body[0] === '+' || body[0] === '-') {
    neg = body[0] === '-';
    body = body.slice(1);
  }
  let base = 10;
  let digits = body;
  if (body[0] === '0' && body.length > 1) {
    const p = body[1]!.toLowerCase();
    if (p === 'x') [base, digits] = [16, body.slice(2)];
    else if (p === 'b') [base, digits] = [2, body.slice(2)];
    else if (p === 'o') [base, digits] = [8, body.slice(2)];
    else [base, digits] = [8, body.slice(1)];
  }
  if (digits.includes('_')) {
    if (!underscoreOK(s)) return undefined;
    digits = digits.replaceAll('_', '');
  }
  if (digits === '') return undefined;
  const valid = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^\d+$/, 16: /^[0-9a-fA-F]+$/ }[base as 2 | 8 | 10 | 16];
  if (!valid.test(digits)) return undefined;
  let v = 0n;
  const b = BigInt(base);
  for (const c of digits) v = v * b + BigInt(parseInt(c, 16));
  if (neg) v = -v;
  if (v > MAX_INT64 || v < MIN_INT64) return undefined;
  return v;
}
