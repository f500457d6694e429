/**
 * The one stage controller, used for nodes, pods and any other resource a Stage names. Kind-specific
 * behaviour (which objects are managed, template functions, IP and lease bookkeeping) comes in
 * through StageHooks; the watch, queue and play loop exist once.
 *
 * Flow per object:
 *   watch event -> hooks.observe -> hooks.shouldPlay -> same resourceVersion already queued? skip
 *   -> match a stage -> queue with the stage's delay, replacing the object's pending job
 *   -> a worker renders the steps and runs them -> immediateNextStage re-feeds the patched object.
 */
import { LogLevel } from '../../util/log.js';
import type { Logger } from '../../util/log.js';
import { Reflector, type ObjectEventType, objectKey, type KubeClient, type KubeObject, type ListOptions, type ResourceRef } from '../../kube/index.js';
import { systemClock } from './clock.js';
import type { Clock } from './clock.js';
import { noopMetrics } from './controller-metrics.js';
import type { ControllerMetrics } from './controller-metrics.js';
import { DelayQueue } from './delay-queue.js';
import type { EventRecorder } from './event-recorder.js';
import type { FuncMap, ResourceStages, StageMatch } from './stage-engine.js';
import { playRetryDelayMs } from './play-backoff.js';
import { runStageActions, StageActionError, type WriteRoutes } from './step-runner.js';

export interface StageHooks {
  /** Sees every event first, DELETED included (IP pools, node sets, indexes). */
  observe?(type: ObjectEventType, object: KubeObject): void;
  /** Whether stages may be played for this object now (managed, not read-only, not disregarded). */
  shouldPlay(object: KubeObject): boolean;
  /** Template functions for this object's stages. */
  funcs(object: KubeObject): FuncMap;
}

export interface StageControllerOptions {
  client: KubeClient;
  ref: ResourceRef;
  selectors?: Pick<ListOptions, 'namespace' | 'labelSelector' | 'fieldSelector'>;
  stages: ResourceStages;
  hooks: StageHooks;
  /** Concurrent stage plays (kwok's *PlayStageParallelism). */
  parallelism: number;
  events: EventRecorder;
  logger: Logger;
  metrics?: ControllerMetrics;
  clock?: Clock;
  gracePeriodSeconds?: number;
  /** Send writes by the cheapest request with the same effect (./write-routes.ts). Default true. */
  writeShortcuts?: boolean;
}

interface StageJob {
  object: KubeObject;
  match: StageMatch;
  /** The stage set that produced the match; stages can be swapped while a job waits. */
  stages: ResourceStages;
  /** Set on a retry of a failed play: how many plays failed, and the action to resume at. */
  retry?: { attempt: number; from: number };
}

export class StageController {
  readonly reflector: Reflector;
  private stages: ResourceStages;
  private readonly queue: DelayQueue<StageJob>;
  /** Keys a worker is playing now; a second job for the same key waits in `deferred`. */
  private readonly running = new Set<string>();
  private readonly deferred = new Map<string, StageJob>();
  private readonly routes: WriteRoutes;
  private readonly hooks: StageHooks;
  private readonly logger: Logger;
  private readonly metrics: ControllerMetrics;

  constructor(private readonly options: StageControllerOptions) {
    if (!Number.isInteger(options.parallelism) || options.parallelism < 1) throw new Error(`${options.ref.kind} controller: parallelism must be at least 1`);
    this.stages = options.stages;
    this.hooks = options.hooks;
    this.logger = options.logger;
    this.metrics = options.metrics ?? noopMetrics;
    const shortcuts = options.writeShortcuts ?? true;
    this.routes = { shortcuts, statusPut: shortcuts };
    this.queue = new DelayQueue<StageJob>(options.clock ?? systemClock);
    this.reflector = new Reflector({
      client: options.client,
      ref: options.ref,
      ...(options.selectors ? { selectors: options.selectors } : {}),
      logger: options.logger,
      onEvent: (type, object) => this.handle(type, object),
    });
  }

  get kind(): string {
    return this.options.ref.kind;
  }

  /** Jobs waiting for their delay or a worker. */
  get queueDepth(): number {
    return this.queue.size + this.deferred.size;
  }

  /** The latest copy of an object from the watch cache. */
  lookup(key: string): KubeObject | undefined {
    return this.reflector.store.get(key);
  }

  /** Swap the stage set (Stage CRs changed) and re-evaluate every known object against it. */
  setStages(stages: ResourceStages): void {
    this.stages = stages;
    this.resyncAll();
  }

  /** Re-feed the cached object for `key`, e.g. when its node became managed. */
  resync(key: string): void {
    const object = this.reflector.store.get(key);
    if (object) this.handle('MODIFIED', object);
  }

  resyncAll(): void {
    for (const object of [...this.reflector.store.values()]) this.handle('MODIFIED', object);
  }

