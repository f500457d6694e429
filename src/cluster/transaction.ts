import type { Logger } from '../util/log.js';

/**
 * Create as a transaction: each step registers its undo before it acts, so whatever point a
 * failure or Ctrl-C interrupts, exactly the effects that may have happened are undone, in
 * reverse, and a failing undo never hides the original error.
 */
export class Journal {
  private readonly undos: Array<{ label: string; undo: () => Promise<void> }> = [];

  constructor(private readonly logger: Logger) {}

  /** Register the undo, then run the step. */
  async step<T>(label: string, undo: () => Promise<void>, run: () => Promise<T>): Promise<T> {
    this.undos.push({ label, undo });
    return run();
  }

  /** Run every undo (newest first); returns the undo failures. */
  async rollback(): Promise<unknown[]> {
    const failures: unknown[] = [];
    while (this.undos.length > 0) {
      const { label, undo } = this.undos.pop()!;
      try {
        this.logger.debug(`rollback: ${label}`);
        await undo();
      } catch (error) {
        failures.push(error);
        this.logger.warn(`rollback of "${label}" failed: ${(error as Error).message}`);
      }
    }
    return failures;
  }

  /** The create succeeded: nothing to undo any more. */
  commit(): void {
    this.undos.length = 0;
  }
}
