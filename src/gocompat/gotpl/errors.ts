/**
 * Template errors carry Go's exact wording so messages match what kwok prints:
 *   parse: "template: _:3: function \"foo\" not defined"
 *   exec:  "template: _:1:5: executing \"_\" at <.a.b>: nil pointer evaluating interface {}.b"
 */
import { errorLocation, nodeString, type Node } from './nodes.js';
import { goQuote } from './quote.js';

export type TemplateErrorPhase = 'parse' | 'exec';

export interface TemplateErrorDetails {
  phase: TemplateErrorPhase;
  templateName: string;
  line: number;
  /** 0-based byte column, as Go reports it; undefined for parse errors, which Go reports by line only. */
  col?: number;
  /** The template text of the node being evaluated (exec errors). */
  context?: string;
  /** Output rendered before the failure (exec errors); kwok appends it to its error messages. */
  output?: string;
  cause?: unknown;
}

export class TemplateError extends Error {
  readonly phase: TemplateErrorPhase;
  readonly templateName: string;
  readonly line: number;
  readonly col: number | undefined;
  readonly context: string | undefined;
  output: string | undefined;

  constructor(message: string, details: TemplateErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'TemplateError';
    this.phase = details.phase;
    this.templateName = details.templateName;
    this.line = details.line;
    this.col = details.col;
    this.context = details.context;
    this.output = details.output;
  }
}

/** A parse failure; Go reports the line of the last token read. */
export function parseError(parseName: string, line: number, message: string): TemplateError {
  return new TemplateError(`template: ${parseName}:${line}: ${message}`, {
    phase: 'parse',
    templateName: parseName,
    line,
  });
}

/** An execution failure at node n of template `name` (Go's state.errorf). */
export function execError(name: string, n: Node | undefined, message: string, cause?: unknown): TemplateError {
  if (n === undefined) {
    return new TemplateError(`template: ${name}: ${message}`, { phase: 'exec', templateName: name, line: 0, cause });
  }
  const { location, line, col } = errorLocation(n);
  const context = nodeString(n);
  return new TemplateError(`template: ${location}: executing ${goQuote(name)} at <${context}>: ${message}`, {
    phase: 'exec',
    templateName: name,
    line,
    col,
    context,
    cause,
  });
}

/**
 * Thrown by template functions (and the builtins) to report a failure the way a Go function
 * returns an error: the executor wraps it as "error calling <name>: <message>".
 */
export class FuncError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FuncError';
  }
}
