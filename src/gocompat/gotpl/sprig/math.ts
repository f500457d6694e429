/**
 * sprig v3.3.0 arithmetic (numeric.go). Integer functions work in int64 via cast.ToInt64; the
 * float functions (addf, subf, mulf, divf) go through shopspring/decimal, so 0.1 + 0.2 is 0.3.
 */
import { randomInt } from 'node:crypto';
import { FuncError } from '../errors.js';
import { typed, type FuncMap } from '../signature.js';
import { float64, tagType } from '../values.js';
import { int64, toFloat, toInt, toInt64 } from './conv.js';

const n = (v: unknown): number => v as number;

/** A decimal value: coefficient × 10^exp, exact. */
interface Decimal {
  coef: bigint;
  exp: number;
}

/** decimal.NewFromFloat: the shortest decimal that round-trips to f. */
function decimalFromFloat(f: number): Decimal {
  if (!Number.isFinite(f)) throw new FuncError(`Cannot create a Decimal from ${f}`);
  if (f === 0) return { coef: 0n, exp: 0 };
  const [mantissa, e] = Math.abs(f).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const exp = Number(e) - (digits.length - 1);
  return { coef: (f < 0 ? -1n : 1n) * BigInt(digits), exp };
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const exp = Math.min(a.exp, b.exp);
  return [a.coef * 10n ** BigInt(a.exp - exp), b.coef * 10n ** BigInt(b.exp - exp), exp];
}

function decAdd(a: Decimal, b: Decimal): Decimal {
  const [x, y, exp] = align(a, b);
  return { coef: x + y, exp };
}

function decSub(a: Decimal, b: Decimal): Decimal {
  const [x, y, exp] = align(a, b);
  return { coef: x - y, exp };
}

function decMul(a: Decimal, b: Decimal): Decimal {
  return { coef: a.coef * b.coef, exp: a.exp + b.exp };
}

const DIVISION_PRECISION = 16;

/** decimal.Div: the quotient at 16 decimal places, rounded half away from zero (DivRound). */
function decDiv(a: Decimal, b: Decimal): Decimal {
  if (b.coef === 0n) throw new FuncError('decimal division by zero');
  const shift = DIVISION_PRECISION + a.exp - b.exp;
  let num = a.coef;
  let den = b.coef;
  if (shift >= 0) num *= 10n ** BigInt(shift);
  else den *= 10n ** BigInt(-shift);
  let q = num / den;
  const rem = num - q * den;
  const abs = (x: bigint): bigint => (x < 0n ? -x : x);
  if (2n * abs(rem) >= abs(den)) q += (num < 0n) !== (den < 0n) ? -1n : 1n;
  return { coef: q, exp: -DIVISION_PRECISION };
}

function decToFloat(d: Decimal): number {
  return Number(`${d.coef}e${d.exp}`);
}

function decimalOp(a: unknown, rest: unknown[], op: (x: Decimal, y: Decimal) => Decimal): unknown {
  let acc = decimalFromFloat(toFloat(a));
  for (const x of rest) acc = op(acc, decimalFromFloat(toFloat(x)));
  return float64(decToFloat(acc));
}

/** sprig's untilStep. */
function untilStep(start: number, stop: number, step: number): number[] {
  const v: number[] = [];
  if (stop < start) {
    if (step >= 0) return tagType(v, '[]int');
    for (let i = start; i > stop; i += step) v.push(i);
    return tagType(v, '[]int');
  }
  if (step <= 0) return tagType(v, '[]int');
  for (let i = start; i < stop; i += step) v.push(i);
  return tagType(v, '[]int');
}

function seq(params: number[]): string {
  let inc = 1;
  let list: number[];
  switch (params.length) {
    case 1: {
      const start = 1;
      const end = params[0] as number;
      if (end < start) inc = -1;
      list = untilStep(start, end + inc, inc);
      break;
    }
    case 2: {
      const [start, end] = params as [number, number];
      const step = end < start ? -1 : 1;
      list = untilStep(start, end + step, step);
      break;
    }
    case 3: {
      const [start, step, end] = params as [number, number, number];
      if (end < start) {
        inc = -1;
        if (step > 0) return '';
      }
      list = untilStep(start, end + inc, step);
      break;
    }
    default:
      return '';
  }
  return list.join(' ');
}

