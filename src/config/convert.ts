/**
 * `config convert [file...]`, kwokctl's: config files (multi-document YAML) rewritten in the
 * current API version. What changes, following kwokctl (pkg/config: Load, then Save):
 * - every document gets its kind's current apiVersion (config.kwok.x-k8s.io/v1alpha1 for
 *   KwokctlConfiguration, KwokConfiguration and KwokctlResource, kwok.x-k8s.io/v1alpha1 for the
 *   rest), also where it had none: kwokctl routes documents by kind alone;
 * - Stages lose kwok's deprecated spellings (spec.next, flat matchExpressions, expressionFrom),
 *   by the engine's own conversions (upgradeStageDocument);
 * - kwokctl's first config format (no kind; name, workdir, runtime and snake_case fields) becomes
 *   a KwokctlConfiguration.
 * Unlike kwokctl, nothing else is added: kwokctl fills every default (and KWOK_* variable) into a
 * KwokctlConfiguration, which pins today's versions into the file; `config view` shows those. Documents
 * keep their order and are not merged (loading merges them the same way). Every document is
 * checked as `-c` checks it, and a file that does not pass is an error naming it: kwokctl warns
 * and skips it, and drops documents of kinds it does not know.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parseStages, upgradeStageDocument } from '../kwok/api/index.js';
import { UsageError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { checkConfigDocuments, readAllStdin } from './load.js';
import { parseYamlDocuments, renderYamlDocuments } from '../gocompat/yaml/index.js';

export const CONFIG_API_VERSION = 'config.kwok.x-k8s.io/v1alpha1';
export const KWOK_API_VERSION = 'kwok.x-k8s.io/v1alpha1';
const CONFIG_KINDS = new Set(['KwokctlConfiguration', 'KwokConfiguration', 'KwokctlResource']);

export interface ConvertedFile {
  /** As given; `-` is stdin. */
  path: string;
  /** Where -w writes: the file a symlink points to, so the link stays a link. */
  target: string;
  /** The file's permission bits, kept by -w. */
  mode: number;
  /** The converted documents ('' when the file had none). */
  text: string;
  changed: boolean;
}

type Doc = Record<string, unknown>;

const isRecord = (value: unknown): value is Doc => typeof value === 'object' && value !== null && !Array.isArray(value);

export function currentApiVersion(kind: string): string {
  return CONFIG_KINDS.has(kind) ? CONFIG_API_VERSION : KWOK_API_VERSION;
}

/** Read and convert every file before anything is written: one bad file and none is touched. */
export async function convertConfigFiles(paths: readonly string[], logger: Logger, readStdin: () => Promise<string> = readAllStdin): Promise<ConvertedFile[]> {
  const out: ConvertedFile[] = [];
  for (const path of paths) {
    if (path === '-') {
      const input = await readStdin();
      const text = await convertConfigText(input, '<stdin>', logger);
      out.push({ path, target: path, mode: 0o644, text, changed: text !== input });
      continue;
    }
    if (!existsSync(path)) throw new UsageError(`config file ${path} does not exist`, { hint: 'check the path given to config convert' });
    const target = realpathSync(path);
    const stat = statSync(target);
    if (!stat.isFile()) throw new UsageError(`config file ${path} is not a file`, { hint: 'give the YAML files themselves' });
    const input = await readFile(target, 'utf8');
    const text = await convertConfigText(input, path, logger);
    out.push({ path, target, mode: stat.mode & 0o777, text, changed: text !== input });
  }
  return out;
}

/** One file's text in the current API version; `source` names it in errors. */
export async function convertConfigText(input: string, source: string, logger: Logger): Promise<string> {
  let parsed: unknown[];
  try {
    parsed = parseYamlDocuments(input);
  } catch (error) {
    throw new UsageError(`config file ${source}: invalid YAML: ${(error as Error).message}`, { hint: 'fix the YAML there; documents are separated by ---' });
  }
  if (parsed.length === 0) {
    logger.warn(`config file ${source} has no documents: nothing to convert`);
    return '';
  }
  const docs = parsed.map((doc, i) => {
    if (!isRecord(doc)) throw new UsageError(`config file ${source}: document ${i + 1} is not a mapping`, { hint: 'each document is one object with a kind, e.g. kind: KwokctlConfiguration' });
    return doc.kind === undefined && doc.apiVersion === undefined && isLegacyConfig(doc) ? convertLegacyConfig(doc, source, logger) : doc;
  });
  // Kinds, options, components: the loader's own checks and messages.
  await checkConfigDocuments(docs, source, logger);
  return renderYamlDocuments(docs.map((doc) => convertDocument(doc, source)));
}

