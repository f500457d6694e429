/**
 * `delete cluster`'s kubeconfig edit without the yaml library: the context, cluster and user named
 * after the cluster are cut out of the text line by line, and `current-context` is cleared when it
 * named that context. Loading and running yaml-edit.ts (parse, render twice, merge the lines,
 * parse again) was a fifth of a delete's CPU, most of it compiling the yaml package, while js-yaml
 * is already loaded for the cluster's record.
 *
 * The cut is trusted only when it proves itself: js-yaml must read the new text as exactly the old
 * data minus those entries (and with `current-context: ""` where it named them). Anything this
 * line reader does not understand, and anything that fails the proof, answers undefined, and the
 * caller goes to yaml-edit.ts (which also gives the errors for files that are no kubeconfig).
 */
import { CORE_SCHEMA, load } from 'js-yaml';

const SECTIONS = ['clusters', 'contexts', 'users'] as const;

type Data = Record<string, unknown>;

/** A block list's items as line ranges [start, end) of the text. */
interface SectionLines {
  keyLine: number;
  items: Array<{ start: number; end: number }>;
}

/**
 * The text without the entries named `name`; the same string when nothing names it; undefined
 * when the lines cannot be edited safely (the caller then uses the YAML editor).
 */
export function removeEntryLines(text: string, name: string): string | undefined {
  // CRLF files and other unusual layouts are the YAML editor's job.
  if (text.includes('\r')) return undefined;
  const before = readData(text);
  if (before === undefined) return undefined;
  if (before === null) return text;
  const doomed = new Map<(typeof SECTIONS)[number], number[]>();
  for (const section of SECTIONS) {
    const list = before[section];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) return undefined;
    const indexes: number[] = [];
    for (const [index, item] of list.entries()) {
      if (!isData(item)) continue;
      const itemName = item.name;
      if (itemName === name) indexes.push(index);
      // yaml-edit compares String(name): a number or boolean spelled like the name is its call.
      else if (typeof itemName !== 'string' && itemName !== undefined && String(itemName) === name) return undefined;
    }
    if (indexes.length > 0) doomed.set(section, indexes);
  }
  const clearCurrent = before['current-context'] === name;
  if (doomed.size === 0 && !clearCurrent) return text;

  const lines = text.split('\n');
  const sections = topLevelSections(lines);
  if (sections === undefined) return undefined;
  const drop = new Set<number>();
  const replace = new Map<number, string>();
  for (const [section, indexes] of doomed) {
    const found = sections.get(section);
    const list = before[section] as unknown[];
    if (found === undefined || found.items.length !== list.length) return undefined;
    for (const index of indexes) {
      const item = found.items[index]!;
      for (let line = item.start; line < item.end; line++) drop.add(line);
    }
    // An emptied list is written `[]`, as yaml-edit writes one (kubectl writes `null`; both read as no entries).
    if (indexes.length === list.length) replace.set(found.keyLine, `${section}: []`);
  }
  if (clearCurrent) {
    const at = lines.findIndex((line) => /^current-context:/.test(line));
    // A comment on that line would be lost; a value over several lines would be cut in half.
    if (at < 0 || lines[at]!.includes('#') || !/^current-context:[ \t]+\S/.test(lines[at]!)) return undefined;
    replace.set(at, 'current-context: ""');
  }
  const after = lines.flatMap((line, index) => (drop.has(index) ? [] : [replace.get(index) ?? line])).join('\n');

  const expected: Data = { ...before };
  for (const [section, indexes] of doomed) expected[section] = (before[section] as unknown[]).filter((_, index) => !indexes.includes(index));
  if (clearCurrent) expected['current-context'] = '';
  const reread = readData(after);
  return reread !== undefined && reread !== null && JSON.stringify(reread) === JSON.stringify(expected) ? after : undefined;
}

/** The top-level mapping; null for a file without content; undefined for anything else. */
function readData(text: string): Data | null | undefined {
  let data: unknown;
  try {
    data = load(text, { schema: CORE_SCHEMA });
  } catch {
    return undefined;
  }
  if (data === undefined || data === null) return null;
  return isData(data) ? data : undefined;
}

function isData(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const TOP_KEY = /^[A-Za-z][A-Za-z0-9_-]*:(?:[ \t]|$)/;
const ITEM = /^( *)-(?: |$)/;

/**
 * The block lists of the three sections, by line. Every line at column 0 must be a plain key, a
 * list item (kubectl writes its items there), a comment or blank; anything else (a document marker,
 * a directive, a complex key) answers undefined. A section written any other way than `key:` on a
 * line of its own with its items below (a flow list, an anchor, a comment) is not listed.
 */
function topLevelSections(lines: string[]): Map<string, SectionLines> | undefined {
  const keys: number[] = [];
  for (const [index, line] of lines.entries()) {
    if (line === '' || /^[ \t]/.test(line) || line.startsWith('#') || ITEM.test(line)) continue;
    if (!TOP_KEY.test(line)) return undefined;
    keys.push(index);
  }
  const sections = new Map<string, SectionLines>();
  for (const [k, keyLine] of keys.entries()) {
    const key = lines[keyLine]!.slice(0, lines[keyLine]!.indexOf(':'));
    if (!(SECTIONS as readonly string[]).includes(key) || !new RegExp(`^${key}:[ \\t]*$`).test(lines[keyLine]!)) continue;
    const items = blockItems(lines, keyLine + 1, keys[k + 1] ?? lines.length);
    if (items === undefined) return undefined;
    sections.set(key, { keyLine, items });
  }
  return sections;
}

/**
 * A block list's items between `from` and `to`: each from its `-` line to its last line indented
 * past the dash. Comments and blank lines after an item's last line stay where they are (they
 * belong to what follows, as the YAML editor sees them).
 */
function blockItems(lines: string[], from: number, to: number): Array<{ start: number; end: number }> | undefined {
  const items: Array<{ start: number; end: number }> = [];
  let indent: number | undefined;
  for (let index = from; index < to; index++) {
    const line = lines[index]!;
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const lead = line.length - line.trimStart().length;
    if (line.slice(0, lead).includes('\t')) return undefined;
    const item = ITEM.exec(line);
    if (indent === undefined) {
      if (!item) return undefined;
      indent = item[1]!.length;
    }
    if (item && item[1]!.length === indent) {
      items.push({ start: index, end: index + 1 });
      continue;
    }
    // Within an item everything is indented past its dash.
    if (lead <= indent) return undefined;
    items[items.length - 1]!.end = index + 1;
  }
  return items;
}
