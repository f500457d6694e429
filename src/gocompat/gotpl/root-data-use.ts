/**
 * Which parts of its data a template can read. Executing a template copies the data into
 * template values (json.Number for numbers, and a copy the template's functions may edit); a
 * stage template typically reads a few fields of a pod or node, so copying only those is most of
 * the saving when thousands of objects are rendered. The analysis is static and conservative:
 * anything that could see the data whole (`.` or `$` as a value, `{{template}}`) means all of it.
 */
import type { ArgNode, ListNode, Node, PipeNode, Tree } from './nodes.js';
import { isPlainObject, setEntry, toTemplateData } from './values.js';

/** Keys the template reads, level by level; `null` marks a value it may use whole. */
export type DataPaths = Map<string, DataPaths | null>;

/** The root data paths a template reads, or undefined when it may read the data whole. */
export function rootDataPaths(trees: ReadonlyMap<string, Tree>): DataPaths | undefined {
  // Other trees ({{define}}) are only reachable through {{template}}, which passes data on.
  if (trees.size !== 1) return undefined;
  const paths: DataPaths = new Map();
  try {
    for (const tree of trees.values()) walkList(tree.root, true, paths);
  } catch (error) {
    if (error === WHOLE) return undefined;
    throw error;
  }
  return paths;
}

/** Thrown inside the walk when the data may be read whole. */
const WHOLE = Symbol('whole');

function walkList(list: ListNode | undefined, dotIsRoot: boolean, paths: DataPaths): void {
  if (list === undefined) return;
  for (const node of list.nodes) walk(node, dotIsRoot, paths);
}

function walk(node: Node, dotIsRoot: boolean, paths: DataPaths): void {
  switch (node.type) {
    case 'list':
      walkList(node, dotIsRoot, paths);
      return;
    case 'action':
      walkPipe(node.pipe, dotIsRoot, paths);
      return;
    case 'if':
    case 'with':
    case 'range':
      walkPipe(node.pipe, dotIsRoot, paths);
      // In the body of with and range dot is the pipeline's value (read whole through the
      // pipeline's own paths); their else branches keep the outer dot.
      walkList(node.list, node.type === 'if' && dotIsRoot, paths);
      walkList(node.elseList, dotIsRoot, paths);
      return;
    case 'text':
    case 'comment':
    case 'break':
    case 'continue':
      return;
    default:
      // {{template}} and anything unexpected.
      throw WHOLE;
  }
}

function walkPipe(pipe: PipeNode | undefined, dotIsRoot: boolean, paths: DataPaths): void {
  if (pipe === undefined) return;
  for (const command of pipe.cmds) for (const arg of command.args) walkArg(arg, dotIsRoot, paths);
}

function walkArg(arg: ArgNode, dotIsRoot: boolean, paths: DataPaths): void {
  switch (arg.type) {
    case 'field':
      if (dotIsRoot) addPath(paths, arg.ident);
      return;
    case 'dot':
      if (dotIsRoot) throw WHOLE;
      return;
    case 'variable':
      if (arg.ident[0] === '$') {
        if (arg.ident.length === 1) throw WHOLE;
        addPath(paths, arg.ident.slice(1));
      }
      return;
    case 'chain':
      // (x).a.b: x is read whole when it comes from the data, which covers its fields.
      walkArg(arg.node, dotIsRoot, paths);
      return;
    case 'pipe':
      walkPipe(arg, dotIsRoot, paths);
      return;
    case 'identifier':
    case 'nil':
    case 'bool':
    case 'number':
    case 'string':
      return;
  }
}

function addPath(paths: DataPaths, keys: readonly string[]): void {
  let level = paths;
  for (const [index, key] of keys.entries()) {
    const next = level.get(key);
    if (next === null) return;
    if (index === keys.length - 1) {
      level.set(key, null);
      return;
    }
    if (next === undefined) {
      const created: DataPaths = new Map();
      level.set(key, created);
      level = created;
    } else {
      level = next;
    }
  }
}

/**
 * toTemplateData of the parts of `data` under `paths`. Where `data` is not a plain object the
 * template would fail or read it the same way whole, so it is copied whole.
 */
export function toTemplateDataAt(data: unknown, paths: DataPaths): unknown {
  if (!isPlainObject(data) || typeof (data as { toJSON?: unknown }).toJSON === 'function') return toTemplateData(data);
  const out: Record<string, unknown> = {};
  for (const [key, sub] of paths) {
    if (!Object.hasOwn(data, key)) continue;
    const value = data[key];
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    setEntry(out, key, sub === null ? toTemplateData(value) : toTemplateDataAt(value, sub));
  }
  return out;
}
