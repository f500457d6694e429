/**
 * The lines of the benches that run for minutes (./soak.ts, ./capacity.ts) and the wait between
 * them: one plain line at a time, stamped with the wall clock, figures to a fixed precision with a
 * dash where there is none, and a sleep that a signal or the end of the run cuts short.
 */

/** The UTC time of day, HH:MM:SS, that starts each line. */
export const clock = (): string => new Date().toISOString().slice(11, 19);

/** `value` to `digits` decimals; a dash for NaN or infinity (a process gone, no sample yet). */
export const fixed = (value: number, digits = 0): string => (Number.isFinite(value) ? value.toFixed(digits) : '-');

/** As fixed(), with a + before a positive value (a slope). */
export const signed = (value: number, digits = 1): string => (Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toFixed(digits)}` : '-');

/** Short names for the components in the lines (apiserver, kcm); the series keep the pid files' names. */
const SHORT: Record<string, string> = { 'kube-apiserver': 'apiserver', 'kube-controller-manager': 'kcm', 'kube-scheduler': 'scheduler' };
export const shortName = (name: string): string => SHORT[name] ?? name;

/** Resolves after `ms`, or at once when `signal` aborts (never rejects: the caller checks the signal). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
