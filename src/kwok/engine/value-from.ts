/**
 * Dynamic weights and delays (kwok's value_int_from.go / value_duration_from.go). A getter yields
 * a value or "unset"; CEL errors propagate (kwok aborts the match), jq errors mean no output.
 *
 * Weight from jq (first output): a string is parsed with strconv.ParseInt(s, 0, 64) ("" or
 * unparsable → unset); a float64 read from the object is truncated; anything else, including an
 * integer made by jq itself, falls back to the static weight. No output → static weight.
 *
 * Duration from jq (first output): "" → unset; an RFC3339(Nano) time → time − now (may be
 * negative); a Go duration string → that; anything else or no output → the milliseconds field.
 */
import type { ExpressionFrom } from '../api/stage-types.js';
import { celAsDurationNs, celAsInt, compileCel, type CelProgram, type CelRuntime } from '../cel/cel.js';
import { parseGoDuration } from '../../gocompat/go-duration.js';
import { dateToUnixNanos, parseGoInt, parseRFC3339Nano, subNanos } from '../../gocompat/go-values.js';
import { compileJq, type JqQuery } from '../../gocompat/jq/index.js';

export type Maybe<T> = { ok: true; value: T } | { ok: false };

const UNSET = { ok: false } as const;

function set<T>(value: T): Maybe<T> {
  return { ok: true, value };
}

interface Sources {
  cel?: CelProgram;
  jq?: JqQuery;
}

function compileSources(from: ExpressionFrom | undefined): Sources | undefined {
  if (from === undefined) return undefined;
  const out: Sources = {};
  if (from.cel) out.cel = compileCel(from.cel.expression);
  if (from.jq) out.jq = compileJq(from.jq.expression);
  return out;
}

export interface IntGetter {
  get(object: unknown, runtime: CelRuntime): Maybe<number>;
}

export function intGetter(value: number | undefined, from: ExpressionFrom | undefined): IntGetter {
  const sources = compileSources(from);
  const fallback: Maybe<number> = value === undefined ? UNSET : set(value);
  if (sources === undefined) return { get: () => fallback };
  return {
    get(object, runtime) {
      if (sources.cel) return set(celAsInt(sources.cel.evaluate(object, runtime)));
      if (!sources.jq) return fallback;
      const out = sources.jq.run(object);
      if (out.length === 0) return fallback;
      const first = out[0];
      if (typeof first === 'string') {
        if (first === '') return UNSET;
        const n = parseGoInt(first);
        return n === undefined ? UNSET : set(Number(n));
      }
      if (typeof first === 'number') {
        const isGoInt = sources.jq.numberOrigin === 'computed' && Number.isInteger(first);
        if (!isGoInt) return set(Math.trunc(first));
      }
      return fallback;
    },
  };
}

export interface DurationGetter {
  /** Nanoseconds. */
  get(object: unknown, runtime: CelRuntime): Maybe<bigint>;
}

export function durationGetter(valueNs: bigint | undefined, from: ExpressionFrom | undefined): DurationGetter | undefined {
  if (valueNs === undefined && from === undefined) return undefined;
  const fallback: Maybe<bigint> = valueNs === undefined ? UNSET : set(valueNs);
  const sources = compileSources(from);
  if (sources === undefined) return { get: () => fallback };
  return {
    get(object, runtime) {
      if (sources.cel) return set(celAsDurationNs(sources.cel.evaluate(object, runtime)));
      if (!sources.jq) return fallback;
      const out = sources.jq.run(object);
      if (out.length === 0) return fallback;
      const first = out[0];
      if (typeof first === 'string') {
        if (first === '') return UNSET;
        const at = parseRFC3339Nano(first);
        if (at !== undefined) return set(subNanos(at, dateToUnixNanos(runtime.now())));
        const d = parseGoDuration(first);
        if (d !== undefined) return set(d);
      }
      return fallback;
    },
  };
}
