/** Go duration text for whole milliseconds, as kwokctl prints `25s` or `3m20s`. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  let rest = Math.round(ms);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = rest / 1000;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}

/** Kubernetes quantity (e.g. 8Gi) to bytes, for etcd's --quota-backend-bytes. */
export function quantityToBytes(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)([KMGTPE]i?|[kmgtpe])?$/.exec(quantity.trim());
  if (!match) throw new Error(`invalid quantity ${JSON.stringify(quantity)}`);
  const value = Number(match[1]);
  const unit = match[2] ?? '';
  const binary: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
  const decimal: Record<string, number> = { k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
  return Math.round(value * (binary[unit] ?? decimal[unit] ?? 1));
}

/** klog verbosity for a slog-style level: DEBUG (-4) → 4, INFO and above → none. */
export function klogVerbosity(level: number): string[] {
  return level < 0 ? [`--v=${-level}`] : [];
}

/** Apply componentsPatches extraArgs: append `--key=value`, or replace the last existing one with override. */
export function applyExtraArgs(args: string[], extra: ReadonlyArray<{ key: string; value: string | null; override?: boolean }>): string[] {
  const out = [...args];
  for (const { key, value, override } of extra) {
    const flag = value === null ? `--${key}` : `--${key}=${value}`;
    if (override) {
      const index = out.map((a, i) => [a, i] as const).filter(([a]) => a === `--${key}` || a.startsWith(`--${key}=`)).pop()?.[1];
      if (index !== undefined) {
        out[index] = flag;
        continue;
      }
    }
    out.push(flag);
  }
  return out;
}
