import { InterruptedError } from '../util/errors.js';
import type { Logger } from '../util/log.js';

/** What the Ctrl-C handling of a running command needs to know about it, read when a signal arrives. */
export interface InterruptTarget {
  logger: Logger;
  abort: AbortController;
  /** The verb has committed: a signal changes nothing. */
  settled(): boolean;
  /** Whether to warn on the first and second signal (off where Ctrl-C is the normal end, like logs -f). */
  announce(): boolean;
  /** What an interrupt does, for the warning ("stopping", "rolling back"). */
  action(): string;
}

/**
 * SIGINT/SIGTERM for a command: the first aborts its work (with a warning), the second only warns,
 * the third exits at once. Shared by BaseCommand and the fast path so both behave the same.
 */
export function installInterruptHandlers(target: InterruptTarget): void {
  let received = 0;
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => () => {
    // Once the verb has committed (a create whose last step is done) there is nothing to undo.
    if (target.settled()) return;
    received++;
    if (received === 1) {
      if (target.announce()) target.logger.warn(`${signal} received, ${target.action()} ...`);
      target.abort.abort(new InterruptedError(signal));
      return;
    }
    // A second signal must not cut a rollback short (that would leave half a cluster behind);
    // a third one ends at once, for a user who accepts that.
    if (received === 2 && target.announce()) {
      target.logger.warn(`${signal} received again: still ${target.action()}; send it once more to stop at once and leave things as they are`);
      return;
    }
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  // Listeners stay installed (not `once`): a library's exit hook (signal-exit, under
  // proper-lockfile and execa) re-raises the signal and kills us when it finds itself the only
  // listener, which would skip the rollback.
  process.on('SIGINT', onSignal('SIGINT'));
  process.on('SIGTERM', onSignal('SIGTERM'));
}
