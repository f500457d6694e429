/**
 * Keeps every controller's stage set current. Stages come from --config, or (with Stage in
 * --enable-crds) from watched Stage CRs, in which case any change rebuilds the catalog: node and pod
 * controllers get the new sets (and re-evaluate their objects), and a generic controller is started
 * for each other resourceRef that appears and stopped when its last Stage goes away.
 */
import type { Logger } from '../../util/log.js';
import { Reflector, stagesResource, type KubeClient, type ResourceRef } from '../../kube/index.js';
import type { ControllerMetrics } from './controller-metrics.js';
import type { EventRecorder } from './event-recorder.js';
import { emptyResourceStages, stageResourceKey } from './stage-engine.js';
import type { StageCatalog, StageCatalogFactory, StageResource } from './stage-engine.js';
import { StageController } from './stage-controller.js';

export const nodeStageResource: StageResource = { apiGroup: 'v1', kind: 'Node' };
export const podStageResource: StageResource = { apiGroup: 'v1', kind: 'Pod' };

export interface StagesManagerOptions {
  client: KubeClient;
  catalogFactory: StageCatalogFactory;
  /** The node and pod controllers, which always run (leases and IPs need them). */
  node: StageController;
  pod: StageController;
  events: EventRecorder;
  logger: Logger;
  metrics?: ControllerMetrics;
  /** kwok plays generic resources with one worker. */
  genericParallelism?: number;
  /** Send stage writes by the cheapest request with the same effect (write-routes.ts). Default true. */
  writeShortcuts?: boolean;
}

interface GenericController {
  controller: StageController;
  abort: AbortController;
  done: Promise<void>;
}

function isCoreKind(resource: StageResource, kind: string): boolean {
  return resource.apiGroup === 'v1' && resource.kind === kind;
}

export class StagesManager {
  private readonly generic = new Map<string, GenericController>();
  private readonly starting = new Set<string>();
  private signal: AbortSignal | undefined;
  private catalog: StageCatalog | undefined;

  constructor(private readonly options: StagesManagerOptions) {}

  /** Build a catalog, logging (and leaving out) Stage documents the engine rejects. */
  buildCatalog(documents: readonly unknown[], source: string): StageCatalog {
    const catalog = this.options.catalogFactory(documents, source);
    for (const problem of catalog.problems) this.options.logger.error(`${problem}; ignoring that stage`);
    return catalog;
  }

  /** Install a catalog: update node/pod stages, start or stop generic controllers. */
  apply(catalog: StageCatalog): void {
    this.catalog = catalog;
    const { node, pod } = this.options;
    const resources = catalog.resources();
    node.setStages(resources.some((r) => isCoreKind(r, 'Node')) ? catalog.forResource(nodeStageResource) : emptyResourceStages);
    pod.setStages(resources.some((r) => isCoreKind(r, 'Pod')) ? catalog.forResource(podStageResource) : emptyResourceStages);

    const wanted = new Map<string, StageResource>();
    for (const resource of resources) if (!isCoreKind(resource, 'Node') && !isCoreKind(resource, 'Pod')) wanted.set(stageResourceKey(resource), resource);
    for (const [key, running] of this.generic) {
      const resource = wanted.get(key);
      if (resource) running.controller.setStages(catalog.forResource(resource));
      else {
        running.abort.abort();
        this.generic.delete(key);
        this.options.logger.info(`stopped the controller for ${key}: no stages left`);
      }
    }
    if (this.signal) for (const [key, resource] of wanted) if (!this.generic.has(key)) void this.startGeneric(key, resource);
  }

  /** Start generic controllers for the current catalog, and watch Stage CRs when asked to. */
  async run(signal: AbortSignal, watchStageCrds: boolean): Promise<void> {
    this.signal = signal;
    if (this.catalog) this.apply(this.catalog);
    const tasks: Promise<unknown>[] = [];
    if (watchStageCrds) tasks.push(this.watchStages(signal));
    await Promise.all(tasks);
    await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
    await Promise.all([...this.generic.values()].map((g) => g.done));
  }

  private async watchStages(signal: AbortSignal): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const reflector: Reflector = new Reflector({
      client: this.options.client,
      ref: stagesResource,
      logger: this.options.logger,
      // Debounced: a kubectl apply of a whole stage file arrives as a burst of events.
      onEvent: () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          const documents = [...reflector.store.values()];
          this.options.logger.info(`stages changed: ${documents.length} Stage CRs`);
          this.apply(this.buildCatalog(documents, 'Stage CRs'));
        }, 200);
      },
    });
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
    await reflector.run(signal);
  }

  private async startGeneric(key: string, resource: StageResource): Promise<void> {
    if (this.starting.has(key) || !this.signal || this.signal.aborted) return;
    this.starting.add(key);
    const { client, logger } = this.options;
    let ref: ResourceRef;
    try {
      ref = await client.resolve(resource.apiGroup, resource.kind);
    } catch (error) {
      logger.error(`stages for ${key}: cannot resolve the resource: ${(error as Error).message}`);
      this.starting.delete(key);
      return;
    }
    this.starting.delete(key);
    const stages = this.catalog?.resources().some((r) => stageResourceKey(r) === key) ? this.catalog.forResource(resource) : undefined;
    if (!stages || this.generic.has(key) || this.signal.aborted) return;
    const controller = new StageController({
      client,
      ref,
      stages,
      parallelism: this.options.genericParallelism ?? 1,
      events: this.options.events,
      logger,
      ...(this.options.metrics ? { metrics: this.options.metrics } : {}),
      ...(this.options.writeShortcuts !== undefined ? { writeShortcuts: this.options.writeShortcuts } : {}),
      hooks: { shouldPlay: () => true, funcs: () => ({}) },
    });
    const abort = new AbortController();
    const stop = (): void => abort.abort();
    this.signal.addEventListener('abort', stop, { once: true });
    const done = controller.run(abort.signal).finally(() => this.signal?.removeEventListener('abort', stop));
    this.generic.set(key, { controller, abort, done });
    logger.info(`started the controller for ${key} (${ref.resource})`);
  }
}
