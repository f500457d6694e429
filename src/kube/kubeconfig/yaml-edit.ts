/**
 * In-place edits of a kubeconfig's YAML Document. Only the three entries named after the
 * cluster and `current-context` are touched; every other node keeps its comments, quoting,
 * key order and position.
 */
import { isMap, isScalar, isSeq, parseDocument, Scalar, YAMLMap, YAMLSeq, type Document } from 'yaml';
import { OperationError, UsageError } from '../../util/errors.js';
import { contextOf } from './build.js';
import type { ClusterEntry } from './types.js';
import { mergeLines } from './line-merge.js';
import { createSafeNode, detectStyle, isAmbiguousUnderYaml11, KUBECTL_STYLE, toStringOptions } from './yaml-style.js';

export type KubeconfigDocument = Document.Parsed;

const SECTIONS = [
  { list: 'clusters', field: 'cluster' },
  { list: 'users', field: 'user' },
  { list: 'contexts', field: 'context' },
] as const;
type Section = (typeof SECTIONS)[number];

/** The skeleton clientcmd writes for an empty config, so a new file looks like kubectl's. */
const EMPTY_KUBECONFIG = 'apiVersion: v1\nclusters: []\ncontexts: []\ncurrent-context: ""\nkind: Config\npreferences: {}\nusers: []\n';

interface ParsedKubeconfig {
  doc: KubeconfigDocument;
  /** The text had no content (empty or comments only) and `doc` is a new skeleton. */
  isNew: boolean;
}

/**
 * Parses a user's kubeconfig. An empty (or comment-only) file is treated like a new one;
 * anything that is not one YAML mapping is refused rather than overwritten.
 */
export function parseKubeconfig(text: string, path: string): ParsedKubeconfig {
  // 'error', not 'silent': silent also hides the multiple-documents error.
  const doc = parseDocument(text, { logLevel: 'error' });
  const hint = `fix ${path} or move it aside, then retry`;
  const error = doc.errors[0];
  if (error !== undefined) {
    throw new UsageError(`${path} is not valid YAML: ${error.message.split('\n')[0] ?? ''}`, { hint, cause: error });
  }
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    const fresh = parseDocument(EMPTY_KUBECONFIG);
    // Keep a comment-only file's comments above the new content.
    fresh.commentBefore = doc.commentBefore ?? doc.comment ?? null;
    return { doc: fresh, isNew: true };
  }
  if (!isMap(doc.contents)) throw new UsageError(`${path} is not a kubeconfig (its top level is not a mapping)`, { hint });
  return { doc, isNew: false };
}

function root(doc: KubeconfigDocument): YAMLMap {
  return doc.contents as YAMLMap;
}

/** The section's list, created when missing or null; anything else there is refused. */
function sectionList(doc: KubeconfigDocument, section: Section, create: boolean, path: string): YAMLSeq | undefined {
  const map = root(doc);
  const node: unknown = map.get(section.list, true);
  if (isSeq(node)) {
    // An empty flow list (`clusters: []`) would turn the entry we add into one long flow
    // line. Unset rather than false: yaml renders an empty seq with flow=false as invalid `\n[]`.
    if (create && node.flow === true && node.items.length === 0) node.flow = undefined;
    return node;
  }
  if (node === undefined || (isScalar(node) && node.value === null)) {
    if (!create) return undefined;
    const list = new YAMLSeq();
    map.set(section.list, list);
    return list;
  }
  throw new UsageError(`${path}: "${section.list}" is not a list`, { hint: `fix ${path} or move it aside, then retry` });
}

function indexesNamed(list: YAMLSeq, name: string): number[] {
  const found: number[] = [];
  list.items.forEach((item, index) => {
    if (isMap(item) && String(item.get('name')) === name) found.push(index);
  });
  return found;
}

function entryValues(entry: ClusterEntry): Record<Section['list'], object | undefined> {
  return { clusters: entry.cluster, users: entry.user, contexts: contextOf(entry) };
}

/** Adds or replaces the cluster, user and context named `entry.name`. */
export function upsertEntry(doc: KubeconfigDocument, entry: ClusterEntry, makeCurrent: boolean, path: string): void {
  const values = entryValues(entry);
  for (const section of SECTIONS) {
    const value = values[section.list];
    if (value === undefined) {
      // No user for an http cluster: a stale user of the same name would only mislead.
      const list = sectionList(doc, section, false, path);
      if (list !== undefined) removeIndexes(list, indexesNamed(list, entry.name));
      continue;
    }
    const list = sectionList(doc, section, true, path);
    if (list === undefined) continue;
    const [first, ...duplicates] = indexesNamed(list, entry.name);
    // Duplicates make clientcmd's behaviour depend on order; ours wins, the rest go.
    removeIndexes(list, duplicates);
    const existing = first === undefined ? undefined : (list.items[first] as YAMLMap);
    if (existing === undefined) {
      const item =
        section.list === 'users' ? { name: entry.name, [section.field]: value } : { [section.field]: value, name: entry.name };
      list.items.push(createSafeNode(doc, item));
    } else if (!sameJson(existing.get(section.field), value)) {
      // Replace only the body: the item keeps its position and the comments around it.
      existing.set(section.field, createSafeNode(doc, value));
    }
  }
  if (makeCurrent) setCurrentContext(doc, entry.name);
}

