/**
 * Watches cluster-autoscaler's kwok-provider ConfigMaps (by name, in every namespace: the provider
 * reads them from its POD_NAMESPACE, which this controller cannot know) and warns when the setup
 * would make the provider silently never scale, most often template nodes without the nodegroup
 * label/annotation. The warning goes to the controller log and, so `kubectl describe configmap`
 * and `kubectl get events` show it, into a Warning Event on the offending ConfigMap.
 *
 * Advisory only: it never changes the ConfigMaps or the nodes.
 */
import type { Logger } from '../../util/log.js';
import {
  checkProviderSetup,
  nodegroupOf,
  parseProviderConfig,
  PROVIDER_CONFIG_KEY,
  PROVIDER_CONFIG_NAME,
  PROVIDER_TEMPLATES_KEY,
  PROVIDER_TEMPLATES_NAME,
  type ProviderGrouping,
} from '../autoscaler/provider-check.js';
import { KubeApiError, Reflector, configMapsResource, nodesResource, type KubeClient, type KubeObject } from '../../kube/index.js';
import type { EventRecorder } from './event-recorder.js';

export const providerWarningReason = 'KwokProviderNoNodegroup';

export interface ProviderConfigWatchOptions {
  client: KubeClient;
  logger: Logger;
  events: EventRecorder;
  /** Wait this long after a change before checking, so config and templates applied together are seen together. */
  settleMs?: number;
}

function dataOf(configMap: KubeObject | undefined, key: string): string | undefined {
  const data = configMap?.['data'];
  if (typeof data !== 'object' || data === null) return undefined;
  const value = (data as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : undefined;
}

export class ProviderConfigWatch {
  private readonly configs: Reflector;
  private readonly templates: Reflector;
  private readonly pending = new Map<string, NodeJS.Timeout>();
  /** Per namespace, the problems last reported, so a resync does not repeat them. */
  private readonly reported = new Map<string, string>();
  private stopped = false;

  constructor(private readonly options: ProviderConfigWatchOptions) {
    const onEvent = (_type: string, object: KubeObject): void => this.schedule(object.metadata.namespace ?? 'default');
    const child = (name: string): Reflector =>
      new Reflector({ client: options.client, ref: configMapsResource, selectors: { fieldSelector: `metadata.name=${name}` }, onEvent, logger: options.logger });
    this.configs = child(PROVIDER_CONFIG_NAME);
    this.templates = child(PROVIDER_TEMPLATES_NAME);
  }

  async run(signal: AbortSignal): Promise<void> {
    // Without RBAC for ConfigMaps (a controller deployed with narrow permissions), say so once and
    // stay out of the way instead of retrying a forbidden watch forever.
    try {
      await this.options.client.list(configMapsResource, { fieldSelector: `metadata.name=${PROVIDER_CONFIG_NAME}`, limit: 1 }, signal);
    } catch (error) {
      if (error instanceof KubeApiError && (error.status === 401 || error.status === 403)) {
        this.options.logger.warn(`cannot list ConfigMaps (${error.message}); the cluster-autoscaler kwok-provider check is off`);
        return;
      }
      // Anything else (apiserver restarting) is retried by the reflectors below.
    }
    signal.addEventListener(
      'abort',
      () => {
        this.stopped = true;
        for (const timer of this.pending.values()) clearTimeout(timer);
        this.pending.clear();
      },
      { once: true },
    );
    await Promise.all([this.configs.run(signal), this.templates.run(signal)]);
  }

  private schedule(namespace: string): void {
    if (this.stopped) return;
    clearTimeout(this.pending.get(namespace));
    const timer = setTimeout(() => {
      this.pending.delete(namespace);
      this.check(namespace).catch((error: unknown) => this.options.logger.warn(`kwok provider check in ${namespace}: ${(error as Error).message}`));
    }, this.options.settleMs ?? 1000);
    timer.unref?.();
    this.pending.set(namespace, timer);
  }

  /**
   * Nodes of the whole cluster carrying the grouping key (at most one is needed). Read from the API,
   * not the controller's node cache, which holds only the nodes this controller manages.
   */
  private async nodesWithKey(grouping: ProviderGrouping): Promise<KubeObject[]> {
    if (grouping.by === 'label') return (await this.options.client.list(nodesResource, { labelSelector: grouping.key, limit: 1 })).items;
    let token: string | undefined;
    do {
      const page = await this.options.client.list(nodesResource, { limit: 500, ...(token ? { continue: token } : {}) });
      const found = page.items.find((n) => nodegroupOf(n, grouping) !== '');
      if (found) return [found];
      token = page.continue;
    } while (token);
    return [];
  }

  /** Checks one namespace's provider setup now; returns the problems found. */
  async check(namespace: string): Promise<string[]> {
    const { logger } = this.options;
    const config = this.configs.store.get(`${namespace}/${PROVIDER_CONFIG_NAME}`);
    if (!config) {
      this.reported.delete(namespace);
      return [];
    }
    const configData = dataOf(config, PROVIDER_CONFIG_KEY);
    const parsed = parseProviderConfig(configData).config;
    let templates: KubeObject | undefined;
    let clusterNodes: KubeObject[] | undefined;
    if (parsed?.templatesConfigMap !== undefined) {
      const name = parsed.templatesConfigMap;
      // The default name is watched; a custom one is read when the config changes.
      templates = name === PROVIDER_TEMPLATES_NAME ? this.templates.store.get(`${namespace}/${name}`) : await this.options.client.get(configMapsResource, { namespace, name });
    } else if (parsed?.readNodesFrom === 'cluster') {
      clusterNodes = await this.nodesWithKey(parsed.grouping);
    }
    const problems = checkProviderSetup({
      namespace,
      configData,
      ...(templates !== undefined || parsed?.templatesConfigMap !== undefined ? { templatesData: dataOf(templates, PROVIDER_TEMPLATES_KEY) } : {}),
      ...(clusterNodes ? { clusterNodes } : {}),
    }).problems;
    const signature = problems.join('\n');
    if (this.reported.get(namespace) === signature) return problems;
    const hadProblems = (this.reported.get(namespace) ?? '') !== '';
    this.reported.set(namespace, signature);
    if (problems.length === 0) {
      if (hadProblems) logger.info(`kwok provider config ${namespace}/${PROVIDER_CONFIG_NAME}: problems fixed`);
      return problems;
    }
    for (const problem of problems) logger.warn(`cluster-autoscaler kwok provider (${namespace}): ${problem}`);
    const target = templates ?? config;
    await this.options.events.record(target, { type: 'Warning', reason: providerWarningReason, message: problems.join('; ').slice(0, 1000) });
    return problems;
  }
}
