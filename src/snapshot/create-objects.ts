/**
 * The k8s-format restore's creates: every object of the snapshot made again through the API, in
 * owner-first waves, owner references re-linked to the new UIDs. One already there is kept as it
 * is (the default namespace, the kubernetes service, ...) and linked to in its place.
 */
import pLimit from 'p-limit';
import { isAlreadyExists, type KubeClient, type KubeObject, type ResourceRef } from '../kube/index.js';
import { OperationError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { cleanForCreate, restoreWaves } from './k8s-format.js';

export interface CreateCounts {
  created: number;
  existed: number;
}

export interface CreateObjectsOptions {
  logger: Logger;
  signal: AbortSignal;
  /** Requests in flight at once. */
  concurrency?: number;
}

/**
 * How often one object is created again when the apiserver says it exists and then that it does
 * not: each time, something deleted it between the two answers (the kubelet deleting the mirror
 * pod of a static pod the restore has just paused did, in one CI run). A deletion is over once;
 * an object that keeps coming and going is something else, and reported.
 */
const CREATE_ATTEMPTS = 3;

/** Creates `objects`, filling `uidMap` (snapshot UID → the cluster's UID) as owners are made. */
export async function createObjects(client: KubeClient, objects: readonly KubeObject[], uidMap: Map<string, string>, options: CreateObjectsOptions): Promise<CreateCounts> {
  const counts: CreateCounts = { created: 0, existed: 0 };
  const refs = new Map<string, Promise<ResourceRef>>();
  const refOf = (o: KubeObject): Promise<ResourceRef> => {
    const key = `${o.apiVersion}/${o.kind}`;
    let ref = refs.get(key);
    if (!ref) refs.set(key, (ref = client.resolve(o.apiVersion!, o.kind!)));
    return ref;
  };
  const createOne = async (o: KubeObject): Promise<void> => {
    const ref = await refOf(o);
    const where = ref.namespaced && o.metadata.namespace ? { namespace: o.metadata.namespace } : {};
    const body = cleanForCreate(o, uidMap);
    for (let attempt = 1; ; attempt++) {
      options.signal.throwIfAborted();
      try {
        const created = await client.create(ref, body, { ...where, signal: options.signal });
        if (o.metadata.uid && created.metadata.uid) uidMap.set(o.metadata.uid, created.metadata.uid);
        counts.created++;
        return;
      } catch (error) {
        // The apiserver does not always say AlreadyExists (a Service whose IP is taken is
        // "Invalid"), so ask whether the object is there.
        const existing = await client.get(ref, { name: o.metadata.name!, ...where }, options.signal);
        if (existing) {
          if (!isAlreadyExists(error)) options.logger.debug(`${o.kind} ${o.metadata.name} exists already (${(error as Error).message})`);
          if (o.metadata.uid && existing.metadata.uid) uidMap.set(o.metadata.uid, existing.metadata.uid);
          counts.existed++;
          return;
        }
        if (!isAlreadyExists(error) || attempt >= CREATE_ATTEMPTS) {
          throw new OperationError(`restoring ${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name} failed: ${(error as Error).message}`, { cause: error });
        }
        options.logger.debug(`${o.kind} ${o.metadata.name} existed and is gone (deleted meanwhile): created again`);
      }
    }
  };
  const limit = pLimit(options.concurrency ?? 16);
  for (const wave of restoreWaves(objects)) {
    // Namespaces before what lives in them.
    await Promise.all(wave.filter((o) => o.kind === 'Namespace').map((o) => limit(() => createOne(o))));
    await Promise.all(wave.filter((o) => o.kind !== 'Namespace').map((o) => limit(() => createOne(o))));
  }
  return counts;
}
