/**
 * Makes @michaelhomer/jqjs behave like gojq (which kwok uses) where Stage expressions can tell the
 * difference. jqjs keeps its node classes private, so the fixes are applied to the prototypes of
 * nodes taken from small compiled programs; this runs once, before the first compile. Because
 * these reach into private classes, package.json pins jqjs exactly: re-run the differential test
 * before moving the pin.
 *
 * Fixed here (each checked against real jq by test/unit/gocompat/jq/jq-differential.test.ts):
 * - `a // b` yielded null/false outputs of `a` and did not suppress errors in `a`;
 * - `keys` / `keys_unsorted` yielded the keys one by one instead of one array;
 * - `."a-b"` evaluated to the string "a-b" (jq-source.ts rewrites it to `.["a-b"]`);
 * - indexing a string, number or boolean yielded null or a character instead of an error;
 * - `f?` dropped null outputs;
 * - `if` used JavaScript truthiness (0 and "" are true in jq) and only the first condition output;
 * - `and` / `or` neither short-circuited nor followed jq's output order;
 * - a slice with no end (`.[1:]`) dropped the last element (jq-source.ts makes the end `null`);
 * - `error`, `utf8bytelength` and `test(re; flags)` were missing, `ltrimstr`/`rtrimstr` failed on
 *   non-strings, `tonumber` gave NaN for text, and division by zero gave null instead of an error.
 * Kept from gojq rather than jq 1.7: an error on the left of `//` selects the right-hand side.
 * Still unsupported (a compile or runtime error, so "no value"): try/catch, label/break, `?//`,
 * destructuring `as [$a]`, $__loc__, env/$ENV, input*, @sh with interpolation, strptime/mktime.
 * The source-level fixes are in jq-source.ts, the parse-tree checks in jq-analysis.ts.
 */
import jqjs, { type JqjsConf, type JqjsNode } from '@michaelhomer/jqjs';

export type Apply = (this: JqjsNode, input: unknown, conf: JqjsConf) => Iterable<unknown>;

function truthy(v: unknown): boolean {
  return v !== false && v !== null;
}

/**
 * Runtime errors of the patched nodes. Not an Error subclass on purpose: no stack is captured,
 * and jq errors are frequent (every `.a.b` on a string) and always caught.
 */
class JqRuntimeError {
  constructor(readonly message: string) {}
}

function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function child(node: JqjsNode, field: string): JqjsNode {
  return node[field] as JqjsNode;
}

/** A node of the given class, found by walking the tree of a compiled sample program. */
export function sampleNode(program: string, className: string): JqjsNode {
  const seen = new Set<unknown>();
  const stack: unknown[] = [jqjs.compile(program).ast];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (value.constructor?.name === className) return value as JqjsNode;
    for (const v of Object.values(value)) stack.push(v);
  }
  throw new Error(`jqjs internals changed: no ${className} in "${program}"`);
}

function patch(program: string, className: string, apply: Apply): void {
  const proto = Object.getPrototypeOf(sampleNode(program, className)) as { apply: Apply };
  proto.apply = apply;
}

function* alternative(this: JqjsNode, input: unknown, conf: JqjsConf): Generator<unknown> {
  let found = false;
  try {
    for (const v of child(this, 'lhs').apply(input, conf)) {
      if (!truthy(v)) continue;
      found = true;
      yield v;
    }
  } catch {
    // jq: errors on the left-hand side of // are suppressed.
  }
  if (!found) yield* child(this, 'rhs').apply(input, conf);
}

function checkIndexable(target: unknown, index: unknown): void {
  const t = typeName(target);
  if (t === 'null' || t === 'object' || t === 'array') return;
  throw new JqRuntimeError(`Cannot index ${t} with ${typeName(index)}`);
}

function indexValue(target: unknown, index: unknown): unknown {
  if (target === null || target === undefined) return null;
  if (Array.isArray(target)) {
    if (typeof index !== 'number') throw new JqRuntimeError(`Cannot index array with ${typeName(index)}`);
    const i = Math.floor(index);
    const v = target[i < 0 ? target.length + i : i];
    return v === undefined ? null : v;
  }
  if (typeof index !== 'string') throw new JqRuntimeError(`Cannot index object with ${typeName(index)}`);
  const record = target as Record<string, unknown>;
  return Object.prototype.hasOwnProperty.call(record, index) ? record[index] : null;
}

function* genericIndex(this: JqjsNode, input: unknown, conf: JqjsConf): Generator<unknown> {
  for (const i of child(this, 'index').apply(input, conf)) {
    checkIndexable(input, i);
    yield indexValue(input, i);
  }
}

