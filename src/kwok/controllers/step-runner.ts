/**
 * Executes the actions of one stage against the API, in order, following kwok's step rules
 * (inventory 5.6): events are always sent; once the object is deleted the remaining non-event
 * actions are skipped; finalizer edits go as a JSON patch on the object itself; patches may target a
 * subresource and be impersonated; patches that would not change the object are skipped; `apply`
 * creates the object or patches it if it already exists.
 */
import type { Logger } from '../../util/log.js';
import { apiVersionOf, isAlreadyExists, isConflict, isNotFound, isRefused, type KubeClient, type KubeObject, type PatchRequest, type ResourceRef } from '../../kube/index.js';
import type { EventRecorder } from './event-recorder.js';
import { isJsonObject, mergePatchShared, strategicMergeIsExact, strategicMergePatchShared, type JsonObject } from '../engine/index.js';
import type { ResourceStages, StageAction } from './stage-engine.js';

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
   * Shared by every stage run of one controller, so a refused route is tried once, not per
   * object. Without it each write may try the status PUT.
   */
  routes?: WriteRoutes;
}

export interface WriteRoutes {
  /**
   * Status writes may go as a PUT (see patchCheaply). Turned off for good when the apiserver
   * refuses it: a role that grants patch on pods/status but not update, as ours did before.
   */
  statusPut: boolean;
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
          const result = await patchCheaply(context, request, current, index === lastWrite);
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

/**
 * A strategic merge patch whose lists all land where the object has no list yet (a new pod's
 * conditions, container statuses and IPs; a new node's conditions and addresses) has the same
 * effect as a JSON merge patch, which the apiserver applies for less CPU (no conversion to and
 * from unstructured with schema lookups). It is sent as one, guarded by the resourceVersion we
 * saw, so a list someone added meanwhile is never replaced: on a conflict the strategic patch
 * goes as before.
 */
export function sameAsMergePatch(current: unknown, patch: unknown): boolean {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return true;
  const base = typeof current === 'object' && current !== null && !Array.isArray(current) ? (current as Record<string, unknown>) : undefined;
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (key.startsWith('$')) return false;
    const existing = base?.[key];
    if (Array.isArray(value)) {
      if (existing !== undefined && existing !== null && !(Array.isArray(existing) && existing.length === 0)) return false;
    } else if (typeof value === 'object' && value !== null) {
      if (!sameAsMergePatch(existing, value)) return false;
    }
  }
  return true;
}

/** The patched object, or undefined when the answer is ignored (the stage's last write). */
async function sendPatch(context: StepContext, request: PatchRequest, ignoreAnswer: boolean): Promise<KubeObject | undefined> {
  if (!ignoreAnswer) return context.client.patch(context.ref, request);
  await context.client.patchIgnoringAnswer(context.ref, request);
  return undefined;
}

/**
 * Sends the patch by the cheapest route with the same effect; the patched object, or undefined
 * when `ignoreAnswer`.
 *
 * A status-only write whose answer nobody reads goes as a PUT of the status subresource: the
 * status the patch would leave (statusAfterPatch), with the resourceVersion we saw and no spec. kube-apiserver
 * then skips encoding the current object and applying a patch to it, about a third of what a
 * pod's status patch costs it (profiled in #14), and stores the same object, managedFields
 * included (test/e2e/status-routes.e2e.ts). managedFields are left out of the body, as the cache
 * holds objects anyway: the apiserver keeps its own when a write carries none. A write whose
 * answer is read stays a patch, since a PUT's answer is the whole object too and gains nothing; an
 * impersonated one too, because the user it acts as may be allowed to patch and not to update.
 * When the object changed since we saw it (409), or the apiserver refuses the PUT (403: a role
 * granting patch alone), the stage's own patch goes instead; a refusal turns the PUT off for the
 * controller (WriteRoutes). Otherwise a strategic patch that a merge patch equals goes as one (see
 * sameAsMergePatch).
 */
async function patchCheaply(context: StepContext, request: PatchRequest, current: KubeObject, ignoreAnswer: boolean): Promise<KubeObject | undefined> {
  const send = (r: PatchRequest): Promise<KubeObject | undefined> => sendPatch(context, r, ignoreAnswer);
  const resourceVersion = current.metadata.resourceVersion;
  const body = request.body;
  if (request.patchType !== 'strategic' || !resourceVersion || !isJsonObject(body) || 'metadata' in body) return send(request);
  const statusOnly = ignoreAnswer && request.subresource === 'status' && !request.impersonate && Object.keys(body).length === 1 && 'status' in body;
  const asMerge = sameAsMergePatch(current, body);
  const status = statusOnly && context.routes?.statusPut !== false ? statusAfterPatch(context.ref, current, body, asMerge) : undefined;
  if (status !== undefined) {
    const { managedFields: _ignored, ...metadata } = current.metadata;
    // apiVersion and kind from the resource: objects that came in a list lack them, and a custom
    // resource's body is decoded by them. No spec: a status update takes the stored one (and its
    // field manager ignores it), and a pod's spec is most of the body to encode and decode.
    // Metadata stays whole, since labels and annotations are not among the fields it resets.
    const { spec: _spec, ...rest } = current;
    const updated: KubeObject = { ...rest, apiVersion: apiVersionOf(context.ref), kind: context.ref.kind, metadata, status };
    try {
      await context.client.updateIgnoringAnswer(context.ref, updated, 'status');
      return undefined;
    } catch (error) {
      if (isRefused(error) && context.routes?.statusPut) {
        context.routes.statusPut = false;
        context.logger.warn(`${context.ref.resource}/status: update refused (${(error as Error).message}); status writes go as patches from now on (grant update on ${context.ref.resource}/status to spare the apiserver the patching)`);
      }
      if (!isConflict(error) && !isRefused(error)) throw error;
      return send(request);
    }
  }
  if (!asMerge) return send(request);
  try {
    return await send({ ...request, patchType: 'merge', body: { ...body, metadata: { resourceVersion } } });
  } catch (error) {
    if (!isConflict(error)) throw error;
    return send(request);
  }
}

/**
 * The status a strategic patch `{status: ...}` leaves on `current`, when it can be computed here
 * exactly as kube-apiserver would: as a merge patch when the two agree (`asMerge`, any kind), or by our
 * strategic merge for a Pod or Node when that is sure to match (strategicMergeIsExact; a scheduled
 * pod's conditions, say). Otherwise undefined, and the patch goes to the apiserver.
 */
function statusAfterPatch(ref: ResourceRef, current: KubeObject, body: JsonObject, asMerge: boolean): unknown {
  if (asMerge) return mergePatchShared(current['status'], body['status']);
  const builtIn = ref.group === '' && (ref.resource === 'pods' || ref.resource === 'nodes');
  if (!builtIn || !strategicMergeIsExact(current, body)) return undefined;
  return (strategicMergePatchShared(current, body) as JsonObject)['status'];
}
