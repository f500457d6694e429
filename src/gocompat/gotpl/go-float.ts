/**
 * Go's strconv.FormatFloat for float64 ('e', 'E', 'f', 'g', 'G', 'x', 'X', 'b'), which fmt and
 * text/template use to print floats: %v is 'g' with the shortest digits ("1e+06", "1.5", "1e-05").
 * Fixed precisions round the exact binary value half-to-even, as Go does (%.0f of 2.5 is "2").
 */

interface Decimal {
  /** Significant digits without leading or trailing zeros ("" for zero). */
  digits: string;
  /** Position of the decimal point: value = 0.digits × 10^dp. */
  dp: number;
}

function shortestDecimal(abs: number): Decimal {
  if (abs === 0) return { digits: '', dp: 0 };
  const [mantissa, exponent] = abs.toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '').replace(/0+$/, '');
  return { digits, dp: Number(exponent) + 1 };
}

function exactDecimal(abs: number): Decimal {
  if (abs === 0) return { digits: '', dp: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, abs);
  const bits = view.getBigUint64(0);
  let exp = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  if (exp === 0) exp = 1;
  else mant |= 1n << 52n;
  const e2 = exp - 1075;
  let digits: string;
  let dp: number;
  if (e2 >= 0) {
    digits = (mant << BigInt(e2)).toString();
    dp = digits.length;
  } else {
    digits = (mant * 5n ** BigInt(-e2)).toString();
    dp = digits.length + e2;
  }
  const trimmed = digits.replace(/0+$/, '');
  return { digits: trimmed, dp };
}

/** Rounds to nd significant digits, half to even on exact ties (Go's decimal.Round). */
function roundDecimal(d: Decimal, nd: number): Decimal {
  if (nd < 0) return d;
  if (nd >= d.digits.length) return d;
  const next = d.digits.charCodeAt(nd) - 0x30;
  let up: boolean;
  if (next === 5 && nd + 1 === d.digits.length) {
    up = nd > 0 && (d.digits.charCodeAt(nd - 1) - 0x30) % 2 === 1;
  } else {
    up = next >= 5;
  }
  if (!up) {
    const digits = d.digits.slice(0, nd).replace(/0+$/, '');
    return { digits, dp: digits.length === 0 ? 0 : d.dp };
  }
  // Round up, carrying through 9s.
  let i = nd - 1;
  while (i >= 0 && d.digits[i] === '9') i--;
  if (i < 0) return { digits: '1', dp: d.dp + 1 };
  const digits = d.digits.slice(0, i) + String.fromCharCode(d.digits.charCodeAt(i) + 1);
  return { digits, dp: d.dp };
}

function digitAt(d: Decimal, i: number): string {
  return i < d.digits.length ? (d.digits[i] as string) : '0';
}

function fmtE(neg: boolean, d: Decimal, prec: number, fmtChar: string): string {
  let s = neg ? '-' : '';
  s += d.digits.length === 0 ? '0' : digitAt(d, 0);
  if (prec > 0) {
    s += '.';
    for (let i = 1; i <= prec; i++) s += digitAt(d, i);
  }
  s += fmtChar;
  let exp = d.digits.length === 0 ? 0 : d.dp - 1;
  if (exp < 0) {
    s += '-';
    exp = -exp;
  } else {
    s += '+';
  }
  s += exp < 10 ? `0${exp}` : String(exp);
  return s;
}

function fmtF(neg: boolean, d: Decimal, prec: number): string {
  let s = neg ? '-' : '';
  if (d.dp > 0) {
    for (let i = 0; i < d.dp; i++) s += digitAt(d, i);
  } else {
    s += '0';
  }
  if (prec > 0) {
    s += '.';
    for (let i = 1; i <= prec; i++) {
      const j = d.dp + i - 1;
      s += j < 0 ? '0' : digitAt(d, j);
    }
  }
  return s;
}

