/**
 * The Kubernetes API as the kwok controllers see it: plain JSON objects, a handful of verbs and a
 * watch stream. Kept as an interface so controllers run against an in-memory fake in unit tests and
 * against the HTTP implementation (http-client.ts) in production.
 */

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: unknown[];
}

/** Any Kubernetes object decoded from JSON; only metadata is typed because controllers are generic. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/** Where a kind lives in the REST API. group '' is the core group (/api/v1). */
export interface ResourceRef {
  group: string;
  version: string;
  /** Plural resource name used in URLs, e.g. "pods". */
  resource: string;
  kind: string;
  namespaced: boolean;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject;
  /** A DELETED event's object carries only its metadata (see WatchOptions.deletedMetadataOnly). */
  metadataOnly?: boolean;
}

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Page size; the continue token of the previous page goes in `continue`. */
  limit?: number;
  continue?: string;
}

export interface ListResult {
  items: KubeObject[];
  resourceVersion: string;
  continue?: string;
}

export interface WatchOptions extends ListOptions {
  resourceVersion: string;
  timeoutSeconds?: number;
  /**
   * The caller discards metadata.managedFields: a client may leave them out of the objects it
   * decodes where it can do so for less than decoding them (HttpKubeClient does for core objects).
   */
  dropManagedFields?: boolean;
  /**
   * The caller has each object's last state (a reflector's store) and needs only a DELETED
   * event's metadata: a client may then decode no more than that, and marks the event
   * metadataOnly. Only together with dropManagedFields.
   */
  deletedMetadataOnly?: boolean;
}

/** json = RFC 6902, merge = RFC 7386, strategic = Kubernetes strategic merge, apply = server-side apply. */
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export interface ObjectTarget {
  name: string;
  namespace?: string;
}

export interface PatchRequest extends ObjectTarget {
  patchType: PatchType;
  body: unknown;
  subresource?: string;
  /** Sent as the Impersonate-User header. */
  impersonate?: string;
  /** Server-side apply only. */
  fieldManager?: string;
  force?: boolean;
}

export interface CreateOptions {
  namespace?: string;
  subresource?: string;
  impersonate?: string;
  /** Ends the request (and its retries) with the signal's reason. */
  signal?: AbortSignal;
}

export interface DeleteRequest extends ObjectTarget {
  gracePeriodSeconds?: number;
  /** Ends the request (and its retries) with the signal's reason. */
  signal?: AbortSignal;
}

export interface KubeClient {
  list(ref: ResourceRef, options?: ListOptions, signal?: AbortSignal): Promise<ListResult>;
  /**
   * One watch request. The iterable ends when the server closes the stream; it throws a
   * KubeApiError with status 410 when the resourceVersion is too old (the caller relists).
   */
  watch(ref: ResourceRef, options: WatchOptions, signal: AbortSignal): AsyncIterable<WatchEvent>;
  /** undefined when the object does not exist. */
  get(ref: ResourceRef, target: ObjectTarget, signal?: AbortSignal): Promise<KubeObject | undefined>;
  create(ref: ResourceRef, object: KubeObject, options?: CreateOptions): Promise<KubeObject>;
  update(ref: ResourceRef, object: KubeObject): Promise<KubeObject>;
  patch(ref: ResourceRef, request: PatchRequest): Promise<KubeObject>;
  /**
   * patch() for a caller that never reads the patched object (a stage's last write): the
   * apiserver is asked for its metadata alone (PartialObjectMetadata) and the answer is not
   * decoded, which saves both sides the cost of a whole pod or node per write.
   */
  patchIgnoringAnswer(ref: ResourceRef, request: PatchRequest): Promise<void>;
  /** PUT of `object` (or of its `subresource`), asking only for metadata back and not reading it. */
  updateIgnoringAnswer(ref: ResourceRef, object: KubeObject, subresource?: string): Promise<void>;
  /** Resolves even if the object is already gone. */
  delete(ref: ResourceRef, request: DeleteRequest): Promise<void>;
  /** Map apiVersion ("v1", "apps/v1") and kind (or plural resource name) to a ResourceRef via discovery. */
  resolve(apiVersion: string, kind: string): Promise<ResourceRef>;
}
