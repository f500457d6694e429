/** What controllers report; the server's Prometheus registry implements it (no-op in tests). */
export type PlayResult = 'success' | 'skipped' | 'error';

export interface ControllerMetrics {
  stagePlayed(kind: string, stage: string, result: PlayResult, seconds: number): void;
  /** A failed play was queued to be tried again. */
  stageRetried?(kind: string, stage: string): void;
}

export const noopMetrics: ControllerMetrics = { stagePlayed: () => undefined };
