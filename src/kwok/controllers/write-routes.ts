/**
 * The controller's write path: which request carries a stage's write. kwok sends every write as
 * the stage's own patch and decodes the answer; kwokts takes shortcuts with the same effect on
 * the stored object, which spare the apiserver most of its work per write:
 * - a status-only write whose answer nobody reads goes as a PUT of the status subresource;
 * - a strategic patch that a JSON merge patch equals goes as one, guarded by the resourceVersion;
 * - the stage's last write asks for metadata alone in its answer.
 * (Stage templates that kwokts ships are also rendered by TypeScript rather than the Go template
 * engine: src/kwok/engine/native-templates.ts.) `--write-shortcuts=false` turns all of these off,
 * to compare with kwok or to rule them out; test/e2e/write-shortcuts.e2e.ts checks that both ways
 * leave the same objects.
 */
import type { Logger } from '../../util/log.js';
import { apiVersionOf, isConflict, isRefused, type KubeClient, type KubeObject, type PatchRequest, type ResourceRef } from '../../kube/index.js';
import { isJsonObject, mergePatchShared, strategicMergeIsExact, strategicMergePatchShared, type JsonObject } from '../engine/index.js';

export interface WriteRoutes {
  /** Take the shortcuts above at all (--write-shortcuts). */
  shortcuts: boolean;
  /**
   * Status writes may go as a PUT (see sendStageWrite). Turned off for good when the apiserver
   * refuses it: a role that grants patch on pods/status but not update, as ours did before.
   */
  statusPut: boolean;
}

/** What a write needs of its stage run. */
export interface WriteContext {
  client: KubeClient;
  ref: ResourceRef;
  logger: Logger;
  routes?: WriteRoutes | undefined;
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

/**
 * The patched object, or undefined when nobody reads the answer (the stage's last write), which is
 * then asked for as metadata alone: a pod's whole object is most of the answer, for the apiserver
 * to encode and for us to parse.
 */
export async function sendPatch(context: WriteContext, request: PatchRequest, ignoreAnswer: boolean): Promise<KubeObject | undefined> {
  if (!ignoreAnswer || context.routes?.shortcuts === false) return context.client.patch(context.ref, request);
  await context.client.patchIgnoringAnswer(context.ref, request);
  return undefined;
}

/**
 * Sends a stage's patch by the cheapest route with the same effect; the patched object, or
 * undefined when `ignoreAnswer`. Without shortcuts, the stage's own patch, its answer decoded.
 *
 * A status-only write whose answer nobody reads goes as a PUT of the status subresource: the
 * status the patch would leave (statusAfterPatch), with the resourceVersion we saw and no spec.
 * kube-apiserver then skips encoding the current object and applying a patch to it, and stores
 * the same object, managedFields included (test/e2e/status-routes.e2e.ts). managedFields are left out of the body, as the cache
 * holds objects anyway: the apiserver keeps its own when a write carries none. A write whose
 * answer is read stays a patch, since a PUT's answer is the whole object too and gains nothing; an
 * impersonated one too, because the user it acts as may be allowed to patch and not to update.
 * When the object changed since we saw it (409), or the apiserver refuses the PUT (403: a role
 * granting patch alone), the stage's own patch goes instead; a refusal turns the PUT off for the
 * controller (WriteRoutes). Otherwise a strategic patch that a merge patch equals goes as one (see
 * sameAsMergePatch).
 */
export async function sendStageWrite(context: WriteContext, request: PatchRequest, current: KubeObject, ignoreAnswer: boolean): Promise<KubeObject | undefined> {
  if (context.routes?.shortcuts === false) return context.client.patch(context.ref, request);
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
