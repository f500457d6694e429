/**
 * List+watch that never gives up: lists (paged), then watches from the list's resourceVersion,
 * resumes from the last seen resourceVersion when the stream ends or breaks, relists on 410 Gone and
 * backs off on errors. client-node's informer stops at the first error, which would silently freeze
 * the controller when the apiserver restarts.
 *
 * It keeps a store of the latest objects so a relist can turn into the right ADDED/MODIFIED/DELETED
 * events, and so controllers can resync (re-feed) objects without another API call.
 */
import type { Logger } from '../../util/log.js';
import { isGone } from './api-error.js';
import { objectKey } from './resources.js';
import { backoffDelay, sleep } from './retry.js';
import type { BackoffOptions } from './retry.js';
import type { KubeClient, KubeObject, ListOptions, ResourceRef } from './types.js';

export type ObjectEventType = 'ADDED' | 'MODIFIED' | 'DELETED';
export type ObjectEventHandler = (type: ObjectEventType, object: KubeObject) => void;

export interface ReflectorOptions {
  client: KubeClient;
  ref: ResourceRef;
  selectors?: Pick<ListOptions, 'namespace' | 'labelSelector' | 'fieldSelector'>;
  onEvent: ObjectEventHandler;
  logger: Logger;
  pageSize?: number;
  backoff?: BackoffOptions;
  /** Server-side watch timeout range in seconds (client-go picks 5–10 minutes at random). */
  watchTimeoutSeconds?: [number, number];
  /**
   * Keep metadata.managedFields on cached objects. Off by default: they are a third or more of
   * a busy pod's size, no stage reads them, and a cache of 10,000 pods is the controller's
   * largest memory cost (client-go users strip them with an informer transform for the same reason).
   */
  keepManagedFields?: boolean;
  /**
   * Slims each object before it is stored and handed on (it must keep metadata.name, namespace and
   * resourceVersion): watchers of 100,000 objects that only count them need not keep them whole.
   */
  transform?: (object: KubeObject) => KubeObject;
}

const reconnectBackoff: BackoffOptions = { baseMs: 1000, factor: 2, jitter: 0.2, capMs: 30_000 };

export class Reflector {
  readonly store = new Map<string, KubeObject>();
  private syncedResolve!: () => void;
  private readonly syncedPromise = new Promise<void>((resolve) => (this.syncedResolve = resolve));
  private synced = false;

  constructor(private readonly options: ReflectorOptions) {}

  get hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves once the first list has been delivered as events. */
  waitForSync(): Promise<void> {
    return this.syncedPromise;
  }

  /** Runs until `signal` aborts. Never throws for API errors; they are logged and retried. */
  async run(signal: AbortSignal): Promise<void> {
    const { client, ref, logger } = this.options;
    const [minTimeout, maxTimeout] = this.options.watchTimeoutSeconds ?? [300, 600];
    let resourceVersion = '';
    let failures = 0;
    while (!signal.aborted) {
      try {
        if (resourceVersion === '') {
          resourceVersion = await this.relist(signal);
          if (!this.synced) {
            this.synced = true;
            this.syncedResolve();
          }
        }
        const timeoutSeconds = Math.floor(minTimeout + Math.random() * (maxTimeout - minTimeout));
        const dropManagedFields = !this.options.keepManagedFields;
        const watchOptions = { ...this.options.selectors, resourceVersion, timeoutSeconds, dropManagedFields, deletedMetadataOnly: dropManagedFields };
        for await (const event of client.watch(ref, watchOptions, signal)) {
          failures = 0;
          resourceVersion = event.object.metadata.resourceVersion ?? resourceVersion;
          if (event.type !== 'BOOKMARK') this.apply(event.type, event.metadataOnly ? this.withLastState(event.object) : event.object);
        }
      } catch (error) {
        if (signal.aborted) break;
        if (isGone(error)) {
          logger.debug(`watch ${ref.resource}: resourceVersion ${resourceVersion} expired, relisting`);
          resourceVersion = '';
          continue;
        }
        const delay = backoffDelay(failures++, this.options.backoff ?? reconnectBackoff);
        logger.warn(`watch ${ref.resource}: ${(error as Error).message}; retrying in ${Math.round(delay)} ms`);
        await sleep(delay, signal).catch(() => undefined);
      }
    }
  }

  /** Lists every page and reconciles the store, emitting the differences. Returns the list's resourceVersion. */
  private async relist(signal: AbortSignal): Promise<string> {
    const { client, ref } = this.options;
    const pageSize = this.options.pageSize ?? 500;
    const items: KubeObject[] = [];
    let resourceVersion = '';
    let token: string | undefined;
    do {
      const page = await client.list(ref, { ...this.options.selectors, limit: pageSize, ...(token ? { continue: token } : {}) }, signal);
      if (resourceVersion === '') resourceVersion = page.resourceVersion;
      items.push(...page.items);
      token = page.continue;
    } while (token);

    // Deletions first, then additions: after an etcd restore the listed objects may hold what the
    // deleted ones held (a pod IP, a node name), and must find it released. An object whose UID
    // changed is another object under the same name: the old one is deleted, the new one added.
    const listed = new Map(items.map((item) => [objectKey(item), item]));
    for (const [key, old] of [...this.store]) {
      const item = listed.get(key);
      if (!item || (item.metadata.uid !== undefined && old.metadata.uid !== undefined && item.metadata.uid !== old.metadata.uid)) this.apply('DELETED', old);
    }
    for (const [key, item] of listed) {
      const old = this.store.get(key);
      if (!old) this.apply('ADDED', item);
      else if (old.metadata.resourceVersion !== item.metadata.resourceVersion) this.apply('MODIFIED', item);
    }
    return resourceVersion;
  }

  /**
   * A DELETED event decoded as metadata only, made whole again: its metadata (the deletion's
   * resourceVersion) with the rest of the object as last seen, which is what the apiserver sent:
   * a watch delivers every change before the delete. An object never seen stays metadata only.
   */
  private withLastState(deleted: KubeObject): KubeObject {
    const last = this.store.get(objectKey(deleted));
    return last ? { ...last, metadata: deleted.metadata } : deleted;
  }

  private apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', received: KubeObject): void {
    let object = received;
    // Objects are freshly decoded from the wire, so trimming them in place is safe.
    if (!this.options.keepManagedFields) delete object.metadata.managedFields;
    if (this.options.transform) object = this.options.transform(object);
    const key = objectKey(object);
    if (type === 'DELETED') this.store.delete(key);
    else this.store.set(key, object);
    try {
      this.options.onEvent(type, object);
    } catch (error) {
      this.options.logger.error(`handling ${type} ${this.options.ref.kind} ${key}: ${(error as Error).stack ?? String(error)}`);
    }
  }
}
