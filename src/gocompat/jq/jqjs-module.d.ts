/**
 * Types for @michaelhomer/jqjs (a pure-JS jq; the package ships no declarations). Only what
 * jq.ts uses is declared: compile() returns a generator function with the parsed tree attached.
 */
declare module '@michaelhomer/jqjs' {
  /** A node of jqjs's parse tree; jqjs-fixes.ts patches the prototypes of some node classes. */
  export interface JqjsNode {
    apply(input: unknown, conf: JqjsConf): Iterable<unknown>;
    [field: string]: unknown;
  }
  export interface JqjsConf {
    variables: Record<string, unknown>;
    userFuncArgs: Record<string, unknown>;
  }
  export interface JqjsFilter {
    (input: unknown): Generator<unknown, void, unknown>;
    readonly ast: JqjsNode;
  }
  export function compile(program: string): JqjsFilter;
  const jq: { compile: typeof compile };
  export default jq;
}