function convertDocument(doc: Doc, source: string): Doc {
  const kind = String(doc.kind);
  const apiVersion = currentApiVersion(kind);
  const given = doc.apiVersion;
  if (given !== undefined && given !== null && given !== '' && given !== CONFIG_API_VERSION && given !== KWOK_API_VERSION) {
    throw new UsageError(`config file ${source}: ${kind} ${describeName(doc)}has apiVersion ${JSON.stringify(given)}, which is not a kwok API version`, {
      hint: `the current one is ${apiVersion}`,
    });
  }
  let body = doc;
  if (kind === 'Stage') {
    const [error] = parseStages([doc], `config file ${source}`).errors;
    if (error) throw error;
    body = upgradeStageDocument(doc);
  }
  // apiVersion and kind first, as Kubernetes writes them; the rest in the user's order.
  const { apiVersion: _apiVersion, kind: _kind, ...rest } = body;
  return { apiVersion, kind, ...rest };
}

function describeName(doc: Doc): string {
  const name = isRecord(doc.metadata) ? doc.metadata.name : undefined;
  return typeof name === 'string' && name !== '' ? `"${name}" ` : '';
}

/**
 * kwokctl's first config format (compatibility.Config): no kind, and name, workdir and runtime
 * all set; the same test kwokctl applies before converting one.
 */
function isLegacyConfig(doc: Doc): boolean {
  return ['name', 'workdir', 'runtime'].every((k) => typeof doc[k] === 'string' && doc[k] !== '');
}

/** Legacy field → KwokctlConfiguration option, as kwokctl's Convert_Config_To_internalversion_KwokctlConfiguration. */
const LEGACY_OPTIONS: Readonly<Record<string, string>> = {
  runtime: 'runtime',
  etcd_port: 'etcdPort',
  etcd_peer_port: 'etcdPeerPort',
  kube_apiserver_port: 'kubeApiserverPort',
  kube_controller_manager_port: 'kubeControllerManagerPort',
  kube_scheduler_port: 'kubeSchedulerPort',
  kwok_controller_port: 'kwokControllerPort',
  prometheus_port: 'prometheusPort',
  etcd_image: 'etcdImage',
  kube_apiserver_image: 'kubeApiserverImage',
  kube_controller_manager_image: 'kubeControllerManagerImage',
  kube_scheduler_image: 'kubeSchedulerImage',
  kwok_controller_image: 'kwokControllerImage',
  prometheus_image: 'prometheusImage',
  kind_node_image: 'kindNodeImage',
  kube_apiserver_binary: 'kubeApiserverBinary',
  kube_controller_manager_binary: 'kubeControllerManagerBinary',
  kube_scheduler_binary: 'kubeSchedulerBinary',
  kwok_controller_binary: 'kwokControllerBinary',
  etcd_binary: 'etcdBinary',
  etcd_binary_tar: 'etcdBinaryTar',
  prometheus_binary: 'prometheusBinary',
  kubectl_binary: 'kubectlBinary',
  cache_dir: 'cacheDir',
  secret_port: 'securePort',
  quiet_pull: 'quietPull',
  kube_feature_gates: 'kubeFeatureGates',
  audit_policy: 'kubeAuditPolicy',
  authorization: 'kubeAuthorization',
  kube_runtime_config: 'kubeRuntimeConfig',
};

/** Legacy booleans that are now entries of options.disable. */
const LEGACY_DISABLE: Readonly<Record<string, string>> = {
  disable_kube_scheduler: 'kube-scheduler',
  disable_kube_controller_manager: 'kube-controller-manager',
};

function convertLegacyConfig(doc: Doc, source: string, logger: Logger): Doc {
  const options: Doc = {};
  const disable: string[] = [];
  for (const [field, value] of Object.entries(doc)) {
    if (field === 'name' || field === 'workdir') continue; // the cluster's name and directory are not configuration any more
    const option = LEGACY_OPTIONS[field];
    if (option) options[option] = value;
    else if (LEGACY_DISABLE[field]) {
      if (value === true) disable.push(LEGACY_DISABLE[field]);
    } else logger.warn(`config file ${source}: ${field} of the old config format has no counterpart now and is dropped`);
  }
  if (disable.length > 0) options.disable = disable;
  logger.debug(`config file ${source}: converted from kwokctl's old config format`);
  return { kind: 'KwokctlConfiguration', options };
}
