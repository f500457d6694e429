/**
 * What running a stage's steps asks the API to do, as plain descriptors (the engine never calls
 * the API). The controller executes them in order; `stage test` prints them.
 */
import type { JsonPatchOp } from './json-patch.js';

export type { JsonPatchOp };

export type PatchType = 'json' | 'merge' | 'strategic';
export type ApplyType = 'apply' | 'merge' | 'strategic';

export type StageAction =
  /** Record a Kubernetes Event on the object (source component kwok_controller). */
  | { kind: 'event'; type: string; reason: string; message: string }
  /** A JSON Patch on metadata.finalizers (application/json-patch+json); never empty. */
  | { kind: 'finalizers'; patch: JsonPatchOp[] }
  /** Delete the object (pods and nodes with grace period 0). */
  | { kind: 'delete' }
  /** Patch the object (or `subresource`), optionally impersonating a user. */
  | { kind: 'patch'; patchType: PatchType; subresource?: string; body: unknown; impersonation?: string }
  /**
   * Create `object` (or, if it exists, patch it with applyType; 'apply' = server-side apply with
   * field manager "kwok", force). With a subresource: patch that subresource of the existing
   * object. A namespaced object without metadata.namespace goes to the source object's namespace.
   */
  | { kind: 'apply'; applyType: ApplyType; subresource?: string; object: Record<string, unknown>; impersonation?: string };

/** Content-Type of each patch flavour (also what kwok's stage test harness prints). */
export const PATCH_MEDIA_TYPES = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const satisfies Record<PatchType | ApplyType, string>;