function fmtX(v: number, prec: number, fmtChar: 'x' | 'X'): string {
  // %x on floats: hexadecimal mantissa and binary exponent, e.g. 0x1.cp+01.
  const neg = v < 0 || Object.is(v, -0);
  const abs = Math.abs(v);
  let mant = 0n;
  let exp = 0;
  if (abs !== 0) {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, abs);
    const bits = view.getBigUint64(0);
    exp = Number((bits >> 52n) & 0x7ffn);
    mant = bits & ((1n << 52n) - 1n);
    if (exp === 0) {
      exp = -1022;
      while (mant < 1n << 52n) {
        mant <<= 1n;
        exp--;
      }
      mant &= (1n << 52n) - 1n;
    } else {
      exp -= 1023;
    }
    mant |= 1n << 52n;
  }
  // mant is 1.xxxx with 52 fraction bits: 13 hex digits.
  let frac = (mant & ((1n << 52n) - 1n)).toString(16).padStart(13, '0');
  let lead = abs === 0 ? '0' : '1';
  if (prec >= 0 && prec < 13) {
    const shift = BigInt((13 - prec) * 4);
    let m = mant;
    const half = 1n << (shift - 1n);
    const rem = m & ((1n << shift) - 1n);
    m >>= shift;
    if (rem > half || (rem === half && (m & 1n) === 1n)) m += 1n;
    if (m >> BigInt(prec * 4) >= 2n) {
      m >>= 1n;
      exp++;
    }
    lead = abs === 0 ? '0' : (m >> BigInt(prec * 4)).toString(16);
    frac = prec === 0 ? '' : (m & ((1n << BigInt(prec * 4)) - 1n)).toString(16).padStart(prec, '0');
  } else if (prec < 0) {
    frac = frac.replace(/0+$/, '');
  } else {
    frac = frac.padEnd(prec, '0');
  }
  let s = (neg ? '-' : '') + '0x' + lead + (frac.length > 0 ? `.${frac}` : '') + 'p';
  s += exp >= 0 ? '+' : '-';
  const e = Math.abs(exp);
  s += e < 10 ? `0${e}` : String(e);
  return fmtChar === 'X' ? s.toUpperCase() : s;
}

/** strconv.FormatFloat(v, fmt, prec, 64). */
export function formatFloat(v: number, fmtChar: string, prec: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (fmtChar === 'x' || fmtChar === 'X') return fmtX(v, prec, fmtChar);
  if (fmtChar === 'b') return formatBinary(v);
  const neg = v < 0 || Object.is(v, -0);
  const abs = Math.abs(v);
  const shortest = prec < 0;
  let d: Decimal;
  if (shortest) {
    d = shortestDecimal(abs);
  } else {
    d = exactDecimal(abs);
    switch (fmtChar) {
      case 'e':
      case 'E':
        d = roundDecimal(d, prec + 1);
        break;
      case 'f':
        d = roundDecimal(d, d.dp + prec);
        break;
      case 'g':
      case 'G':
        if (prec === 0) prec = 1;
        d = roundDecimal(d, prec);
        break;
    }
  }
  switch (fmtChar) {
    case 'e':
    case 'E':
      return fmtE(neg, d, shortest ? Math.max(d.digits.length - 1, 0) : prec, fmtChar);
    case 'f':
      return fmtF(neg, d, shortest ? Math.max(d.digits.length - d.dp, 0) : prec);
    case 'g':
    case 'G': {
      const nd = d.digits.length;
      let p = shortest ? nd : prec;
      let eprec = p;
      if (eprec > nd && nd >= d.dp) eprec = nd;
      if (shortest) eprec = 6;
      const exp = d.dp - 1;
      if (exp < -4 || exp >= eprec) {
        if (p > nd) p = nd;
        return fmtE(neg, d, p - 1, fmtChar === 'g' ? 'e' : 'E');
      }
      if (p > d.dp) p = nd;
      return fmtF(neg, d, Math.max(p - d.dp, 0));
    }
  }
  return `%${fmtChar}`;
}

function formatBinary(v: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  const bits = view.getBigUint64(0);
  const neg = bits >> 63n === 1n;
  let exp = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  if (exp === 0) exp++;
  else mant |= 1n << 52n;
  exp -= 1075;
  return `${neg ? '-' : ''}${mant}p${exp >= 0 ? '+' : ''}${exp}`;
}
