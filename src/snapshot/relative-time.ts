/**
 * Recordings keep no wall-clock time: every RFC 3339 timestamp in the file is written as its
 * distance from the moment recording began, `$(time-offset-nanosecond N)`, and turned back into a
 * time relative to the moment replay begins. A recorded cluster thus replays as if it were "now",
 * and files written by kwokctl's `snapshot export` (which does the same) read the same way.
 */

/** An RFC 3339 date-time with optional fraction and a Z or ±hh:mm offset. */
const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g;
const OFFSET = /\$\(time-offset-nanosecond (-?\d+)\)/g;

/** Now, in nanoseconds since the epoch (millisecond resolution is all a timestamp needs here). */
export function nowNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/** Nanoseconds since the epoch of an RFC 3339 timestamp, or undefined when it is not a valid one. */
export function parseTimestampNs(text: string): bigint | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms)) return undefined;
  const fraction = BigInt((m[2] ?? '').slice(0, 9).padEnd(9, '0') || '0');
  return BigInt(ms) * 1_000_000n + fraction;
}

/** Every timestamp in `text` as its offset from `baseNs`. */
export function timesToRelative(text: string, baseNs: bigint): string {
  return text.replace(TIMESTAMP, (stamp) => {
    const ns = parseTimestampNs(stamp);
    return ns === undefined ? stamp : `$(time-offset-nanosecond ${ns - baseNs})`;
  });
}

/** Every `$(time-offset-nanosecond N)` in `text` as a UTC timestamp with microseconds, N after `baseNs`. */
export function timesFromRelative(text: string, baseNs: bigint): string {
  return text.replace(OFFSET, (_whole, offset: string) => formatMicroUtc(baseNs + BigInt(offset)));
}

/** Kubernetes' RFC3339Micro: 2006-01-02T15:04:05.000000Z. */
export function formatMicroUtc(ns: bigint): string {
  const ms = ns / 1_000_000n;
  const iso = new Date(Number(ms)).toISOString(); // 2006-01-02T15:04:05.000Z
  const micro = ((ns % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n / 1000n;
  return `${iso.slice(0, 19)}.${String(micro).padStart(6, '0')}Z`;
}
