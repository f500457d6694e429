/** Edit distance (insertions, deletions, substitutions), as cobra uses for its suggestions. */
export function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidates closest to what was typed: within an edit distance of 2 (cobra's default), or
 * starting with it. Best first; empty when nothing is close.
 */
export function suggest(typed: string, candidates: Iterable<string>): string[] {
  const t = typed.toLowerCase();
  const scored: Array<[string, number]> = [];
  for (const c of candidates) {
    const d = levenshtein(t, c.toLowerCase());
    if (d <= 2 || (t.length > 0 && c.toLowerCase().startsWith(t))) scored.push([c, d]);
  }
  scored.sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]));
  const best = scored[0]?.[1];
  return scored.filter(([, d]) => d === best).map(([c]) => c);
}

/**
 * The flags closest to an unknown one (`--runtim` → `--runtime`), spelled with their dashes; `--no-`
 * forms count for the booleans that have one. Hidden flags are not offered: they are kwokctl's
 * deprecated spellings, and suggesting one would teach it.
 */
export function suggestFlags(typed: string, flags: Readonly<Record<string, { type: 'boolean' | 'option'; allowNo?: boolean; aliases?: readonly string[]; hidden?: boolean }>>): string[] {
  if (!typed.startsWith('--')) return [];
  const key = typed.slice(2).split('=')[0]!;
  const names: string[] = [];
  for (const [name, flag] of Object.entries(flags)) {
    if (flag.hidden) continue;
    names.push(name, ...(flag.aliases ?? []));
    if (flag.type === 'boolean' && flag.allowNo && key.startsWith('no-')) names.push(`no-${name}`);
  }
  // A short flag is within two edits of almost anything (`--x` is not a typo of `--v`).
  const close = names.filter((name) => name.startsWith(key) || levenshtein(key, name) <= name.length / 2);
  return suggest(key, close).map((name) => `--${name}`);
}

/** The hint for an unknown flag: the closest flags, else where the flags are listed. */
export function unknownFlagHint(typed: string, flags: Parameters<typeof suggestFlags>[1], fallback: string): string {
  const close = suggestFlags(typed, flags);
  return close.length > 0 ? `did you mean ${close.join(' or ')}?` : fallback;
}
