import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { UsageError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { defaultOptionValues, OPTION_SPECS, type ClusterOptionValues, type OptionSpec } from './options.js';
import { parseYamlDocuments } from './yaml.js';
import { parseEnvs, parseUserComponents, parseVolumes, type UserComponentSpec, type VolumeSpec } from './component-specs.js';
import { COMPONENT_NAMES } from '../components/component.js';
import { logFilesOf, LogsDocumentError, parseClusterLogsDocument, parseLogsDocument } from '../kwok/api/logs-schema.js';
import { addStreamingDocument, attachFilesOf, emptyStreamingRules, isStreamingKind, StreamingDocumentError } from '../kwok/api/streaming-schema.js';
import type { StreamingKind } from '../kwok/api/streaming-schema.js';

/** Extra arguments for a built-in component, as KwokctlConfiguration.componentsPatches. */
export interface ComponentPatch {
  name: string;
  extraArgs: Array<{ key: string; value: string | null; override?: boolean }>;
  extraEnvs: Array<{ name: string; value: string }>;
  extraVolumes: VolumeSpec[];
}

export interface LoadedConfig {
  /** Values set by config files only (not defaults). */
  fileOptions: Partial<ClusterOptionValues>;
  componentsPatches: ComponentPatch[];
  /** Extra components started with the built-in ones (KwokctlConfiguration.components). */
  components: UserComponentSpec[];
  /** options.components (kwokctl's base set; a later file replaces it), options.enable / disable / enableCRDs (added to the flags' lists). */
  baseComponents: string[];
  enable: string[];
  disable: string[];
  enableCrds: string[];
  /** Documents handed to the kwok controller as they are (KwokConfiguration, Stage, ...). */
  kwokDocuments: Array<Record<string, unknown>>;
  /** Every logsFile and previousLogsFile of the Logs and ClusterLogs documents and logsFile of the Attach and ClusterAttach ones (absolute paths). */
  logFiles: string[];
  /** KwokctlResource documents: user templates for `scale`, by metadata.name. */
  resources: Array<Record<string, unknown>>;
  /** Which files were read, in order. */
  sources: string[];
}

const KNOWN_KINDS = new Set([
  'KwokctlConfiguration', 'KwokConfiguration', 'KwokctlResource', 'Stage', 'Attach', 'ClusterAttach', 'Exec',
  'ClusterExec', 'Logs', 'ClusterLogs', 'PortForward', 'ClusterPortForward', 'ResourceUsage',
  'ClusterResourceUsage', 'Metric',
]);

/** Kinds the controller consumes from its --config file. */
const CONTROLLER_KINDS = new Set([...KNOWN_KINDS].filter((k) => k !== 'KwokctlConfiguration' && k !== 'KwokctlResource'));

const specByKey = new Map<string, OptionSpec>(OPTION_SPECS.map((s) => [s.key, s]));

/** Option fields kwokctl has that we accept but do not act on yet; warned, never fatal. */
const TOLERATED_OPTION_FIELDS = new Set([
  'kwokVersion', 'kindVersion', 'securePort', 'kubeApiserverInsecurePort', 'kubeApiserverCertSANs', 'insecureKubeconfig',
  'kwokBinaryPrefix', 'kwokControllerBinary', 'kubeImagePrefix', 'etcdImagePrefix', 'kwokImagePrefix',
  'kubeApiserverImage', 'etcdImage', 'kwokControllerImage', 'runtimes',
  'kubeControllerManagerImage', 'kubeSchedulerImage', 'prometheusImage', 'prometheusImagePrefix', 'jaegerPort',
  'jaegerVersion', 'metricsServerPort', 'kindNodeImage', 'kindBinary', 'etcdctlBinaryTar', 'etcdBinaryTar',
]);

/** List-valued options that name components or kinds; they add up across files. */
const LIST_OPTIONS = { enable: 'enable', disable: 'disable', enableCRDs: 'enableCrds' } as const;

export function emptyConfig(): LoadedConfig {
  return { fileOptions: {}, componentsPatches: [], components: [], baseComponents: [], enable: [], disable: [], enableCrds: [], kwokDocuments: [], logFiles: [], resources: [], sources: [] };
}

export async function loadConfigFiles(paths: readonly string[], logger: Logger, readStdin: () => Promise<string> = readAllStdin): Promise<LoadedConfig> {
  const result: LoadedConfig = emptyConfig();
  for (const path of paths) {
    let text: string;
    if (path === '-') text = await readStdin();
    else {
      if (!existsSync(path)) throw new UsageError(`config file ${path} does not exist`, { hint: 'check the path given to -c/--config' });
      text = await readFile(path, 'utf8');
    }
    const source = path === '-' ? '<stdin>' : path;
    let docs: unknown[];
    try {
      docs = parseYamlDocuments(text);
    } catch (error) {
      throw new UsageError(`config file ${source}: invalid YAML: ${(error as Error).message}`);
    }
    result.sources.push(source);
    for (const doc of docs) applyDocument(result, doc, source, logger);
  }
  return result;
}

/**
 * One file's parsed documents checked as `-c` checks them (the same errors, naming `source`),
 * without reading anything else: for tools that rewrite a file rather than use it.
 */
export function checkConfigDocuments(docs: readonly unknown[], source: string, logger: Logger): LoadedConfig {
  const result = emptyConfig();
  result.sources.push(source);
  for (const doc of docs) applyDocument(result, doc, source, logger);
  return result;
}

function applyDocument(result: LoadedConfig, doc: unknown, source: string, logger: Logger): void {
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
    applyKwokctlConfiguration(result, record, source, logger);
    return;
  }
  if (kind === 'Logs' || kind === 'ClusterLogs') result.logFiles.push(...checkLogsDocument(kind, record, source));
  if (isStreamingKind(kind)) result.logFiles.push(...checkStreamingDocument(kind, record, source));
  if (CONTROLLER_KINDS.has(kind)) result.kwokDocuments.push(record);
}

