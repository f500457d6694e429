/**
 * jq for Stage selectors and `*From` expressions, with gojq's behaviour where kwok depends on it:
 * a runtime error means "no value" (kwok's Query.Execute returns nil on the first error), and the
 * compiled query knows whether its numbers come from the object (float64 in gojq) or were made by
 * jq (Go ints), because kwok's `In` and weight rules treat the two differently.
 *
 * Backed by @michaelhomer/jqjs with the fixes in jqjs-fixes.ts, jq-source.ts and jq-analysis.ts; compiled queries are cached by
 * expression text because every object event re-evaluates the same few expressions.
 */
import jqjs from '@michaelhomer/jqjs';
import { checkProgram, numberOrigin, type NumberOrigin } from './jq-analysis.js';
import { rewriteSource } from './jq-source.js';
import { ensureJqjsPatched } from './jqjs-fixes.js';

export interface JqQuery {
  readonly expression: string;
  /** Every output for `input`; [] if evaluation fails at any point. */
  run(input: unknown): unknown[];
  /** 'input' when numeric outputs are read from the object rather than computed by jq. */
  readonly numberOrigin: NumberOrigin;
}

/** The expression does not parse. */
export class JqCompileError extends Error {
  constructor(
    readonly expression: string,
    detail: string,
  ) {
    super(`invalid jq expression ${JSON.stringify(expression)}: ${detail}`);
    this.name = 'JqCompileError';
  }
}

const CACHE_LIMIT = 2048;
const cache = new Map<string, JqQuery>();

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function build(expression: string): JqQuery {
  ensureJqjsPatched();
  let filter: ReturnType<typeof jqjs.compile>;
  try {
    filter = jqjs.compile(rewriteSource(expression));
    checkProgram(filter.ast);
  } catch (error) {
    throw new JqCompileError(expression, describe(error));
  }
  const interpret = (input: unknown): unknown[] => {
    const out: unknown[] = [];
    try {
      for (const v of filter(input)) out.push(v === undefined ? null : v);
    } catch {
      return [];
    }
    return out;
  };
  const origin = numberOrigin(filter.ast);
  const path = fieldPath(expression);
  if (path !== undefined) return { expression, numberOrigin: origin, run: (input) => runFieldPath(path, input) };
  const walk = listWalk(expression);
  if (walk !== undefined) return { expression, numberOrigin: origin, run: (input) => runListWalk(walk, input, interpret) };
  return { expression, numberOrigin: origin, run: interpret };
}

/**
 * The keys of a plain field path such as `.metadata.deletionTimestamp` or `.status.phase`, the
 * most common selector in kwok's stages; undefined for any other expression. Matching objects
 * evaluates these for every watch event, and walking the keys directly costs a fraction of
 * jqjs's generator pipeline.
 */
function fieldPath(expression: string): string[] | undefined {
  const text = expression.trim();
  if (!/^(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(text)) return undefined;
  return text.slice(1).split('.');
}

/** jq's `.a.b`: null on null or a missing key; indexing anything but an object is an error (no outputs). */
function runFieldPath(path: readonly string[], input: unknown): unknown[] {
  let value = input;
  for (const key of path) {
    if (value === null || value === undefined) return [null];
    if (typeof value !== 'object' || Array.isArray(value)) return [];
    // Own keys only: `.constructor` of a JSON object is null, not Object's constructor.
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : null;
  }
  return [value === undefined ? null : value];
}

const KEYS = '((?:\\.[A-Za-z_][A-Za-z0-9_]*)+)';
const NAME = '([A-Za-z_][A-Za-z0-9_]*)';
const SELECT_WALK = new RegExp(`^${KEYS}\\.?\\[\\]\\s*\\|\\s*select\\(\\s*\\.${NAME}\\s*==\\s*"([A-Za-z0-9_ ./-]*)"\\s*\\)\\s*\\|\\s*${KEYS}$`);
const PLAIN_WALK = new RegExp(`^${KEYS}\\.?\\[\\]${KEYS}$`);

/** `.a.b.[] | select( .k == "s" ) | .c` or `.a.b.[].c`: a list under a field path, filtered, and a field of each item. */
interface ListWalk {
  list: string[];
  select?: { key: string; value: string };
  item: string[];
}

/**
 * The other selectors kwok's stages use for every watch event (a condition's status, the kinds of
 * the owners, a container state), read without jqjs as fieldPath's are.
 */
function listWalk(expression: string): ListWalk | undefined {
  const text = expression.trim();
  const keys = (path: string): string[] => path.slice(1).split('.');
  const selected = SELECT_WALK.exec(text);
  if (selected) return { list: keys(selected[1]!), select: { key: selected[2]!, value: selected[3]! }, item: keys(selected[4]!) };
  const plain = PLAIN_WALK.exec(text);
  if (plain) return { list: keys(plain[1]!), item: keys(plain[2]!) };
  return undefined;
}

/**
 * jq's answer for a ListWalk where it is plain: iterating null is an error, a null item has no key
 * equal to a string, and an error anywhere means no outputs at all (kwok's rule). A list that is
 * not an array (an object iterates its values) or an item of another type goes to `interpret`.
 */
function runListWalk(walk: ListWalk, input: unknown, interpret: (input: unknown) => unknown[]): unknown[] {
  const found = runFieldPath(walk.list, input);
  if (found.length === 0 || found[0] === null) return [];
  const list = found[0];
  if (!Array.isArray(list)) return interpret(input);
  const out: unknown[] = [];
  for (const item of list) {
    if (walk.select) {
      if (item === null) continue;
      if (typeof item !== 'object' || Array.isArray(item)) return interpret(input);
      if (!Object.hasOwn(item, walk.select.key) || (item as Record<string, unknown>)[walk.select.key] !== walk.select.value) continue;
    }
    const value = runFieldPath(walk.item, item);
    if (value.length === 0) return [];
    out.push(value[0]);
  }
  return out;
}

/** Compiles (or fetches from the cache) a jq expression; throws JqCompileError. */
export function compileJq(expression: string): JqQuery {
  const hit = cache.get(expression);
  if (hit !== undefined) return hit;
  const query = build(expression);
  if (cache.size >= CACHE_LIMIT) {
    // Oldest first: Map iteration order is insertion order.
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(expression, query);
  return query;
}

/** Convenience: all outputs of `expression` on `input` ([] on a runtime error). */
export function evalJq(expression: string, input: unknown): unknown[] {
  return compileJq(expression).run(input);
}
