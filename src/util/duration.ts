const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, 'μs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Go's time.ParseDuration ("1h30m", "2.5s", "-1m", "0") in milliseconds, so `--wait 5m` means
 * what it means to kwokctl. A bare integer is taken as seconds for convenience. Returns
 * undefined for anything else.
 */
export function parseGoDuration(text: string): number | undefined {
  const s = text.trim();
  if (s === '0') return 0;
  if (/^\d+$/.test(s)) return Number(s) * 1000;
  const m = /^([-+]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.exec(s);
  if (!m) return undefined;
  let total = 0;
  for (const part of s.replace(/^[-+]/, '').matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    total += Number(part[1]) * UNIT_MS[part[2]!]!;
  }
  return m[1] === '-' ? -total : total;
}
