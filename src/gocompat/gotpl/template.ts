/**
 * Compiling and executing templates. Go resolves function names at parse time, so the names a
 * template may call are fixed when it is compiled; implementations passed to execute() replace
 * compile-time ones by name (kwok's per-object functions such as NodeIP work this way).
 */
import { BUILTINS } from './builtins.js';
import { execute, type ExecEnv, type ResolvedFunc } from './exec.js';
import { parseTemplate } from './parse.js';
import type { FuncMap, TemplateFunc } from './signature.js';
import { rootDataPaths, toTemplateDataAt, type DataPaths } from './root-data-use.js';
import { isPlainObject, toTemplateData } from './values.js';

export interface CompiledTemplate {
  /** Execute against data (the resource as plain JSON); extra functions override built-ins. */
  execute(data: unknown, funcs?: FuncMap): string;
}

const prepared = new WeakSet<object>();

/**
 * Converts plain JSON into template data once (numbers become json.Number, as kwok decodes them),
 * so repeated executions can skip the per-call copy.
 */
export function prepareData(data: unknown): unknown {
  const out = toTemplateData(data);
  if (typeof out === 'object' && out !== null) prepared.add(out);
  return out;
}

function asTemplateData(data: unknown, paths: DataPaths | undefined): unknown {
  if (typeof data === 'object' && data !== null && prepared.has(data)) return data;
  return paths === undefined ? toTemplateData(data) : toTemplateDataAt(data, paths);
}

/** Function lookup table: Go's builtins, then each layer in order (later layers win). */
export type FuncTable = ReadonlyMap<string, ResolvedFunc>;

export function buildFuncTable(layers: readonly (FuncMap | undefined)[]): FuncTable {
  const table = new Map<string, ResolvedFunc>();
  for (const [name, fn] of Object.entries(BUILTINS)) table.set(name, { fn, isBuiltin: true });
  for (const layer of layers) {
    if (layer === undefined) continue;
    for (const name of Object.keys(layer)) {
      const fn = layer[name];
      if (typeof fn === 'function') table.set(name, { fn, isBuiltin: false });
    }
  }
  return table;
}

class Template implements CompiledTemplate {
  /** What of its data the template can read; undefined: all of it. */
  private readonly paths: DataPaths | undefined;

  constructor(
    private readonly env: ExecEnv,
    private readonly name: string,
  ) {
    this.paths = rootDataPaths(env.trees);
  }

  execute(data: unknown, funcs?: FuncMap): string {
    const overrides = funcs !== undefined && isPlainObject(funcs) && Object.keys(funcs).length > 0 ? funcs : undefined;
    return execute(this.env, this.name, asTemplateData(data, this.paths), overrides);
  }
}

/** Parses text against a function table. Throws TemplateError. */
export function compileWithTable(text: string, funcs: FuncTable, name = '_'): CompiledTemplate {
  const trees = parseTemplate(name, text, { hasFunction: (n) => funcs.has(n) });
  return new Template({ trees, funcs }, name);
}

/** Parses text with the given function layers (later layers win). Throws TemplateError. */
export function compileWith(text: string, layers: readonly (FuncMap | undefined)[], name = '_'): CompiledTemplate {
  return compileWithTable(text, buildFuncTable(layers), name);
}

export type { FuncMap, TemplateFunc };
