/**
 * Go text/template for kwok's Stage templates: a port of Go's lexer, parser and executor, with
 * kwok's function set (Go builtins, then sprig v3.3.0, then kwok's own functions).
 *
 * Data is the resource as plain JSON; numbers in it behave like kwok's json.Number (they print
 * their JSON text and compare as strings). Compile once and execute many times; renderTemplate
 * caches compiled templates by text.
 */
import { unmarshalJson } from './go-json.js';
import { kwokFuncs, kwokObjectFuncPlaceholders, type KwokFuncOptions } from './kwok-funcs.js';
import type { FuncMap } from './signature.js';
import { sprigFuncs, type SprigOptions } from './sprig/index.js';
import { buildFuncTable, compileWithTable, type CompiledTemplate, type FuncTable } from './template.js';

export type { TemplateFunc, FuncMap, ParamType, FuncSignature } from './signature.js';
export { typed } from './signature.js';
export type { CompiledTemplate } from './template.js';
export { prepareData } from './template.js';
export { TemplateError, FuncError, type TemplateErrorPhase } from './errors.js';
export { JsonNumber, GoFloat } from './values.js';
export { GoTime } from './go-time.js';
export { kwokFuncs, kwokObjectFuncNames, kwokQuote, kwokYaml, DEFAULT_KWOK_VERSION, type KwokFuncOptions } from './kwok-funcs.js';
export { sprigFuncs, type SprigOptions } from './sprig/index.js';
export { marshalYaml } from './yaml-encode.js';
export { sprint, sprintf, goSyntax } from './fmt.js';
export { formatFloat } from './go-float.js';

export interface DefaultFuncOptions extends KwokFuncOptions, SprigOptions {}

/** sprig's text functions overlaid with kwok's (what kwok's renderer registers before per-object functions). */
export function defaultFuncs(options: DefaultFuncOptions = {}): FuncMap {
  return { ...sprigFuncs({ now: options.now, env: options.env }), ...kwokFuncs(options) };
}

let defaultLayer: FuncMap | undefined;
let defaultTable: FuncTable | undefined;

/** sprig + kwok with default options, built once. */
function defaultFuncLayer(): FuncMap {
  defaultLayer ??= defaultFuncs();
  return defaultLayer;
}

/** Builtins + sprig + kwok + placeholders for the per-object functions, built once. */
function defaultFuncTable(): FuncTable {
  defaultTable ??= buildFuncTable([defaultFuncLayer(), kwokObjectFuncPlaceholders()]);
  return defaultTable;
}

export interface CompileTemplateOptions {
  /** Template name in error messages (default "_", as kwok names its templates). */
  name?: string;
  /** Replaces sprig + kwok as the functions below `funcs` (Go's builtins always remain). */
  baseFuncs?: FuncMap;
}

/**
 * Parses a template. `funcs` declares extra function names for the parser and provides default
 * implementations; functions passed to execute() override them by name. kwok's per-object
 * functions (kwokObjectFuncNames) are always declared. Throws TemplateError on a parse error.
 */
export function compileTemplate(text: string, funcs?: FuncMap, options: CompileTemplateOptions = {}): CompiledTemplate {
  const hasExtra = funcs !== undefined && Object.keys(funcs).length > 0;
  const table =
    options.baseFuncs === undefined && !hasExtra
      ? defaultFuncTable()
      : buildFuncTable([options.baseFuncs ?? defaultFuncLayer(), kwokObjectFuncPlaceholders(), funcs]);
  return compileWithTable(text, table, options.name ?? '_');
}

const CACHE_LIMIT = 1024;
const cache = new Map<string, CompiledTemplate>();

/**
 * Compiles (cached by text, least recently used evicted) and executes a template. As in kwok,
 * only successful compiles are cached; execution-time `funcs` override functions by name.
 */
export function renderTemplate(text: string, data: unknown, funcs?: FuncMap): string {
  let tpl = cache.get(text);
  if (tpl === undefined) {
    tpl = compileTemplate(text, funcs);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(text, tpl);
  } else {
    cache.delete(text);
    cache.set(text, tpl);
  }
  return tpl.execute(data, funcs);
}

/** Decodes JSON text for use as template data, keeping every number's exact text (Go's UseNumber). */
export function decodeJsonData(text: string): unknown {
  return unmarshalJson(text, 'json.Number');
}