  /** Entry point for watch events, resyncs and immediateNextStage. */
  handle(type: ObjectEventType, object: KubeObject): void {
    const key = objectKey(object);
    if (type === 'DELETED') {
      this.queue.cancel(key);
      this.deferred.delete(key);
      this.hooks.observe?.(type, object);
      return;
    }
    this.hooks.observe?.(type, object);
    if (!this.hooks.shouldPlay(object)) {
      this.queue.cancel(key);
      return;
    }
    // Same object version already queued against the current stages: nothing new to decide.
    const pending = this.queue.get(key) ?? this.deferred.get(key);
    if (pending && pending.stages === this.stages && pending.object.metadata.resourceVersion === object.metadata.resourceVersion) return;

    const stages = this.stages;
    let match: StageMatch | undefined;
    try {
      match = stages.match(object);
    } catch (error) {
      this.logger.error(`${this.kind} ${key}: matching stages: ${(error as Error).message}`);
      return;
    }
    if (!match) {
      // The object changed so that no stage applies any more; its old job must not run.
      this.queue.cancel(key);
      return;
    }
    this.queue.add(key, { object, match, stages }, match.delayMs);
  }

  /** Runs the watch and the workers until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    signal.addEventListener('abort', () => this.queue.close(), { once: true });
    const workers = Array.from({ length: this.options.parallelism }, () => this.work(signal));
    await Promise.all([this.reflector.run(signal), ...workers]);
  }

  waitForSync(): Promise<void> {
    return this.reflector.waitForSync();
  }

  private async work(signal: AbortSignal): Promise<void> {
    for (;;) {
      const job = await this.queue.take(signal);
      if (!job) return;
      if (this.running.has(job.key)) {
        this.deferred.set(job.key, job.item);
        continue;
      }
      this.running.add(job.key);
      try {
        await this.play(job.key, job.item);
      } finally {
        this.running.delete(job.key);
        const next = this.deferred.get(job.key);
        if (next) {
          this.deferred.delete(job.key);
          // Its delay has already elapsed; a newer queued job for the key wins.
          if (this.queue.get(job.key) === undefined) this.queue.add(job.key, next, 0);
        }
      }
    }
  }

  private async play(key: string, job: StageJob): Promise<void> {
    const { object, match, stages } = job;
    const stageName = match.stage.name;
    const started = performance.now();
    const seconds = (): number => (performance.now() - started) / 1000;
    if (!this.hooks.shouldPlay(object)) return;

    let actions;
    try {
      actions = stages.planActions(match, object, this.hooks.funcs(object));
    } catch (error) {
      this.logger.error(`${this.kind} ${key}: stage ${stageName}: ${(error as Error).message}`);
      this.metrics.stagePlayed(this.kind, stageName, 'error', seconds());
      return;
    }
    try {
      const context = {
        client: this.options.client,
        ref: this.options.ref,
        stages,
        events: this.options.events,
        logger: this.logger,
        gracePeriodSeconds: this.options.gracePeriodSeconds ?? 0,
        needLatest: match.stage.immediateNextStage === true,
        routes: this.routes,
      };
      const outcome = await runStageActions(actions, object, context, job.retry?.from ?? 0);
      this.metrics.stagePlayed(this.kind, stageName, outcome.writes > 0 ? 'success' : 'skipped', seconds());
      if (this.logger.level <= LogLevel.DEBUG) this.logger.debug(`${this.kind} ${key}: played stage ${stageName}${outcome.writes === 0 ? ' (no change)' : ''}${outcome.deleted ? ', deleted' : ''}`);
      if (match.stage.immediateNextStage && outcome.latest && !outcome.deleted) this.handle('MODIFIED', outcome.latest);
    } catch (error) {
      this.metrics.stagePlayed(this.kind, stageName, 'error', seconds());
      this.retryLater(key, job, error);
    }
  }

  /**
   * A play whose write failed is played again after a backoff, from the action that failed, as
   * kwok does for the errors it deems passing. Here every failed write is retried: one the
   * apiserver refused (a 422, say) may pass once the object or the stages change, and a
   * heartbeat dropped for good leaves a node's status stale for the rest of the run. A newer
   * version of the object, which queues a fresh job, supersedes the retry.
   */
  private retryLater(key: string, job: StageJob, error: unknown): void {
    const attempt = job.retry?.attempt ?? 0;
    const newer = this.queue.get(key) !== undefined || this.deferred.has(key);
    const delayMs = playRetryDelayMs(attempt);
    const retrying = !newer && error instanceof StageActionError;
    this.logger.error(
      `${this.kind} ${key}: stage ${job.match.stage.name}: ${(error as Error).message}` +
        (retrying ? `; retrying in ${(delayMs / 1000).toFixed(1)}s (attempt ${attempt + 2})` : newer ? '; a newer version of the object is queued' : ''),
    );
    if (!retrying) return;
    this.metrics.stageRetried?.(this.kind, job.match.stage.name);
    this.queue.add(key, { ...job, retry: { attempt: attempt + 1, from: error.index } }, delayMs);
  }
}
