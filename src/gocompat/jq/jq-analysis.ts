/**
 * Static checks on a jqjs parse tree: what gojq would reject at compile time (checkProgram) and
 * where the numbers an expression outputs come from (numberOrigin).
 */
import type { JqjsNode } from '@michaelhomer/jqjs';
import { ensureJqjsPatched, sampleNode, type Apply } from './jqjs-fixes.js';

function child(node: JqjsNode, field: string): JqjsNode {
  return node[field] as JqjsNode;
}

/**
 * jqjs accepts programs gojq rejects at compile time: empty operands (`1 +`, `|||`, `()`) and
 * calls of functions that do not exist (found only when evaluated). Both are reported here, so a
 * typo in a Stage is an error when the stage is loaded. Throws a message describing the problem.
 */
export function checkProgram(ast: JqjsNode): void {
  ensureJqjsPatched();
  const callProto = Object.getPrototypeOf(sampleNode('keys', 'FunctionCall')) as { apply: Apply };
  const seen = new Set<unknown>();
  const visit = (node: unknown, allowEmpty: boolean): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item, false);
      return;
    }
    const n = node as JqjsNode;
    const kind = n.constructor?.name;
    if (kind === 'FilterNode' && n.length === 0 && !allowEmpty) throw new Error('syntax error: missing expression');
    if (kind === 'FunctionCall') {
      const probe = Object.assign(Object.create(callProto) as JqjsNode, { name: n.name, args: n.args });
      try {
        callProto.apply.call(probe, null, { variables: {}, userFuncArgs: {} });
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        if (/no such function/.test(text)) throw new Error(`function not defined: ${String(n.name)}`);
      }
    }
    for (const [key, value] of Object.entries(n)) visit(value, kind === 'ArrayNode' && key === 'body');
  };
  visit(ast, false);
}

/** How numbers coming out of an expression were made, in gojq's terms. */
export type NumberOrigin = 'input' | 'computed';

/** Functions whose outputs are (parts of) their input. */
const INPUT_FUNCTIONS = new Set(['select/1', 'recurse/0', 'recurse/1', 'first/0', 'last/0', 'nth/1', 'values/0', 'numbers/0', 'empty/0', 'getpath/1', 'arrays/0', 'objects/0', 'iterables/0', 'scalars/0']);
/** Functions whose outputs are those of their last argument. */
const ARGUMENT_FUNCTIONS = new Set(['first/1', 'last/1', 'limit/2', 'nth/2']);

/**
 * Whether the numbers an expression outputs are read from the input object. gojq decodes the
 * object's numbers as float64 but makes Go ints for literals and results such as `length`, and
 * kwok's `In` only matches ints; jqjs has one number type, so this static look at the parse tree
 * stands in for gojq's runtime types. Numbers computed from input numbers by arithmetic count as
 * 'computed' (gojq would give float64 there too; a documented approximation).
 */
export function numberOrigin(node: JqjsNode): NumberOrigin {
  return originOf(node, 'input');
}

function originOf(node: JqjsNode | undefined, inOrigin: NumberOrigin): NumberOrigin {
  if (node === undefined) return inOrigin;
  switch (node.constructor.name) {
    case 'IdentityNode':
    case 'GenericIndex':
    case 'IdentifierIndex':
    case 'GenericSlice':
    case 'GenericValueIterator':
    case 'RecursiveDescent':
      return inOrigin;
    case 'IndexNode':
    case 'SliceNode':
      return originOf(child(node, 'lhs'), inOrigin);
    case 'SpecificValueIterator':
      return originOf(child(node, 'source'), inOrigin);
    case 'FilterNode':
      return originOf(child(node, 'filter'), originOf(child(node, 'source'), inOrigin));
    case 'VariableBinding':
      return inOrigin;
    case 'PipeNode':
      return originOf(child(node, 'rhs'), originOf(child(node, 'lhs'), inOrigin));
    case 'CommaNode':
      return combine((node.branches as JqjsNode[]).map((b) => originOf(b, inOrigin)));
    case 'AlternativeOperator':
      return combine([originOf(child(node, 'lhs'), inOrigin), originOf(child(node, 'rhs'), inOrigin)]);
    case 'IfNode': {
      const branches = [...(node.thens as JqjsNode[])];
      const elseBranch = node.elseBranch as JqjsNode | undefined;
      const origins = branches.map((b) => originOf(b, inOrigin));
      origins.push(elseBranch ? originOf(elseBranch, inOrigin) : inOrigin);
      return combine(origins);
    }
    case 'ErrorSuppression':
      return originOf(child(node, 'inner'), inOrigin);
    case 'FunctionCall': {
      const name = node.name as string;
      if (INPUT_FUNCTIONS.has(name)) return inOrigin;
      if (!ARGUMENT_FUNCTIONS.has(name)) return 'computed';
      const args = node.args as JqjsNode[];
      return originOf(args[args.length - 1], inOrigin);
    }
    default:
      return 'computed';
  }
}

function combine(origins: NumberOrigin[]): NumberOrigin {
  return origins.every((o) => o === 'input') ? 'input' : 'computed';
}
