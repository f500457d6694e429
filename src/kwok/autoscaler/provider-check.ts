/**
 * Checks a cluster-autoscaler kwok-provider setup for the mistake the provider never reports: the
 * provider groups template nodes into nodegroups by the label (`nodegroups.fromNodeLabelKey`) or
 * annotation (`nodegroups.fromNodeAnnotation`) its config names, and silently skips every template
 * node without a non-empty value for it. With no nodegroup left, cluster-autoscaler simply never
 * scales up and logs no error.
 *
 * Pure: ConfigMap data (and, for `readNodesFrom: cluster`, the cluster's nodes) in, one-line
 * problems out. The provider's own loud failures (unparsable config, both keys set) are reported
 * too, so one look at the check explains a no-scale.
 */
import { parseK8sYamlDocuments } from '../../gocompat/yaml/index.js';
import type { KubeObject } from '../../kube/index.js';

/** Names and data keys the provider reads (its defaults; KWOK_PROVIDER_CONFIGMAP renames the config). */
export const PROVIDER_CONFIG_NAME = 'kwok-provider-config';
export const PROVIDER_CONFIG_KEY = 'config';
export const PROVIDER_TEMPLATES_NAME = 'kwok-provider-templates';
export const PROVIDER_TEMPLATES_KEY = 'templates';

export interface ProviderGrouping {
  /** `label` for fromNodeLabelKey, `annotation` for fromNodeAnnotation. */
  by: 'label' | 'annotation';
  key: string;
}

export interface ProviderConfig {
  readNodesFrom: 'configmap' | 'cluster';
  grouping: ProviderGrouping;
  /** The ConfigMap holding template nodes (`configmap.name`), for readNodesFrom: configmap. */
  templatesConfigMap?: string;
}

