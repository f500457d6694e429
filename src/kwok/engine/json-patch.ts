/**
 * RFC 6902 JSON Patch, applied to a copy (used to predict the effect of a patch locally: the
 * controller skips patches that would not change the object, and `stage test --steps` replays
 * them). Errors throw JsonPatchError, as the API server would reject the patch.
 */
import { cloneJson, isJsonObject, jsonEqual } from './json-value.js';

export interface JsonPatchOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

export class JsonPatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonPatchError';
  }
}

function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new JsonPatchError(`invalid JSON pointer ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function arrayIndex(token: string, length: number, forInsert: boolean): number {
  if (forInsert && token === '-') return length;
  if (!/^(0|[1-9]\d*)$/.test(token)) throw new JsonPatchError(`invalid array index ${JSON.stringify(token)}`);
  const i = Number(token);
  if (i > length || (!forInsert && i === length)) throw new JsonPatchError(`array index ${i} out of bounds`);
  return i;
}

function getAt(doc: unknown, tokens: readonly string[]): unknown {
  let cur = doc;
  for (const t of tokens) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(t, cur.length, false)];
    else if (isJsonObject(cur) && Object.prototype.hasOwnProperty.call(cur, t)) cur = cur[t];
    else throw new JsonPatchError(`path /${tokens.join('/')} does not exist`);
  }
  return cur;
}

/** Applies `ops` in order to a copy of `doc`; the input is not modified. */
export function applyJsonPatch(doc: unknown, ops: readonly JsonPatchOp[]): unknown {
  let root = cloneJson(doc);
  const container = (tokens: readonly string[]): [unknown, string] => {
    if (tokens.length === 0) throw new JsonPatchError('the root has no parent');
    return [getAt(root, tokens.slice(0, -1)), tokens[tokens.length - 1]!];
  };
  const add = (tokens: string[], value: unknown): void => {
    if (tokens.length === 0) {
      root = value;
      return;
    }
    const [parent, key] = container(tokens);
    if (Array.isArray(parent)) parent.splice(arrayIndex(key, parent.length, true), 0, value);
    else if (isJsonObject(parent)) parent[key] = value;
    else throw new JsonPatchError(`cannot add to a non-container at ${tokens.join('/')}`);
  };
  const remove = (tokens: string[]): unknown => {
    if (tokens.length === 0) throw new JsonPatchError('cannot remove the root');
    const [parent, key] = container(tokens);
    if (Array.isArray(parent)) return parent.splice(arrayIndex(key, parent.length, false), 1)[0];
    if (isJsonObject(parent) && Object.prototype.hasOwnProperty.call(parent, key)) {
      const v = parent[key];
      delete parent[key];
      return v;
    }
    throw new JsonPatchError(`path /${tokens.join('/')} does not exist`);
  };
  for (const op of ops) {
    const path = parsePointer(op.path);
    switch (op.op) {
      case 'add':
        add(path, cloneJson(op.value));
        break;
      case 'remove':
        remove(path);
        break;
      case 'replace':
        remove(path);
        add(path, cloneJson(op.value));
        break;
      case 'move': {
        const v = remove(parsePointer(op.from ?? ''));
        add(path, v);
        break;
      }
      case 'copy':
        add(path, cloneJson(getAt(root, parsePointer(op.from ?? ''))));
        break;
      case 'test':
        if (!jsonEqual(getAt(root, path), op.value)) throw new JsonPatchError(`test failed at ${op.path}`);
        break;
      default:
        throw new JsonPatchError(`unknown op ${JSON.stringify((op as { op: unknown }).op)}`);
    }
  }
  return root;
}
