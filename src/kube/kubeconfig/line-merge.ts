/**
 * A line-based three-way merge. The yaml library normalises a few things it cannot keep per
 * node (spacing before inline comments, a blank line before a trailing comment, tight flow
 * collections). Merging "original → yaml's rendering of it" with "yaml's rendering → our
 * edit" keeps the user's own bytes on every line our edit did not touch.
 */

/** Replace `base[start, end)` with `lines`; start === end is a pure insertion. */
interface Hunk {
  start: number;
  end: number;
  lines: string[];
}

// Above this the quadratic LCS table costs too much memory; the caller falls back to the
// plain rendering, which is still correct, just normalised.
const MAX_LCS_CELLS = 4_000_000;

export function diffLines(base: readonly string[], other: readonly string[]): Hunk[] | undefined {
  let prefix = 0;
  while (prefix < base.length && prefix < other.length && base[prefix] === other[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < base.length - prefix &&
    suffix < other.length - prefix &&
    base[base.length - 1 - suffix] === other[other.length - 1 - suffix]
  ) {
    suffix++;
  }
  const a = base.slice(prefix, base.length - suffix);
  const b = other.slice(prefix, other.length - suffix);
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > MAX_LCS_CELLS) return undefined;
  // lcs[i * w + j] = length of the longest common subsequence of a[i..] and b[j..].
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = a[i] === b[j] ? (lcs[(i + 1) * w + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * w + j] ?? 0, lcs[i * w + j + 1] ?? 0);
    }
  }
  const hunks: Hunk[] = [];
  let current: Hunk | undefined;
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      if (current !== undefined) hunks.push(current);
      current = undefined;
      i++;
      j++;
    } else if (j < m && (i === n || (lcs[i * w + j + 1] ?? 0) >= (lcs[(i + 1) * w + j] ?? 0))) {
      current ??= { start: prefix + i, end: prefix + i, lines: [] };
      current.lines.push(b[j] as string);
      j++;
    } else {
      current ??= { start: prefix + i, end: prefix + i, lines: [] };
      current.end = prefix + i + 1;
      i++;
    }
  }
  if (current !== undefined) hunks.push(current);
  return hunks;
}

interface SidedHunk extends Hunk {
  side: 'ours' | 'theirs';
}

interface Group {
  start: number;
  end: number;
  hunks: SidedHunk[];
}

/**
 * Applies both sides' changes to `base`. Where they overlap, `theirs` (the semantic edit)
 * wins; two insertions at one point keep both, ours first. Undefined when a diff is too large.
 */
export function mergeLines(base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] | undefined {
  const oursHunks = diffLines(base, ours);
  const theirsHunks = diffLines(base, theirs);
  if (oursHunks === undefined || theirsHunks === undefined) return undefined;
  const all: SidedHunk[] = [
    ...oursHunks.map((h) => ({ ...h, side: 'ours' as const })),
    ...theirsHunks.map((h) => ({ ...h, side: 'theirs' as const })),
  ].sort((x, y) => x.start - y.start || x.end - x.start - (y.end - y.start));

  const groups: Group[] = [];
  for (const hunk of all) {
    const last = groups.at(-1);
    const bothInsertAtSamePoint = last !== undefined && last.start === last.end && hunk.start === hunk.end && hunk.start === last.end;
    if (last !== undefined && (hunk.start < last.end || bothInsertAtSamePoint)) {
      last.hunks.push(hunk);
      last.end = Math.max(last.end, hunk.end);
    } else {
      groups.push({ start: hunk.start, end: hunk.end, hunks: [hunk] });
    }
  }

  const out: string[] = [];
  let position = 0;
  for (const group of groups) {
    out.push(...base.slice(position, group.start));
    const sides = new Set(group.hunks.map((h) => h.side));
    if (sides.size === 1) {
      out.push(...applyHunks(base, group.start, group.end, group.hunks));
    } else if (group.start === group.end) {
      for (const side of ['ours', 'theirs'] as const) {
        for (const hunk of group.hunks) if (hunk.side === side) out.push(...hunk.lines);
      }
    } else {
      out.push(...applyHunks(base, group.start, group.end, group.hunks.filter((h) => h.side === 'theirs')));
    }
    position = group.end;
  }
  out.push(...base.slice(position));
  return out;
}

/** `base[start, end)` with the given non-overlapping, sorted hunks of one side applied. */
function applyHunks(base: readonly string[], start: number, end: number, hunks: readonly Hunk[]): string[] {
  const out: string[] = [];
  let position = start;
  for (const hunk of hunks) {
    out.push(...base.slice(position, hunk.start), ...hunk.lines);
    position = hunk.end;
  }
  out.push(...base.slice(position, end));
  return out;
}
