/**
 * Replay of a recording's changes through the API, each at its recorded moment (counted from the
 * start of the replay), in recorded order. The apiserver cannot be told everything etcd could
 * (kectl's replay writes etcd directly), so a recorded change is expressed as the requests that
 * have the same effect:
 *   - status changes go to the status subresource;
 *   - a pod's spec.nodeName being set is a binding (the field is immutable otherwise);
 *   - metadata.deletionTimestamp being set is a graceful delete with the recorded grace period;
 *   - a delete is final (grace period 0): the object was gone when it was recorded.
 * UIDs recorded in owner references are mapped to the UIDs of the objects replayed or restored.
 * A change that fails is logged and counted, and the replay goes on (as kwokctl's does).
 */
import { isNotFound, sleep, type KubeClient, type KubeObject, type ResourceRef } from '../kube/index.js';
import type { Logger } from '../util/log.js';
import { cleanForCreate } from './k8s-format.js';
import { inReplayOrder, type ResourcePatch } from './resource-patch.js';

export interface ReplayResult {
  applied: number;
  failed: number;
}

export interface ReplayOptions {
  client: KubeClient;
  patches: readonly ResourcePatch[];
  /** Recorded UID → UID in this cluster; filled in as objects are created. */
  uidMap: Map<string, string>;
  logger: Logger;
  signal: AbortSignal;
  /** Milliseconds since an arbitrary origin (tests pass a fake clock); performance.now by default. */
  now?: () => number;
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

type Doc = Record<string, unknown>;

export async function replay(options: ReplayOptions): Promise<ReplayResult> {
  const now = options.now ?? (() => performance.now());
  const wait = options.wait ?? ((ms, signal) => sleep(ms, signal));
  const origin = now();
  const result: ReplayResult = { applied: 0, failed: 0 };
  for (const patch of inReplayOrder(options.patches)) {
    options.signal.throwIfAborted();
    const due = origin + patch.durationNanosecond / 1e6;
    const ahead = due - now();
    if (ahead > 0) await wait(ahead, options.signal);
    const what = `${patch.method} ${patch.resource.resource} ${patch.target.namespace ? `${patch.target.namespace}/` : ''}${patch.target.name}`;
    try {
      await applyPatch(options.client, patch, options.uidMap);
      options.logger.debug(`replayed ${what}`);
      result.applied++;
    } catch (error) {
      if (options.signal.aborted) throw error;
      options.logger.warn(`replaying ${what} failed: ${(error as Error).message}`);
      result.failed++;
    }
  }
  return result;
}

async function applyPatch(client: KubeClient, patch: ResourcePatch, uidMap: Map<string, string>): Promise<void> {
  const { group, version, resource } = patch.resource;
  const ref = await client.resolve(group ? `${group}/${version}` : version, resource);
  const target = { name: patch.target.name, ...(ref.namespaced && patch.target.namespace ? { namespace: patch.target.namespace } : {}) };
  switch (patch.method) {
    case 'delete':
      await client.delete(ref, { ...target, gracePeriodSeconds: 0 });
      return;
    case 'create':
      await createObject(client, ref, target, patch.template as KubeObject, uidMap);
      return;
    case 'patch':
      await patchObject(client, ref, target, structuredClone(patch.template ?? {}), uidMap);
      return;
  }
}

async function createObject(client: KubeClient, ref: ResourceRef, target: { name: string; namespace?: string }, template: KubeObject, uidMap: Map<string, string>): Promise<void> {
  const body = cleanForCreate({ ...template, metadata: { ...template.metadata, ...target } }, uidMap);
  let created: KubeObject;
  try {
    created = await client.create(ref, body, target.namespace ? { namespace: target.namespace } : {});
  } catch (error) {
    // Already there (restored, or made by the apiserver itself): becomes what was recorded.
    const existing = await client.get(ref, target);
    if (!existing) throw error;
    const { metadata, status: _s, ...rest } = body;
    const { uid: _u, resourceVersion: _r, ...meta } = metadata;
    created = await client.patch(ref, { ...target, patchType: 'merge', body: { ...rest, metadata: meta } });
  }
  if (template.metadata.uid && created.metadata.uid) uidMap.set(template.metadata.uid, created.metadata.uid);
  if (isObject(template.status) && Object.keys(template.status).length > 0) await patchStatus(client, ref, target, { status: template.status }, 'merge');
}

async function patchObject(client: KubeClient, ref: ResourceRef, target: { name: string; namespace?: string }, body: Doc, uidMap: Map<string, string>): Promise<void> {
  const metadata = isObject(body.metadata) ? body.metadata : undefined;
  if (metadata) {
    for (const field of ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields', 'selfLink']) delete metadata[field];
    remapOwnerUids(metadata, uidMap);
    const deleting = typeof metadata.deletionTimestamp === 'string';
    const grace = metadata.deletionGracePeriodSeconds;
    delete metadata.deletionTimestamp;
    delete metadata.deletionGracePeriodSeconds;
    if (Object.keys(metadata).length === 0) delete body.metadata;
    if (deleting) await client.delete(ref, { ...target, ...(typeof grace === 'number' ? { gracePeriodSeconds: grace } : {}) });
  }
  const spec = isObject(body.spec) ? body.spec : undefined;
  if (ref.group === '' && ref.resource === 'pods' && spec && typeof spec.nodeName === 'string' && target.namespace) {
    await client.create(ref, { apiVersion: 'v1', kind: 'Binding', metadata: { name: target.name, namespace: target.namespace }, target: { apiVersion: 'v1', kind: 'Node', name: spec.nodeName } } as KubeObject, {
      namespace: target.namespace,
      subresource: 'binding',
    });
    delete spec.nodeName;
    if (Object.keys(spec).length === 0) delete body.spec;
  }
  const status = body.status;
  delete body.status;
  if (Object.keys(body).length > 0) await client.patch(ref, { ...target, patchType: 'strategic', body });
  if (status !== undefined) await patchStatus(client, ref, target, { status }, 'strategic');
}

/** Resources without a status subresource answer 404 to it: their status went with the main patch. */
async function patchStatus(client: KubeClient, ref: ResourceRef, target: { name: string; namespace?: string }, body: Doc, patchType: 'merge' | 'strategic'): Promise<void> {
  try {
    await client.patch(ref, { ...target, patchType, body, subresource: 'status' });
  } catch (error) {
    if (!isNotFound(error)) throw error;
    if (await client.get(ref, target)) await client.patch(ref, { ...target, patchType, body });
    else throw error;
  }
}

function remapOwnerUids(metadata: Doc, uidMap: ReadonlyMap<string, string>): void {
  for (const field of ['ownerReferences', '$setElementOrder/ownerReferences']) {
    const list = metadata[field];
    if (!Array.isArray(list)) continue;
    for (const item of list) if (isObject(item) && typeof item.uid === 'string' && uidMap.has(item.uid)) item.uid = uidMap.get(item.uid);
  }
}

function isObject(v: unknown): v is Doc {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
