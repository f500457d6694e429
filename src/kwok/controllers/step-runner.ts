/**
 * Executes the actions of one stage against the API, in order, following kwok's step rules:
 * events are always sent; once the object is deleted the remaining non-event
 * actions are skipped; finalizer edits go as a JSON patch on the object itself; patches may target a
 * subresource and be impersonated; patches that would not change the object are skipped; `apply`
 * creates the object or patches it if it already exists.
 */
import type { Logger } from '../../util/log.js';
import { isAlreadyExists, isNotFound, type KubeClient, type KubeObject, type ResourceRef } from '../../kube/index.js';
import type { EventRecorder } from './event-recorder.js';
import type { ResourceStages, StageAction } from './stage-engine.js';
import { sendPatch, sendStageWrite, type WriteRoutes } from './write-routes.js';

export type { WriteRoutes } from './write-routes.js';

export interface StepContext {
  client: KubeClient;
  ref: ResourceRef;
  stages: ResourceStages;
  events: EventRecorder;
  logger: Logger;
  /** Delete grace period; kwok deletes with 0 so objects vanish at once. */
  gracePeriodSeconds: number;
  /**
   * The caller needs the object as the last patch left it (immediateNextStage matches the next
   * stage against it). Without that, the stage's last write asks only for metadata back.
   */
  needLatest?: boolean;
  /**
   * Which requests carry the writes (./write-routes.ts); shared by every stage run of one
   * controller, so a refused route is tried once, not per object. Without it every shortcut may
   * be taken.
   */
  routes?: WriteRoutes;
}

export interface StepOutcome {
  /** The newest object returned by a patch of the object itself, for immediateNextStage. */
  latest: KubeObject | undefined;
  deleted: boolean;
  /** Requests actually sent (patches, deletes, applies); 0 means the stage was a no-op. */
  writes: number;
  /** The object disappeared under us (404): not an error, the Deleted event follows. */
  gone: boolean;
}

/** An action of a stage failed; a retry resumes at `index` (kwok's remaining step index). */
export class StageActionError extends Error {
  constructor(
    readonly index: number,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/** Runs `actions` from index `from` (a retry's resume point); an action that fails throws StageActionError. */
export async function runStageActions(actions: readonly StageAction[], object: KubeObject, context: StepContext, from = 0): Promise<StepOutcome> {
  const outcome: StepOutcome = { latest: undefined, deleted: false, writes: 0, gone: false };
  const target = { name: object.metadata.name ?? '', ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}) };
  let current = object;
  // Nothing reads what the last write returns unless the caller wants the latest object: that
  // write's answer is asked as metadata alone and not decoded (a pod's status patch answer is
  // most of the pod, for the apiserver to encode and for us to parse). After that write the
  // object is newer than any answer kept so far, so no latest object is reported.
  const lastWrite = context.needLatest ? -1 : actions.findLastIndex((a) => a.kind !== 'event');
  for (const [index, action] of actions.entries()) {
    if (index < from) continue;
    if (action.kind === 'event') {
      await context.events.record(object, action);
      continue;
    }
    if (outcome.deleted || outcome.gone) continue;
    try {
      switch (action.kind) {
        case 'finalizers': {
          if (action.patch.length === 0) break;
          const result = await sendPatch(context, { ...target, patchType: 'json', body: action.patch }, index === lastWrite);
          outcome.latest = result;
          if (result) current = result;
          outcome.writes++;
          break;
        }
        case 'delete': {
          await context.client.delete(context.ref, { ...target, gracePeriodSeconds: context.gracePeriodSeconds });
          outcome.deleted = true;
          outcome.writes++;
          break;
        }
        case 'patch': {
          if (!context.stages.patchChangesObject(current, action)) break;
          const request = {
            ...target,
            patchType: action.patchType,
            body: action.body,
            ...(action.subresource ? { subresource: action.subresource } : {}),
            ...(action.impersonation ? { impersonate: action.impersonation } : {}),
          };
          const result = await sendStageWrite(context, request, current, index === lastWrite);
          outcome.latest = result;
          if (result) current = result;
          outcome.writes++;
          break;
        }
        case 'apply': {
          await applyObject(action, object, context);
          outcome.writes++;
          break;
        }
      }
    } catch (error) {
      if (isNotFound(error) && action.kind !== 'apply') {
        context.logger.debug(`${context.ref.kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name} is gone; skipping the rest of the stage`);
        outcome.gone = true;
        continue;
      }
      throw new StageActionError(index, error);
    }
  }
  return outcome;
}

async function applyObject(action: Extract<StageAction, { kind: 'apply' }>, source: KubeObject, context: StepContext): Promise<void> {
  const object = structuredClone(action.object) as KubeObject;
  object.metadata ??= {};
  const apiVersion = object.apiVersion;
  const kind = object.kind;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !apiVersion || !kind) {
    throw new Error(`apply: rendered object has no apiVersion/kind`);
  }
  const ref = await context.client.resolve(apiVersion, kind);
  if (ref.namespaced && !object.metadata.namespace && source.metadata.namespace) object.metadata.namespace = source.metadata.namespace;
  const name = object.metadata.name;
  if (!name) throw new Error(`apply: rendered ${kind} has no metadata.name`);
  const target = { name, ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}) };
  const impersonate = action.impersonation ? { impersonate: action.impersonation } : {};
  if (action.subresource) {
    await context.client.patch(ref, { ...target, patchType: action.applyType, body: object, subresource: action.subresource, ...impersonate });
    return;
  }
  if (action.applyType === 'apply') {
    // Server-side apply creates the object when it is missing, so one request covers both cases.
    await context.client.patch(ref, { ...target, patchType: 'apply', body: object, ...impersonate });
    return;
  }
  try {
    await context.client.create(ref, object, impersonate);
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
    await context.client.patch(ref, { ...target, patchType: action.applyType, body: object, ...impersonate });
  }
}
