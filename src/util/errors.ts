/**
 * Every failure a user can cause or fix is a KwoktsError: a one-line message in the user's
 * terms, an optional hint (the next thing to try) and a stable exit code. Only the CLI's error
 * funnel prints them; everything below it throws.
 */
const BRAND = Symbol.for('kwokts.error');

export interface KwoktsErrorOptions {
  hint?: string;
  cause?: unknown;
}

export abstract class KwoktsError extends Error {
  readonly [BRAND] = true;
  abstract readonly code: string;
  abstract readonly exitCode: number;
  readonly hint: string | undefined;
  /** Failures of a rollback that ran after this error; they never replace it. */
  readonly suppressed: unknown[] = [];

  constructor(message: string, options: KwoktsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint;
  }

  static is(value: unknown): value is KwoktsError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

/** Bad flag, config file, Stage YAML or argument. */
export class UsageError extends KwoktsError {
  readonly code = 'USAGE';
  readonly exitCode = 2;
}

/** A runtime, binary, port or permission is missing; nothing has been changed yet. */
export class PreflightError extends KwoktsError {
  readonly code = 'PREFLIGHT';
  readonly exitCode = 3;
}

/** The cluster already exists, or another kwokts process holds its lock. */
export class ConflictError extends KwoktsError {
  readonly code = 'CONFLICT';
  readonly exitCode = 4;
}

/** The named cluster (or component) does not exist. */
export class NotFoundError extends KwoktsError {
  readonly code = 'NOT_FOUND';
  readonly exitCode = 4;
}

/** A deadline (--wait, --timeout) passed. */
export class TimeoutError extends KwoktsError {
  readonly code = 'TIMEOUT';
  readonly exitCode = 5;
}

/** A step failed after changes began; any rollback has already run. */
export class OperationError extends KwoktsError {
  readonly code = 'OPERATION_FAILED';
  readonly exitCode = 1;
}

/** A download failed or its content did not match the published checksum. */
export class ArtifactError extends KwoktsError {
  readonly code = 'ARTIFACT';
  readonly exitCode = 1;
}

/** A child process exited non-zero; keeps the command line and the tail of its output. */
export class ExternalCommandError extends KwoktsError {
  readonly code = 'EXTERNAL_COMMAND';
  readonly exitCode = 1;
  constructor(
    message: string,
    readonly command: readonly string[],
    readonly output: string,
    options: KwoktsErrorOptions = {},
  ) {
    super(message, options);
  }
}

/** The operation was interrupted by SIGINT/SIGTERM; exit code follows the shell convention. */
export class InterruptedError extends KwoktsError {
  readonly code = 'INTERRUPTED';
  readonly exitCode: number;
  constructor(signal: 'SIGINT' | 'SIGTERM', options: KwoktsErrorOptions = {}) {
    super(`interrupted by ${signal}`, options);
    this.exitCode = signal === 'SIGINT' ? 130 : 143;
  }
}

/** Anything that is not a KwoktsError reaching the top is our bug. */
export function describeUnknown(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
