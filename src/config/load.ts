import { readFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { UsageError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { SPEC_BY_KEY, type OptionKey } from './options.js';
import { coerce, type GivenOptions } from './resolve.js';
import { parseYamlDocuments } from '../gocompat/yaml/index.js';
import { parseEnvs, parseUserComponents, parseVolumes } from './component-specs.js';
import { readKustomization } from './kustomize.js';
import { COMPONENT_NAMES } from './component-names.js';
import { isLogsKind, isStreamingKind, type LogsKind, type StreamingKind } from '../kwok/api/document-kinds.js';

export { resolveOptionValues } from './resolve.js';

// The types and the empty configuration live in loaded-config.ts (no parser there), kept importable from here.
export { emptyConfig, type ComponentPatch, type LoadedConfig } from './loaded-config.js';
import { emptyConfig, type LoadedConfig } from './loaded-config.js';

const KNOWN_KINDS = new Set([
  'KwokctlConfiguration', 'KwokConfiguration', 'KwokctlResource', 'Stage', 'Attach', 'ClusterAttach', 'Exec',
  'ClusterExec', 'Logs', 'ClusterLogs', 'PortForward', 'ClusterPortForward', 'ResourceUsage',
  'ClusterResourceUsage', 'Metric',
]);

/** Kinds the controller consumes from its --config file. */
const CONTROLLER_KINDS = new Set([...KNOWN_KINDS].filter((k) => k !== 'KwokctlConfiguration' && k !== 'KwokctlResource'));

/**
 * Options naming a file or a program. In a config file a relative path means relative to that
 * file, so a config and what it names can move together. `program` values may also be URLs,
 * `archive#member` or a bare name looked up on PATH, which are left alone.
 */
const PATH_OPTIONS: Readonly<Partial<Record<OptionKey, 'file' | 'program'>>> = {
  kubeAuditPolicy: 'file',
  kubeSchedulerConfig: 'file',
  cacheDir: 'file',
  kubeApiserverBinary: 'program',
  kubeControllerManagerBinary: 'program',
  kubeSchedulerBinary: 'program',
  kubectlBinary: 'program',
  etcdBinary: 'program',
  etcdctlBinary: 'program',
  etcdutlBinary: 'program',
  etcdBinaryTar: 'program',
  prometheusBinary: 'program',
  prometheusBinaryTar: 'program',
  jaegerBinary: 'program',
  jaegerBinaryTar: 'program',
  metricsServerBinary: 'program',
  kwokControllerBinary: 'program',
  kindBinary: 'program',
  kectlBinary: 'program',
  kubeBinaryPrefix: 'program',
  etcdBinaryPrefix: 'program',
  kwokBinaryPrefix: 'program',
  prometheusBinaryPrefix: 'program',
};


/**
 * The schemas that check Logs and streaming documents. They are built with zod, whose loading is a
 * noticeable share of a command's start, so they are imported only for files that have such a
 * document.
 */
interface DocumentSchemas {
  logs: typeof import('../kwok/api/logs-schema.js');
  streaming: typeof import('../kwok/api/streaming-schema.js');
}

async function schemasFor(docs: readonly unknown[]): Promise<DocumentSchemas | undefined> {
  const kindOf = (doc: unknown): unknown => (typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>).kind : undefined);
  if (!docs.some((doc) => isLogsKind(kindOf(doc)) || isStreamingKind(kindOf(doc)))) return undefined;
  const [logs, streaming] = await Promise.all([import('../kwok/api/logs-schema.js'), import('../kwok/api/streaming-schema.js')]);
  return { logs, streaming };
}

/** One YAML stream and the file it came from (relative paths inside resolve against its directory). */
interface ConfigText {
  text: string;
  source: string;
  dir: string;
}

/**
 * Config files in order, as kwokctl's -c: a file, `-` (stdin) or a directory, which kwokctl builds
 * with kustomize (kwokts reads its kustomization's `resources`, see kustomize.ts).
 */
export async function loadConfigFiles(paths: readonly string[], logger: Logger, readStdin: () => Promise<string> = readAllStdin): Promise<LoadedConfig> {
  const result: LoadedConfig = emptyConfig();
  for (const path of paths) {
    for (const { text, source, dir } of await readConfigTexts(path, readStdin)) {
      let docs: unknown[];
      try {
        docs = parseYamlDocuments(text);
      } catch (error) {
        throw new UsageError(`config file ${source}: invalid YAML: ${(error as Error).message}`);
      }
      result.sources.push(source);
      const schemas = await schemasFor(docs);
      for (const doc of docs) applyDocument(result, doc, source, dir, logger, schemas);
    }
  }
  return result;
}

async function readConfigTexts(path: string, readStdin: () => Promise<string>): Promise<ConfigText[]> {
  if (path === '-') return [{ text: await readStdin(), source: '<stdin>', dir: process.cwd() }];
  if (!existsSync(path)) throw new UsageError(`config file ${path} does not exist`, { hint: 'check the path given to -c/--config' });
  if (statSync(path).isDirectory()) {
    const files = await readKustomization(path);
    return Promise.all(files.map(async (file) => ({ text: await readFile(file, 'utf8'), source: file, dir: dirname(file) })));
  }
  return [{ text: await readFile(path, 'utf8'), source: path, dir: dirname(resolve(path)) }];
}

/**
 * One file's parsed documents checked as `-c` checks them (the same errors, naming `source`),
 * without reading anything else: for tools that rewrite a file rather than use it.
 */
export async function checkConfigDocuments(docs: readonly unknown[], source: string, logger: Logger, dir: string = process.cwd()): Promise<LoadedConfig> {
  const result = emptyConfig();
  result.sources.push(source);
  const schemas = await schemasFor(docs);
  for (const doc of docs) applyDocument(result, doc, source, dir, logger, schemas);
  return result;
}

/** `schemas` is there when `doc` may be a Logs or streaming document (schemasFor). */
function applyDocument(result: LoadedConfig, doc: unknown, source: string, dir: string, logger: Logger, schemas: DocumentSchemas | undefined): void {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new UsageError(`config file ${source}: a document is not a mapping`);
  }
  const record = doc as Record<string, unknown>;
  const kind = record.kind;
  if (typeof kind !== 'string' || kind === '') {
    throw new UsageError(`config file ${source}: a document has no kind`, { hint: 'every document needs a kind, e.g. kind: KwokctlConfiguration' });
  }
  if (!KNOWN_KINDS.has(kind)) {
    // A typo in a kind would otherwise silently drop the whole document.
    throw new UsageError(`config file ${source}: unknown kind ${JSON.stringify(kind)}`, { hint: `supported kinds: ${[...KNOWN_KINDS].join(', ')}` });
  }
  if (kind === 'KwokctlResource') {
    result.resources.push(record);
    return;
  }
  if (kind === 'KwokctlConfiguration') {
    applyKwokctlConfiguration(result, record, source, dir, logger);
    return;
  }
  let controllerDoc = record;
  if (isLogsKind(kind)) {
    controllerDoc = withAbsoluteLogFiles(record, process.cwd(), 'logs');
    result.logFiles.push(...checkLogsDocument(schemas!.logs, kind, controllerDoc, source));
  }
  if (kind === 'Attach' || kind === 'ClusterAttach') controllerDoc = withAbsoluteLogFiles(record, process.cwd(), 'attaches');
  if (isStreamingKind(kind)) result.logFiles.push(...checkStreamingDocument(schemas!.streaming, kind, controllerDoc, source));
  if (CONTROLLER_KINDS.has(kind)) result.kwokDocuments.push(controllerDoc);
}

