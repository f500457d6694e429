/**
 * Go's time.ParseDuration, ported exactly ("300ms", "-1.5h", "2h45m", "1µs"): the one duration
 * parser of the project. The CLI's --wait, download timeouts, Stage delays and the template
 * functions all read Go durations, and they must agree with kwok on every edge case.
 * Durations are int64 nanoseconds, kept as bigint so values beyond 2^53 ns stay exact.
 */

const MAX_INT64 = (1n << 63n) - 1n;

const UNIT_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  '\u00b5s': 1_000n, // U+00B5 micro sign
  '\u03bcs': 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/**
 * Go's time.ParseDuration: "300ms", "-1.5h", "2h45m", "1µs". Returns nanoseconds, or undefined
 * where Go returns an error (bad syntax, unknown unit, missing unit, overflow).
 */
export function parseGoDuration(text: string): bigint | undefined {
  let s = text;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return undefined;
  const limit = 1n << 63n;
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) return undefined;
    // [0-9]*
    let i = 0;
    let v = 0n;
    while (isDigit(s[i])) {
      if (v > limit / 10n) return undefined;
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > limit) return undefined;
      i++;
    }
    const pre = i > 0;
    s = s.slice(i);
    // (\.[0-9]*)?
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      while (isDigit(s[j])) {
        if (!overflow) {
          if (f > MAX_INT64 / 10n) overflow = true;
          else {
            const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
            if (y > limit) overflow = true;
            else {
              f = y;
              scale *= 10;
            }
          }
        }
        j++;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) return undefined;
    // unit: everything up to the next '.' or digit
    let u = 0;
    while (u < s.length && s[u] !== '.' && !isDigit(s[u])) u++;
    if (u === 0) return undefined;
    const unit = UNIT_NS[s.slice(0, u)];
    s = s.slice(u);
    if (unit === undefined) return undefined;
    if (v > limit / unit) return undefined;
    v *= unit;
    if (f > 0n) {
      // Go computes the fraction in float64 (exact to the nanosecond for fractions of an hour).
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > limit) return undefined;
    }
    total += v;
    if (total > limit) return undefined;
  }
  if (neg) return -total;
  if (total > MAX_INT64) return undefined;
  return total;
}

/** The same in whole milliseconds (rounded), for timers and deadlines. */
export function parseGoDurationMs(text: string): number | undefined {
  const ns = parseGoDuration(text);
  return ns === undefined ? undefined : Math.round(Number(ns) / 1e6);
}
