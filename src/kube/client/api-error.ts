/**
 * A failed API call. `status` is the HTTP status (0 for connection-level failures) and `reason` the
 * metav1.Status reason when the server sent one, so callers can branch on NotFound/Conflict/Gone
 * without parsing messages.
 */
export class KubeApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly reason: string | undefined,
    options: { cause?: unknown; retryAfterMs?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KubeApiError';
    this.retryAfterMs = options.retryAfterMs ?? 0;
  }

  /** Retry-After sent with 429/503, in milliseconds (0 when absent). */
  readonly retryAfterMs: number;

  static fromStatus(method: string, path: string, status: number, body: unknown, retryAfterMs = 0): KubeApiError {
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const reason = typeof record['reason'] === 'string' ? record['reason'] : undefined;
    const detail = typeof record['message'] === 'string' ? record['message'] : typeof body === 'string' ? body.slice(0, 200) : '';
    return new KubeApiError(`${method} ${path}: ${status}${reason ? ` ${reason}` : ''}${detail ? `: ${detail}` : ''}`, status, reason, { retryAfterMs });
  }
}

export function isNotFound(error: unknown): boolean {
  return error instanceof KubeApiError && error.status === 404;
}

export function isConflict(error: unknown): boolean {
  return error instanceof KubeApiError && error.status === 409;
}

/** The caller may not do this (RBAC) or the resource does not take this verb. */
export function isRefused(error: unknown): boolean {
  return error instanceof KubeApiError && (error.status === 403 || error.status === 405);
}

export function isAlreadyExists(error: unknown): boolean {
  return error instanceof KubeApiError && error.status === 409 && error.reason === 'AlreadyExists';
}

export function isGone(error: unknown): boolean {
  return error instanceof KubeApiError && (error.status === 410 || error.reason === 'Expired' || error.reason === 'Gone');
}