/**
 * Relative log files are taken from the directory `create cluster` runs in, not the config file's:
 * kwokctl v0.8.0 saves them so (checked: run from /x with `-c /y/logs.yaml`, its kwok.yaml says
 * /x/logs.log), and kwok's own e2e relies on it (config in test/e2e/, `logsFile: ./logs.log`
 * written in the test package's directory). The controller itself runs elsewhere (the cluster's
 * directory, or a container), so it gets them absolute.
 */
function withAbsoluteLogFiles(doc: Record<string, unknown>, dir: string, list: 'logs' | 'attaches'): Record<string, unknown> {
  const spec = doc.spec as Record<string, unknown> | undefined;
  const entries = spec?.[list];
  if (!spec || !Array.isArray(entries)) return doc;
  const resolved = entries.map((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return entry;
    const e = { ...(entry as Record<string, unknown>) };
    for (const field of ['logsFile', 'previousLogsFile']) {
      const value = e[field];
      if (typeof value === 'string' && value !== '' && !isAbsolute(value)) e[field] = resolve(dir, value);
    }
    return e;
  });
  return { ...doc, spec: { ...spec, [list]: resolved } };
}

/** A Logs or ClusterLogs document is checked here, where its file is known, rather than by a controller that would refuse to start. */
function checkLogsDocument(schema: DocumentSchemas['logs'], kind: LogsKind, doc: Record<string, unknown>, source: string): string[] {
  const { logFilesOf, LogsDocumentError, parseClusterLogsDocument, parseLogsDocument } = schema;
  try {
    return logFilesOf([kind === 'Logs' ? parseLogsDocument(doc) : parseClusterLogsDocument(doc)]);
  } catch (error) {
    if (error instanceof LogsDocumentError) {
      throw new UsageError(`config file ${source}: ${error.message}`, { hint: 'fields of a log entry: containers, logsFile, previousLogsFile, follow' });
    }
    throw error;
  }
}

