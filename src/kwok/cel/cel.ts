/**
 * CEL for Stage selectors, weightFrom and durationFrom, on @marcbachmann/cel-js. The object is the
 * variable `self`; kwok's extra functions are Now(), Rand(), SinceSecond(obj), UnixSecond(time) and
 * Quantity(str), each one-argument function also usable as a method (`self.SinceSecond()`).
 *
 * The clock and random source are injected per evaluation (the environment is built once, and
 * evaluation is synchronous, so a module-level "current runtime" is safe).
 *
 * Known difference: kwok hands Pods and Nodes to CEL as typed Go structs, where an absent field
 * reads as its zero value ("" / 0 / false) and timestamps are CEL timestamps; here every object is
 * a map, so reading an absent field is an error (use has()) and timestamps are strings.
 */
import { Environment } from '@marcbachmann/cel-js';
import { parseGoDuration } from '../../gocompat/go-duration.js';

export interface CelRuntime {
  now: () => Date;
  random: () => number;
}

export interface CelProgram {
  readonly expression: string;
  /** Evaluates with `self` = the object; throws on a CEL runtime error. */
  evaluate(self: unknown, runtime: CelRuntime): unknown;
}

export class CelCompileError extends Error {
  constructor(
    readonly expression: string,
    detail: string,
  ) {
    super(`invalid CEL expression ${JSON.stringify(expression)}: ${detail}`);
    this.name = 'CelCompileError';
  }
}

let current: CelRuntime | undefined;

function runtime(): CelRuntime {
  if (current === undefined) throw new Error('CEL function called outside an evaluation');
  return current;
}

/** A CEL timestamp or an RFC 3339 string as epoch milliseconds. */
export function toMillis(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) return ms;
  }
  throw new Error(`not a time: ${String(value)}`);
}

function sinceSecond(obj: unknown): number {
  const created = (obj as { metadata?: { creationTimestamp?: unknown } } | null)?.metadata?.creationTimestamp;
  return (runtime().now().getTime() - toMillis(created)) / 1000;
}

function unixSecond(time: unknown): number {
  return toMillis(time) / 1000;
}

const QUANTITY_SUFFIX: Record<string, number> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** A Kubernetes resource quantity ("100m", "1Gi", "1e3") as a float, like Quantity.AsApproximateFloat64. */
export function parseQuantity(text: string): number {
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?)$/.exec(text.trim());
  if (!m) throw new Error(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': ${JSON.stringify(text)}`);
  const base = Number(m[1]);
  if (m[2] !== undefined) return base * 10 ** Number(m[2].slice(1));
  return base * QUANTITY_SUFFIX[m[3] ?? '']!;
}

function buildEnvironment(): Environment {
  return new Environment({ unlistedVariablesAreDyn: true, enableOptionalTypes: true, homogeneousAggregateLiterals: false })
    .registerFunction('Now(): google.protobuf.Timestamp', () => runtime().now())
    .registerFunction('Rand(): double', () => runtime().random())
    .registerFunction('SinceSecond(dyn): double', sinceSecond)
    .registerFunction('dyn.SinceSecond(): double', sinceSecond)
    .registerFunction('UnixSecond(dyn): double', unixSecond)
    .registerFunction('dyn.UnixSecond(): double', unixSecond)
    .registerFunction('Quantity(string): double', parseQuantity)
    .registerFunction('string.Quantity(): double', parseQuantity);
}

let environment: Environment | undefined;

const converted = new WeakMap<object, unknown>();

/**
 * JSON → CEL values: integral numbers become CEL ints (BigInt), as they are in kwok's
 * unstructured/typed objects; other numbers stay doubles. Cached per object identity, because all
 * CEL stages of one match see the same object: objects must not be mutated after matching (the
 * controllers must replace objects from the watch, not edit them in place).
 */
export function toCelValue(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (typeof value !== 'object' || value === null) return value;
  const hit = converted.get(value);
  if (hit !== undefined) return hit;
  const out = Array.isArray(value) ? value.map(toCelValue) : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toCelValue(v)]));
  converted.set(value, out);
  return out;
}

const cache = new Map<string, CelProgram>();

/** Type-checks and parses an expression in an environment; throws CelCompileError with the first line of the reason. */
export function checkAndParse(env: Environment, expression: string): (ctx: Record<string, unknown>) => unknown {
  try {
    const checked = env.check(expression);
    if (!checked.valid) throw checked.error ?? new Error('type check failed');
    return env.parse(expression) as unknown as (ctx: Record<string, unknown>) => unknown;
  } catch (error) {
    throw new CelCompileError(expression, error instanceof Error ? error.message.split('\n')[0]! : String(error));
  }
}

/** Parses and type-checks a CEL expression (cached); throws CelCompileError. */
export function compileCel(expression: string): CelProgram {
  const hit = cache.get(expression);
  if (hit !== undefined) return hit;
  environment ??= buildEnvironment();
  const evaluate = checkAndParse(environment, expression);
  const program: CelProgram = {
    expression,
    evaluate(self, rt) {
      const previous = current;
      current = rt;
      try {
        return evaluate({ self: toCelValue(self) });
      } finally {
        current = previous;
      }
    },
  };
  cache.set(expression, program);
  return program;
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (v instanceof Date) return 'timestamp';
  if (typeof v === 'object') return (v as object)[Symbol.toStringTag as keyof object] ?? (Array.isArray(v) ? 'list' : 'map');
  return typeof v;
}

/** A selector result: must be a CEL bool (kwok's cel.AsBool). */
export function celAsBool(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  throw new Error(`CEL result is ${kindOf(v)}, want bool`);
}

/** A weight: CEL int (or uint, or a double truncated). */
export function celAsInt(v: unknown): number {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'object' && v !== null && typeof (v as { value?: unknown }).value === 'bigint') return Number((v as { value: bigint }).value);
  throw new Error(`CEL result is ${kindOf(v)}, want int`);
}

/** A delay: a CEL duration, or a Go duration string such as "10s"; nanoseconds. */
export function celAsDurationNs(v: unknown): bigint {
  if (typeof v === 'object' && v !== null && kindOf(v) === 'google.protobuf.Duration') {
    const d = v as { seconds: bigint; nanos: number };
    return d.seconds * 1_000_000_000n + BigInt(d.nanos);
  }
  if (typeof v === 'string') {
    const ns = parseGoDuration(v);
    if (ns !== undefined) return ns;
  }
  throw new Error(`CEL result is ${kindOf(v)}, want duration`);
}
