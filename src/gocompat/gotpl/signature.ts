/**
 * Go checks template function calls against the function's parameter types (arity, literal
 * conversion, assignability). JS functions carry no types, so functions declare a signature here;
 * an undeclared function takes any number of interface{} arguments.
 */

export type TemplateFunc = (...args: unknown[]) => unknown;
export type FuncMap = Record<string, TemplateFunc>;

/**
 * Parameter types, named after the Go types they stand for:
 * - any: interface{} (nil arrives as null)
 * - value: reflect.Value, used by builtins that must tell a missing value (undefined) from nil (null)
 * - map: map[string]interface{}; time: time.Time
 */
export type ParamType = 'any' | 'value' | 'string' | 'int' | 'int64' | 'float64' | 'bool' | 'map' | 'time';

export interface FuncSignature {
  readonly params: readonly ParamType[];
  /** Type of the trailing variadic parameter, if any. */
  readonly variadic?: ParamType;
}

const UNTYPED: FuncSignature = { params: [], variadic: 'any' };
const signatures = new WeakMap<TemplateFunc, FuncSignature>();

/** Declares Go parameter types for fn (returns fn). */
export function typed<F extends TemplateFunc>(params: readonly ParamType[], fn: F, variadic?: ParamType): F {
  signatures.set(fn, variadic === undefined ? { params } : { params, variadic });
  return fn;
}

export function signatureOf(fn: TemplateFunc): FuncSignature {
  return signatures.get(fn) ?? UNTYPED;
}

export function goTypeOfParam(t: ParamType): string {
  switch (t) {
    case 'any':
      return 'interface {}';
    case 'value':
      return 'reflect.Value';
    case 'map':
      return 'map[string]interface {}';
    case 'time':
      return 'time.Time';
    default:
      return t;
  }
}

/** Whether Go's untyped nil can be assigned to the parameter type. */
export function canBeNil(t: ParamType): boolean {
  return t === 'any' || t === 'value' || t === 'map';
}