/** sprig's round: half-up at `places` (or at roundOn) on the scaled value. */
function round(a: unknown, places: number, roundOn = 0.5): number {
  const val = toFloat(a);
  const pow = 10 ** places;
  const digit = pow * val;
  const frac = digit - Math.trunc(digit);
  const r = frac >= roundOn ? Math.ceil(digit) : Math.floor(digit);
  return r / pow;
}

function divideInt(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new FuncError('runtime error: integer divide by zero');
  return int64(a / b);
}

function modInt(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new FuncError('runtime error: integer divide by zero');
  return a % b;
}

export function sprigMath(): FuncMap {
  return {
    atoi: typed(['string'], (a) => {
      const m = /^[+-]?\d+$/.exec(a as string);
      if (m === null) return 0;
      const v = BigInt(a as string);
      return v >= -(1n << 63n) && v < 1n << 63n ? Number(v) : 0;
    }),
    int64: typed(['any'], (v) => toInt64(v)),
    int: typed(['any'], (v) => toInt(v)),
    float64: typed(['any'], (v) => float64(toFloat(v))),
    seq: typed([], (...p) => seq(p as number[]), 'int'),
    toDecimal: typed(['any'], (v) => {
      const str = typeof v === 'string' ? v : String(v ?? '');
      return /^[+-]?[0-7]+$/.test(str) ? BigInt.asIntN(64, BigInt(`0o${str.replace(/^[+-]/, '')}`) * (str.startsWith('-') ? -1n : 1n)) : 0n;
    }),
    until: typed(['int'], (c) => untilStep(0, n(c), n(c) < 0 ? -1 : 1)),
    untilStep: typed(['int', 'int', 'int'], (a, b, c) => untilStep(n(a), n(b), n(c))),
    add1: typed(['any'], (i) => int64(toInt64(i) + 1n)),
    add: typed([], (...i) => i.reduce<bigint>((acc, b) => int64(acc + toInt64(b)), 0n), 'any'),
    sub: typed(['any', 'any'], (a, b) => int64(toInt64(a) - toInt64(b))),
    div: typed(['any', 'any'], (a, b) => divideInt(toInt64(a), toInt64(b))),
    mod: typed(['any', 'any'], (a, b) => modInt(toInt64(a), toInt64(b))),
    mul: typed(['any'], (a, ...v) => v.reduce<bigint>((acc, b) => int64(acc * toInt64(b)), toInt64(a)), 'any'),
    randInt: typed(['int', 'int'], (min, max) => {
      if (n(max) - n(min) <= 0) throw new FuncError('invalid argument to Intn');
      return randomInt(n(min), n(max));
    }),
    add1f: typed(['any'], (i) => decimalOp(i, [1], decAdd)),
    addf: typed([], (...i) => decimalOp(0, i, decAdd), 'any'),
    subf: typed(['any'], (a, ...v) => decimalOp(a, v, decSub), 'any'),
    divf: typed(['any'], (a, ...v) => decimalOp(a, v, decDiv), 'any'),
    mulf: typed(['any'], (a, ...v) => decimalOp(a, v, decMul), 'any'),
    biggest: typed(['any'], (a, ...i) => i.reduce<bigint>((acc, b) => (toInt64(b) > acc ? toInt64(b) : acc), toInt64(a)), 'any'),
    max: typed(['any'], (a, ...i) => i.reduce<bigint>((acc, b) => (toInt64(b) > acc ? toInt64(b) : acc), toInt64(a)), 'any'),
    min: typed(['any'], (a, ...i) => i.reduce<bigint>((acc, b) => (toInt64(b) < acc ? toInt64(b) : acc), toInt64(a)), 'any'),
    maxf: typed(['any'], (a, ...i) => float64(i.reduce<number>((acc, b) => Math.max(acc, toFloat(b)), toFloat(a))), 'any'),
    minf: typed(['any'], (a, ...i) => float64(i.reduce<number>((acc, b) => Math.min(acc, toFloat(b)), toFloat(a))), 'any'),
    ceil: typed(['any'], (a) => float64(Math.ceil(toFloat(a)))),
    floor: typed(['any'], (a) => float64(Math.floor(toFloat(a)))),
    round: typed(['any', 'int'], (a, p, ...r) => float64(round(a, n(p), r.length > 0 ? toFloat(r[0]) : 0.5)), 'float64'),
  };
}