const STREAMING_FIELDS: Record<string, string> = {
  Exec: 'execs[].containers, execs[].local.workDir, execs[].local.envs, execs[].local.securityContext',
  Attach: 'attaches[].containers, attaches[].logsFile',
  PortForward: 'forwards[].ports, forwards[].target.port, forwards[].target.address, forwards[].command',
};

/** Exec, Attach and PortForward documents (and their Cluster kinds), checked like Logs; returns the attach files. */
function checkStreamingDocument(schema: DocumentSchemas['streaming'], kind: StreamingKind, doc: Record<string, unknown>, source: string): string[] {
  const { addStreamingDocument, attachFilesOf, emptyStreamingRules, StreamingDocumentError } = schema;
  const rules = emptyStreamingRules();
  try {
    addStreamingDocument(rules, kind, doc);
  } catch (error) {
    if (error instanceof StreamingDocumentError) {
      const fields = STREAMING_FIELDS[kind.replace(/^Cluster/, '')] ?? '';
      throw new UsageError(`config file ${source}: ${error.message}`, { hint: `fields of spec: ${kind.startsWith('Cluster') ? 'selector.matchNamespaces, selector.matchNames, ' : ''}${fields}` });
    }
    throw error;
  }
  // Relative attach files were resolved against their config file before this.
  return attachFilesOf(rules);
}

/** Spellings earlier kwokts versions wrote (`config tidy`), read as kwokctl's field. */
const OLD_SPELLINGS: Readonly<Record<string, OptionKey>> = { secureport: 'securePort' };

function applyKwokctlConfiguration(result: LoadedConfig, doc: Record<string, unknown>, source: string, dir: string, logger: Logger): void {
  const options = doc.options ?? {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new UsageError(`config file ${source}: KwokctlConfiguration.options must be a mapping`);
  }
  for (const [written, value] of Object.entries(options)) {
    const field = OLD_SPELLINGS[written] ?? written;
    if (field !== written) logger.warn(`config file ${source}: options.${written} is read as options.${field}, kwokctl's spelling; write that instead`);
    const spec = SPEC_BY_KEY.get(field);
    if (!spec) {
      throw new UsageError(`config file ${source}: unknown field options.${field} in KwokctlConfiguration`, {
        hint: 'see the options in docs/user/configuration.md (`kwokts config view` shows every option)',
      });
    }
    // JSON null leaves a Go field at its zero value: unset.
    if (value === null || value === undefined) continue;
    const key = field as OptionKey;
    let typed = coerce(spec, value, `config file ${source}: options.${field}`);
    const kind = PATH_OPTIONS[key];
    if (kind && typeof typed === 'string') typed = relativeTo(dir, typed, kind);
    (result.fileOptions as Record<string, unknown>)[key] = typed;
    result.optionSources[key] = source;
  }
  const patches = doc.componentsPatches ?? [];
  if (!Array.isArray(patches)) throw new UsageError(`config file ${source}: componentsPatches must be a list`);
  for (const [i, raw] of patches.entries()) {
    const p = raw as Record<string, unknown>;
    const where = `config file ${source}: componentsPatches[${i}]`;
    if (typeof p?.name !== 'string') throw new UsageError(`${where}.name is required`);
    const extraArgs = Array.isArray(p.extraArgs) ? p.extraArgs : [];
    result.componentsPatches.push({
      name: p.name,
      extraArgs: extraArgs.map((a: Record<string, unknown>) => ({
        key: String(a.key),
        value: a.value === null || a.value === undefined ? null : String(a.value),
        override: a.override === true,
      })),
      extraEnvs: parseEnvs(p.extraEnvs, `${where}.extraEnvs`),
      extraVolumes: parseVolumes(p.extraVolumes, `${where}.extraVolumes`, dir),
    });
  }
  const taken = [...COMPONENT_NAMES, ...result.components.map((c) => c.name)];
  result.components.push(...parseUserComponents(doc.components, `config file ${source}: components`, taken, dir));
}

/** A relative path in a config file, taken from the file's directory (see PATH_OPTIONS). */
function relativeTo(dir: string, value: string, kind: 'file' | 'program'): string {
  if (value === '' || isAbsolute(value)) return value;
  if (kind === 'file') return resolve(dir, value);
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return value; // a URL (file:// URLs are absolute)
  if (!value.includes('/')) return value; // a program name, looked up on PATH
  const hash = value.indexOf('#');
  return hash < 0 ? resolve(dir, value) : resolve(dir, value.slice(0, hash)) + value.slice(hash);
}

export async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
