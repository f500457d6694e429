import { parseGoDurationMs } from '../gocompat/go-duration.js';

/**
 * A duration flag such as `--wait 5m`: Go's syntax (so it means what it means to kwokctl), plus a
 * bare integer taken as seconds for convenience. Milliseconds, or undefined when unparsable.
 */
export function parseDurationFlag(text: string): number | undefined {
  const s = text.trim();
  if (/^\d+$/.test(s)) return Number(s) * 1000;
  return parseGoDurationMs(s);
}
