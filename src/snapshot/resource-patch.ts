/**
 * A recording is a k8s snapshot (the objects as they were when recording began) followed by one
 * ResourcePatch document per change seen afterwards: kwokctl's `action.kwok.x-k8s.io/v1alpha1`
 * kind, so kwokctl/kectl and kwokts read each other's recordings.
 *
 *   create: `template` is the whole new object;
 *   patch:  `template` is a strategic merge patch from the previous state to the new one;
 *   delete: no template.
 * `durationNanosecond` is when the change was seen, counted from the start of recording.
 */
import type { KubeObject } from '../kube/index.js';

export const RESOURCE_PATCH_API_VERSION = 'action.kwok.x-k8s.io/v1alpha1';
export const RESOURCE_PATCH_KIND = 'ResourcePatch';

export type PatchMethod = 'create' | 'patch' | 'delete';

export interface ResourcePatch {
  apiVersion: typeof RESOURCE_PATCH_API_VERSION;
  kind: typeof RESOURCE_PATCH_KIND;
  resource: { group?: string; version: string; resource: string };
  target: { name: string; namespace?: string };
  durationNanosecond: number;
  method: PatchMethod;
  template?: Record<string, unknown>;
}

export function isResourcePatch(doc: unknown): doc is ResourcePatch {
  const d = doc as Partial<ResourcePatch> | null;
  return !!d && d.kind === RESOURCE_PATCH_KIND && d.apiVersion === RESOURCE_PATCH_API_VERSION;
}

/** A readable reason a ResourcePatch cannot be replayed, or undefined when it can. */
export function resourcePatchProblem(p: ResourcePatch): string | undefined {
  if (!p.resource || typeof p.resource.resource !== 'string' || typeof p.resource.version !== 'string') return 'resource.version and resource.resource are required';
  if (!p.target || typeof p.target.name !== 'string' || p.target.name === '') return 'target.name is required';
  if (!['create', 'patch', 'delete'].includes(p.method)) return `method must be create, patch or delete (got ${JSON.stringify(p.method)})`;
  if (typeof p.durationNanosecond !== 'number' || !Number.isFinite(p.durationNanosecond)) return 'durationNanosecond must be a number';
  if (p.method !== 'delete' && (typeof p.template !== 'object' || p.template === null)) return `a ${p.method} needs a template`;
  return undefined;
}

export interface Recording {
  objects: KubeObject[];
  /** In file order; kwokctl sorts them by duration, and so does the replay. */
  patches: ResourcePatch[];
}

/**
 * The objects part ends at the first ResourcePatch (as kwokctl's restore stops there); documents
 * after it that are not ResourcePatches are reported by index (1-based) so the caller can refuse.
 */
export function splitRecording(docs: readonly unknown[]): Recording & { strays: number[] } {
  const first = docs.findIndex(isResourcePatch);
  const objects = (first < 0 ? docs : docs.slice(0, first)) as KubeObject[];
  const patches: ResourcePatch[] = [];
  const strays: number[] = [];
  if (first >= 0) {
    for (let i = first; i < docs.length; i++) {
      const d = docs[i];
      if (isResourcePatch(d)) patches.push(d);
      else strays.push(i + 1);
    }
  }
  return { objects, patches, strays };
}

/** Stable by duration: changes seen at the same moment keep their file order. */
export function inReplayOrder(patches: readonly ResourcePatch[]): ResourcePatch[] {
  return patches.map((p, i) => ({ p, i })).sort((a, b) => a.p.durationNanosecond - b.p.durationNanosecond || a.i - b.i).map(({ p }) => p);
}