export interface ProviderConfigResult {
  config?: ProviderConfig;
  problems: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function trimmed(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** The `config` value of kwok-provider-config, read the way the provider validates it. */
export function parseProviderConfig(text: string | undefined): ProviderConfigResult {
  if (text === undefined || text.trim() === '') return { problems: [`${PROVIDER_CONFIG_NAME} has no "${PROVIDER_CONFIG_KEY}" data key: the provider cannot start`] };
  let docs: unknown[];
  try {
    docs = parseK8sYamlDocuments(text);
  } catch (error) {
    return { problems: [`${PROVIDER_CONFIG_NAME}: "${PROVIDER_CONFIG_KEY}" is not valid YAML: ${firstLine(error)}`] };
  }
  const doc = docs[0];
  if (!isRecord(doc)) return { problems: [`${PROVIDER_CONFIG_NAME}: "${PROVIDER_CONFIG_KEY}" is not a YAML mapping`] };
  const problems: string[] = [];
  const readNodesFrom = trimmed(doc['readNodesFrom']);
  if (readNodesFrom !== 'configmap' && readNodesFrom !== 'cluster') {
    problems.push(`${PROVIDER_CONFIG_NAME}: readNodesFrom is ${JSON.stringify(doc['readNodesFrom'] ?? '')}, expected "configmap" or "cluster"`);
  }
  const nodegroups = isRecord(doc['nodegroups']) ? doc['nodegroups'] : {};
  const labelKey = trimmed(nodegroups['fromNodeLabelKey']);
  const annotationKey = trimmed(nodegroups['fromNodeAnnotation']);
  if (labelKey === '' && annotationKey === '') problems.push(`${PROVIDER_CONFIG_NAME}: set nodegroups.fromNodeLabelKey or nodegroups.fromNodeAnnotation`);
  if (labelKey !== '' && annotationKey !== '') problems.push(`${PROVIDER_CONFIG_NAME}: nodegroups.fromNodeLabelKey and nodegroups.fromNodeAnnotation are both set; the provider accepts only one`);
  const configmap = isRecord(doc['configmap']) ? doc['configmap'] : {};
  const templatesConfigMap = trimmed(configmap['name']);
  if (readNodesFrom === 'configmap' && templatesConfigMap === '') problems.push(`${PROVIDER_CONFIG_NAME}: readNodesFrom is "configmap" but configmap.name is empty`);
  if (problems.length > 0) return { problems };
  const grouping: ProviderGrouping = labelKey !== '' ? { by: 'label', key: labelKey } : { by: 'annotation', key: annotationKey };
  return {
    config: { readNodesFrom: readNodesFrom as 'configmap' | 'cluster', grouping, ...(readNodesFrom === 'configmap' ? { templatesConfigMap } : {}) },
    problems,
  };
}

export interface TemplateNodesResult {
  nodes: KubeObject[];
  problems: string[];
}

/** The `templates` value: a `kind: List` of Nodes or a stream of Node documents, as the provider accepts. */
export function parseTemplateNodes(text: string | undefined, source = PROVIDER_TEMPLATES_NAME): TemplateNodesResult {
  if (text === undefined || text.trim() === '') return { nodes: [], problems: [`${source} has no "${PROVIDER_TEMPLATES_KEY}" data key: the provider cannot load template nodes`] };
  let docs: unknown[];
  try {
    docs = parseK8sYamlDocuments(text);
  } catch (error) {
    return { nodes: [], problems: [`${source}: "${PROVIDER_TEMPLATES_KEY}" is not valid YAML: ${firstLine(error)}`] };
  }
  const items = docs.length === 1 && isRecord(docs[0]) && docs[0]['kind'] === 'List' && Array.isArray(docs[0]['items']) ? (docs[0]['items'] as unknown[]) : docs;
  const nodes = items.filter((item): item is KubeObject => isRecord(item) && item['kind'] === 'Node' && isRecord(item['metadata']));
  if (nodes.length !== items.length) return { nodes, problems: [`${source}: "${PROVIDER_TEMPLATES_KEY}" holds something other than Nodes; the provider refuses it`] };
  if (nodes.length === 0) return { nodes, problems: [`${source}: "${PROVIDER_TEMPLATES_KEY}" holds no Node`] };
  return { nodes, problems: [] };
}

/** The node's value for the grouping key; '' when missing (the provider treats empty as missing). */
export function nodegroupOf(node: KubeObject, grouping: ProviderGrouping): string {
  const values = grouping.by === 'label' ? node.metadata.labels : node.metadata.annotations;
  return values?.[grouping.key] ?? '';
}

function describeKey(grouping: ProviderGrouping): string {
  return grouping.by === 'label' ? `label "${grouping.key}" (nodegroups.fromNodeLabelKey)` : `annotation "${grouping.key}" (nodegroups.fromNodeAnnotation)`;
}

/** Problems with the grouping key on the template nodes; empty when every template forms a nodegroup. */
export function checkTemplateNodes(nodes: readonly KubeObject[], grouping: ProviderGrouping, source: string): string[] {
  const missing = nodes.filter((n) => nodegroupOf(n, grouping) === '').map((n) => n.metadata.name ?? '<unnamed>');
  if (missing.length === 0) return [];
  const names = missing.map((n) => `"${n}"`).join(', ');
  if (missing.length === nodes.length) {
    return [`${source}: no template node has the ${describeKey(grouping)}, so the kwok provider forms no nodegroup and cluster-autoscaler will never scale up (it logs no error); add it to ${names}`];
  }
  return [`${source}: template node${missing.length > 1 ? 's' : ''} ${names} lack${missing.length > 1 ? '' : 's'} the ${describeKey(grouping)}; the kwok provider skips ${missing.length > 1 ? 'them' : 'it'} silently`];
}

export interface ProviderSetup {
  /** Namespace the ConfigMaps live in (for messages). */
  namespace: string;
  configData: string | undefined;
  /** Data of the ConfigMap named by configmap.name; undefined when it does not exist. */
  templatesData?: string | undefined;
  /** Cluster nodes, for readNodesFrom: cluster. */
  clusterNodes?: readonly KubeObject[];
}

export interface ProviderCheckResult {
  config?: ProviderConfig;
  problems: string[];
}

/** Everything that would keep the provider from scaling, one line each. */
export function checkProviderSetup(setup: ProviderSetup): ProviderCheckResult {
  const parsed = parseProviderConfig(setup.configData);
  if (!parsed.config) return { problems: parsed.problems };
  const config = parsed.config;
  if (config.readNodesFrom === 'cluster') {
    const nodes = setup.clusterNodes ?? [];
    if (nodes.some((n) => nodegroupOf(n, config.grouping) !== '')) return { config, problems: [] };
    return {
      config,
      problems: [`${PROVIDER_CONFIG_NAME}: readNodesFrom is "cluster" but no node in the cluster has the ${describeKey(config.grouping)}, so cluster-autoscaler will never scale up (it logs no error)`],
    };
  }
  const source = `${setup.namespace}/${config.templatesConfigMap ?? PROVIDER_TEMPLATES_NAME}`;
  if (setup.templatesData === undefined) {
    return { config, problems: [`ConfigMap ${source} (configmap.name in ${PROVIDER_CONFIG_NAME}) does not exist or has no "${PROVIDER_TEMPLATES_KEY}" key`] };
  }
  const templates = parseTemplateNodes(setup.templatesData, source);
  if (templates.problems.length > 0) return { config, problems: templates.problems };
  return { config, problems: checkTemplateNodes(templates.nodes, config.grouping, source) };
}

export interface ConfigMapsCheck {
  namespace: string;
  problems: string[];
  /** The nodegroup values the templates define (the provider suffixes each with a timestamp). */
  nodegroups: string[];
}

/**
 * Checks ConfigMaps as a user would apply them (e.g. `kubectl apply -f`): for each namespace that
 * has a kwok-provider-config, its setup with the templates ConfigMap found among `objects`.
 * Objects other than ConfigMaps are ignored; `namespace` stands for those without one.
 */
export function checkProviderConfigMaps(objects: readonly unknown[], namespace: string): ConfigMapsCheck[] {
  const configMaps = objects.filter((o): o is KubeObject => isRecord(o) && o['kind'] === 'ConfigMap' && isRecord(o['metadata']));
  const nsOf = (o: KubeObject): string => o.metadata.namespace || namespace;
  const dataOf = (o: KubeObject | undefined, key: string): string | undefined => {
    const data = o?.['data'];
    return isRecord(data) && typeof data[key] === 'string' ? data[key] : undefined;
  };
  return configMaps
    .filter((o) => o.metadata.name === PROVIDER_CONFIG_NAME)
    .map((config) => {
      const ns = nsOf(config);
      const configData = dataOf(config, PROVIDER_CONFIG_KEY);
      const wanted = parseProviderConfig(configData).config?.templatesConfigMap;
      const templates = wanted === undefined ? undefined : configMaps.find((o) => o.metadata.name === wanted && nsOf(o) === ns);
      const templatesData = dataOf(templates, PROVIDER_TEMPLATES_KEY);
      const result = checkProviderSetup({ namespace: ns, configData, templatesData });
      const grouping = result.config?.grouping;
      const nodegroups = grouping ? [...new Set(parseTemplateNodes(templatesData).nodes.map((n) => nodegroupOf(n, grouping)).filter((g) => g !== ''))] : [];
      return { namespace: ns, problems: result.problems, nodegroups };
    });
}