function* indexNode(this: JqjsNode, input: unknown, conf: JqjsConf): Generator<unknown> {
  for (const l of child(this, 'lhs').apply(input, conf)) {
    for (const i of child(this, 'index').apply(input, conf)) {
      checkIndexable(l, i);
      yield indexValue(l, i);
    }
  }
}

function* errorSuppression(this: JqjsNode, input: unknown, conf: JqjsConf): Generator<unknown> {
  try {
    yield* child(this, 'inner').apply(input, conf);
  } catch {
    // `f?` ends quietly at the first error, keeping what came before.
  }
}

function* ifNode(this: JqjsNode, input: unknown, conf: JqjsConf): Generator<unknown> {
  const conditions = this.conditions as JqjsNode[];
  const thens = this.thens as JqjsNode[];
  const elseBranch = this.elseBranch as JqjsNode | undefined;
  function* from(level: number): Generator<unknown> {
    if (level >= conditions.length) {
      if (elseBranch) yield* elseBranch.apply(input, conf);
      else yield input;
      return;
    }
    for (const c of conditions[level]!.apply(input, conf)) {
      if (truthy(c)) yield* thens[level]!.apply(input, conf);
      else yield* from(level + 1);
    }
  }
  yield* from(0);
}

function* andNode(this: JqjsNode, input: unknown, conf: JqjsConf): Generator<unknown> {
  for (const l of child(this, 'l').apply(input, conf)) {
    if (!truthy(l)) {
      yield false;
      continue;
    }
    for (const r of child(this, 'r').apply(input, conf)) yield truthy(r);
  }
}

function* orNode(this: JqjsNode, input: unknown, conf: JqjsConf): Generator<unknown> {
  for (const l of child(this, 'l').apply(input, conf)) {
    if (truthy(l)) {
      yield true;
      continue;
    }
    for (const r of child(this, 'r').apply(input, conf)) yield truthy(r);
  }
}

function sliceValue(target: unknown, from: unknown, to: unknown): unknown {
  if (target === null || target === undefined) return null;
  if (typeof target !== 'string' && !Array.isArray(target)) throw new JqRuntimeError(`Cannot index ${typeName(target)} with object`);
  if ((from !== null && typeof from !== 'number') || (to !== null && typeof to !== 'number')) throw new JqRuntimeError('Start and end indices of an array slice must be numbers');
  const len = target.length;
  const clamp = (n: number): number => Math.min(len, Math.max(0, n < 0 ? n + len : n));
  const start = from === null ? 0 : clamp(Math.floor(from as number));
  const end = to === null ? len : clamp(Math.ceil(to as number));
  return target.slice(start, Math.max(start, end));
}

function* sliceNode(this: JqjsNode, input: unknown, conf: JqjsConf): Generator<unknown> {
  for (const l of child(this, 'lhs').apply(input, conf))
    for (const from of child(this, 'from').apply(input, conf))
      for (const to of child(this, 'to').apply(input, conf)) yield sliceValue(l, from, to);
}

function* genericSlice(this: JqjsNode, input: unknown, conf: JqjsConf): Generator<unknown> {
  for (const from of child(this, 'from').apply(input, conf))
    for (const to of child(this, 'to').apply(input, conf)) yield sliceValue(input, from, to);
}

function* keysOf(input: unknown, sorted: boolean): Generator<unknown> {
  if (Array.isArray(input)) {
    yield input.map((_, i) => i);
    return;
  }
  if (typeName(input) !== 'object') throw new JqRuntimeError(`${typeName(input)} has no keys`);
  const keys = Object.keys(input as object);
  yield sorted ? keys.sort() : keys;
}

function* errorFunction(input: unknown, conf: JqjsConf, args: JqjsNode[]): Generator<unknown> {
  if (args.length === 0) throw new JqRuntimeError(typeof input === 'string' ? input : JSON.stringify(input));
  for (const message of args[0]!.apply(input, conf)) throw new JqRuntimeError(typeof message === 'string' ? message : JSON.stringify(message));
}

function* trimString(input: unknown, conf: JqjsConf, args: JqjsNode[], atStart: boolean): Generator<unknown> {
  for (const affix of args[0]!.apply(input, conf)) {
    if (typeof input !== 'string' || typeof affix !== 'string') yield input;
    else if (atStart) yield input.startsWith(affix) ? input.slice(affix.length) : input;
    else yield input.endsWith(affix) && affix !== '' ? input.slice(0, input.length - affix.length) : input;
  }
}

