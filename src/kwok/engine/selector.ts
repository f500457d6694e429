/**
 * Stage selector evaluation, following kwok's pkg/utils/expression/selector.go and lifecycle.go:
 * - matchLabels / matchAnnotations: every pair present and equal (a label selector from a set);
 * - jq requirements: the query's outputs (none on a runtime error) against the operator. Only
 *   strings, booleans ("true"/"false") and integers made by jq itself ("3") can equal a value;
 *   numbers read from the object are float64 in gojq and never match, nor do objects/arrays.
 *   Exists = some output is non-null; NotIn / DoesNotExist are the negations;
 * - CEL requirements: must evaluate to a bool; an error is an error (kwok stops matching).
 */
import type { JqRequirement } from '../api/stage-types.js';
import { celAsBool, type CelProgram, type CelRuntime } from '../cel/cel.js';
import type { JqQuery } from '../../gocompat/jq/index.js';

export function matchesSet(selector: Record<string, string> | undefined, actual: unknown): boolean {
  if (selector === undefined) return true;
  const set = (typeof actual === 'object' && actual !== null ? actual : {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(selector)) {
    if (!Object.prototype.hasOwnProperty.call(set, key) || set[key] !== value) return false;
  }
  return true;
}

export interface CompiledJqRequirement extends JqRequirement {
  query: JqQuery;
}

function hasValue(output: unknown, values: readonly string[], query: JqQuery): boolean {
  if (typeof output === 'string') return values.includes(output);
  if (typeof output === 'boolean') return values.includes(output ? 'true' : 'false');
  if (typeof output === 'number' && query.numberOrigin === 'computed' && Number.isSafeInteger(output)) {
    return values.includes(String(output === 0 ? 0 : output));
  }
  return false;
}

export function jqRequirementMatches(req: CompiledJqRequirement, object: unknown): boolean {
  const outputs = req.query.run(object);
  switch (req.operator) {
    case 'In':
      return outputs.some((o) => hasValue(o, req.values, req.query));
    case 'NotIn':
      return !outputs.some((o) => hasValue(o, req.values, req.query));
    case 'Exists':
      return outputs.some((o) => o !== null);
    case 'DoesNotExist':
      return !outputs.some((o) => o !== null);
  }
}

/** Throws when the expression fails or does not yield a bool. */
export function celConditionMatches(program: CelProgram, object: unknown, runtime: CelRuntime): boolean {
  return celAsBool(program.evaluate(object, runtime));
}
