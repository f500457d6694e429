/**
 * The kinds of kwok's Logs and streaming (Exec, Attach, PortForward) documents, apart from their
 * schemas: a config loader tells them by kind and loads the schemas (zod) only for a file that
 * has one.
 */
export type LogsKind = 'Logs' | 'ClusterLogs';
export const LOGS_KINDS: readonly LogsKind[] = ['Logs', 'ClusterLogs'];

export type StreamingKind = 'Exec' | 'ClusterExec' | 'Attach' | 'ClusterAttach' | 'PortForward' | 'ClusterPortForward';
export const STREAMING_KINDS: readonly StreamingKind[] = ['Exec', 'ClusterExec', 'Attach', 'ClusterAttach', 'PortForward', 'ClusterPortForward'];

export function isLogsKind(kind: unknown): kind is LogsKind {
  return typeof kind === 'string' && (LOGS_KINDS as readonly string[]).includes(kind);
}

export function isStreamingKind(kind: unknown): kind is StreamingKind {
  return typeof kind === 'string' && (STREAMING_KINDS as readonly string[]).includes(kind);
}