/** Oniguruma flags jq accepts that have a JavaScript equivalent; 'g' and 'n' do not change a test. */
function regexFlags(flags: unknown): string {
  if (flags === null) return '';
  if (typeof flags !== 'string') throw new JqRuntimeError(`${JSON.stringify(flags)} is not a string`);
  let out = '';
  for (const f of flags) {
    if (f === 'i') out += 'i';
    else if (f === 's') out += 's';
    else if (f === 'x' || f === 'g' || f === 'n' || f === 'l' || f === 'p') continue;
    else throw new JqRuntimeError(`${flags} is not a valid modifier string`);
  }
  return out;
}

function* testWithFlags(input: unknown, conf: JqjsConf, args: JqjsNode[]): Generator<unknown> {
  if (typeof input !== 'string') throw new JqRuntimeError(`${typeName(input)} cannot be matched, as it is not a string`);
  for (const flags of args[1]!.apply(input, conf)) {
    for (const re of args[0]!.apply(input, conf)) {
      if (typeof re !== 'string') throw new JqRuntimeError(`${typeName(re)} cannot be matched, as it is not a string`);
      const source = typeof flags === 'string' && flags.includes('x') ? re.replace(/\s+|#.*$/gm, '') : re;
      yield new RegExp(source, regexFlags(flags)).test(input);
    }
  }
}

type Builtin = (input: unknown, conf: JqjsConf, args: JqjsNode[]) => Iterable<unknown>;

const BUILTIN_FIXES: Record<string, Builtin> = {
  'keys/0': (input) => keysOf(input, true),
  'keys_unsorted/0': (input) => keysOf(input, false),
  'error/0': errorFunction,
  'error/1': errorFunction,
  'utf8bytelength/0': function* (input) {
    if (typeof input !== 'string') throw new JqRuntimeError(`${typeName(input)} only strings have UTF-8 byte length`);
    yield Buffer.byteLength(input, 'utf8');
  },
  'ltrimstr/1': (input, conf, args) => trimString(input, conf, args, true),
  'rtrimstr/1': (input, conf, args) => trimString(input, conf, args, false),
  'test/2': testWithFlags,
  'tonumber/0': function* (input) {
    if (typeof input === 'number') return yield input;
    if (typeof input === 'string' && /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(input)) return yield Number(input);
    throw new JqRuntimeError(`Cannot parse ${JSON.stringify(input)} as JSON`);
  },
};

function patchFunctionCalls(): void {
  const proto = Object.getPrototypeOf(sampleNode('keys', 'FunctionCall')) as { apply: Apply };
  const original = proto.apply;
  proto.apply = function (this: JqjsNode, input: unknown, conf: JqjsConf): Iterable<unknown> {
    const name = this.name as string;
    const fix = BUILTIN_FIXES[name];
    const userDefined = (conf.userFuncArgs as Record<string, unknown>)[name] !== undefined;
    if (fix !== undefined && !userDefined) return fix(input, conf, this.args as JqjsNode[]);
    return original.call(this, input, conf);
  };
}

/** jq refuses to divide (or take a remainder) by zero; jqjs returned Infinity/NaN. */
function patchDivisionByZero(program: string, className: string): void {
  const proto = Object.getPrototypeOf(sampleNode(program, className)) as { combine: (l: unknown, r: unknown, lt: string, rt: string) => unknown };
  const original = proto.combine;
  proto.combine = function (l, r, lt, rt) {
    if (lt === 'number' && rt === 'number' && r === 0) throw new JqRuntimeError(`${String(l)} and ${String(r)} cannot be divided because the divisor is zero`);
    return original.call(this, l, r, lt, rt);
  };
}

let patched = false;

/** Applies the fixes above once per process. */
export function ensureJqjsPatched(): void {
  if (patched) return;
  patched = true;
  patch('. // .', 'AlternativeOperator', alternative);
  patch('.[0]', 'GenericIndex', genericIndex);
  patch('.a[0]', 'IndexNode', indexNode);
  patch('.a?', 'ErrorSuppression', errorSuppression);
  patch('if . then . else . end', 'IfNode', ifNode);
  patch('. and .', 'AndOperator', andNode);
  patch('. or .', 'OrOperator', orNode);
  patch('.a[1:2]', 'SliceNode', sliceNode);
  patch('.[1:2]', 'GenericSlice', genericSlice);
  patchFunctionCalls();
  patchDivisionByZero('1 / 1', 'DivisionOperator');
  patchDivisionByZero('1 % 1', 'ModuloOperator');
  // IdentifierIndex (.a) must not have its own apply, or the GenericIndex fix would miss it.
  const identifier = Object.getPrototypeOf(sampleNode('.a', 'IdentifierIndex')) as object;
  if (Object.prototype.hasOwnProperty.call(identifier, 'apply')) throw new Error('jqjs internals changed: IdentifierIndex.apply');
}