/**
 * A Logs or ClusterLogs document is checked here, where its file is known, rather than by a
 * controller that would refuse to start. Its files must be absolute: the controller runs in the
 * cluster's directory (or a container), not where the config was written.
 */
function checkLogsDocument(kind: 'Logs' | 'ClusterLogs', doc: Record<string, unknown>, source: string): string[] {
  let files: string[];
  try {
    files = logFilesOf([kind === 'Logs' ? parseLogsDocument(doc) : parseClusterLogsDocument(doc)]);
  } catch (error) {
    if (error instanceof LogsDocumentError) {
      throw new UsageError(`config file ${source}: ${error.message}`, { hint: 'fields of a log entry: containers, logsFile, previousLogsFile, follow' });
    }
    throw error;
  }
  const relative = files.find((f) => !isAbsolute(f));
  if (relative !== undefined) {
    const name = (doc.metadata as { name?: unknown } | undefined)?.name;
    throw new UsageError(`config file ${source}: ${kind} "${String(name)}": log file "${relative}" is not an absolute path`, {
      hint: 'the kwok controller does not run in this directory; give the full path',
    });
  }
  return files;
}

const STREAMING_FIELDS: Record<string, string> = {
  Exec: 'execs[].containers, execs[].local.workDir, execs[].local.envs, execs[].local.securityContext',
  Attach: 'attaches[].containers, attaches[].logsFile',
  PortForward: 'forwards[].ports, forwards[].target.port, forwards[].target.address, forwards[].command',
};

/** Exec, Attach and PortForward documents (and their Cluster kinds), checked like Logs; returns the attach files. */
function checkStreamingDocument(kind: StreamingKind, doc: Record<string, unknown>, source: string): string[] {
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
  const files = attachFilesOf(rules);
  const relative = files.find((f) => !isAbsolute(f));
  if (relative !== undefined) {
    const name = (doc.metadata as { name?: unknown } | undefined)?.name;
    throw new UsageError(`config file ${source}: ${kind} "${String(name)}": log file "${relative}" is not an absolute path`, {
      hint: 'the kwok controller does not run in this directory; give the full path',
    });
  }
  return files;
}

function applyKwokctlConfiguration(result: LoadedConfig, doc: Record<string, unknown>, source: string, logger: Logger): void {
  const options = doc.options ?? {};
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new UsageError(`config file ${source}: KwokctlConfiguration.options must be a mapping`);
  }
  for (const [field, value] of Object.entries(options)) {
    if (field === 'components') {
      result.baseComponents = nameList(value, `config file ${source}: options.components`);
      continue;
    }
    if (field in LIST_OPTIONS) {
      result[LIST_OPTIONS[field as keyof typeof LIST_OPTIONS]].push(...nameList(value, `config file ${source}: options.${field}`));
      continue;
    }
    const spec = specByKey.get(field);
    if (!spec) {
      if (TOLERATED_OPTION_FIELDS.has(field)) {
        logger.debug(`config file ${source}: options.${field} is not supported yet and is ignored`);
        continue;
      }
      throw new UsageError(`config file ${source}: unknown field options.${field} in KwokctlConfiguration`, {
        hint: 'see `kwokts config view` or the README for the supported options',
      });
    }
    (result.fileOptions as Record<string, unknown>)[field] = coerce(spec, value, `config file ${source}: options.${field}`);
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
      extraVolumes: parseVolumes(p.extraVolumes, `${where}.extraVolumes`),
    });
  }
  const taken = [...COMPONENT_NAMES, ...result.components.map((c) => c.name)];
  result.components.push(...parseUserComponents(doc.components, `config file ${source}: components`, taken));
}

function nameList(value: unknown, where: string): string[] {
  // kwokctl writes these as lists; a comma-separated string is what the flags accept, so take both.
  if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  throw new UsageError(`${where} must be a list of names`);
}

/** Turn a flag, env or YAML value into the option's type, or a UsageError naming where it came from. */
export function coerce(spec: OptionSpec, value: unknown, where: string): string | number | boolean {
  switch (spec.type) {
    case 'string':
      if (typeof value === 'string' || typeof value === 'number') return String(value);
      break;
    case 'integer': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
      if (Number.isInteger(n)) return n;
      break;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|false|1|0)$/i.test(value.trim())) return /^(true|1)$/i.test(value.trim());
      break;
  }
  throw new UsageError(`${where}: expected ${spec.type}, got ${JSON.stringify(value)}`);
}

/** Defaults ← config files ← KWOK_* env ← flags; empty env values count as unset, as in kwokctl. */
export function resolveOptionValues(
  fileOptions: Partial<ClusterOptionValues>,
  env: NodeJS.ProcessEnv,
  flags: Partial<Record<keyof ClusterOptionValues, unknown>>,
): ClusterOptionValues {
  const values = defaultOptionValues() as unknown as Record<string, unknown>;
  Object.assign(values, fileOptions);
  for (const spec of OPTION_SPECS) {
    const raw = spec.env ? env[spec.env] : undefined;
    if (raw !== undefined && raw !== '') values[spec.key] = coerce(spec, raw, `environment variable ${spec.env}`);
  }
  for (const spec of OPTION_SPECS) {
    const raw = flags[spec.key];
    if (raw !== undefined) values[spec.key] = coerce(spec, raw, `flag --${spec.flag ?? spec.key}`);
  }
  return values as unknown as ClusterOptionValues;
}

export async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