/**
 * Removes the cluster, user and context named `name`; clears `current-context` (to "",
 * as kubectl does) when it pointed at that context.
 */
export function removeEntry(doc: KubeconfigDocument, name: string, path: string): void {
  for (const section of SECTIONS) {
    const list = sectionList(doc, section, false, path);
    if (list !== undefined) removeIndexes(list, indexesNamed(list, name));
  }
  if (currentContext(doc) === name) setCurrentContext(doc, '');
}

/**
 * Puts back, for one name, what `previous` had: its entries (or their absence) and, when the
 * current context is still ours, the previous current context. Used to undo a merge in a file
 * that someone else has edited since.
 */
export function restoreEntry(doc: KubeconfigDocument, previous: KubeconfigDocument, name: string, path: string): void {
  for (const section of SECTIONS) {
    const before = sectionList(previous, section, false, path);
    const beforeIndex = before === undefined ? undefined : indexesNamed(before, name)[0];
    const beforeItem = before === undefined || beforeIndex === undefined ? undefined : before.items[beforeIndex];
    const list = sectionList(doc, section, beforeItem !== undefined, path);
    if (list === undefined) continue;
    const [first, ...rest] = indexesNamed(list, name);
    removeIndexes(list, rest);
    if (beforeItem === undefined) {
      if (first !== undefined) removeIndexes(list, [first]);
    } else if (first === undefined) {
      list.items.push(beforeItem);
    } else {
      list.items[first] = beforeItem;
    }
  }
  if (currentContext(doc) === name) {
    setCurrentContext(doc, currentContext(previous) ?? '');
  }
}

/** Updates the existing node when there is one, so its comment and quoting stay. */
function setCurrentContext(doc: KubeconfigDocument, value: string): void {
  const node: unknown = root(doc).get('current-context', true);
  if (!isScalar(node)) {
    root(doc).set('current-context', createSafeNode(doc, value));
    return;
  }
  // An empty value had to be quoted; that says nothing about how to write a name.
  if (node.value === '') node.type = undefined;
  if (isAmbiguousUnderYaml11(value)) node.type = Scalar.QUOTE_DOUBLE;
  node.value = value;
}

export function currentContext(doc: KubeconfigDocument): string | undefined {
  const value: unknown = root(doc).get('current-context');
  return typeof value === 'string' ? value : undefined;
}

function removeIndexes(list: YAMLSeq, indexes: readonly number[]): void {
  for (const index of [...indexes].sort((a, b) => b - a)) list.items.splice(index, 1);
  // An emptied block list renders as `[]` on a line of its own, which after a comment kept above
  // the removed items, in kubectl's unindented layout, lands in column 0 and does not parse; as a
  // flow list it renders `[]` where it parses.
  if (indexes.length > 0 && list.items.length === 0) list.flow = true;
}

function sameJson(node: unknown, value: object): boolean {
  const current: unknown = node !== null && typeof node === 'object' && 'toJSON' in node ? (node as { toJSON(): unknown }).toJSON() : node;
  return JSON.stringify(current) === JSON.stringify(value);
}

/**
 * Applies `edit` to the kubeconfig `text` and returns the new text. The document is rendered
 * with the file's own layout, then three-way merged with the original so that lines the edit
 * did not touch keep their exact bytes. A merge that would not parse back to the edited
 * document (it never should) falls back to the plain rendering.
 */
export function editKubeconfig(text: string, path: string, edit: (doc: KubeconfigDocument) => void): string {
  const { doc, isNew } = parseKubeconfig(text, path);
  const options = toStringOptions(isNew ? KUBECTL_STYLE : detectStyle(text));
  const before = doc.toString(options);
  edit(doc);
  const after = doc.toString(options);
  if (after === before) return text;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const original = text.replace(/\r\n/g, '\n');
  // A new file, or the common case of a file kubectl wrote (yaml reproduces it exactly):
  // nothing of the user's to merge back in.
  const merged = isNew || original === before ? undefined : mergeLines(before.split('\n'), original.split('\n'), after.split('\n'));
  const preserved = merged?.join('\n');
  if (preserved !== undefined && sameData(preserved, doc)) return preserved.replace(/\n/g, eol);
  // Never write a file that does not read back as what we meant.
  if (!sameData(after, doc)) {
    throw new OperationError(`refusing to write ${path}: the edited kubeconfig does not parse back as intended`, {
      hint: 'this is a kwokts bug; please report it with the file (credentials removed)',
    });
  }
  return after.replace(/\n/g, eol);
}

function sameData(text: string, doc: KubeconfigDocument): boolean {
  const reparsed = parseDocument(text, { logLevel: 'error' });
  return reparsed.errors.length === 0 && JSON.stringify(reparsed.toJS()) === JSON.stringify(doc.toJS());
}
