/** What a scale to N replicas does, given the objects that carry our label. */
export interface ExistingObject {
  name: string;
  creationTimestamp?: string;
}

export interface ScalePlan {
  /** Indices to create: the lowest ones not taken. */
  create: number[];
  /** Names to delete: the newest first (by creation time, then name), as kwokctl. */
  delete: string[];
}

/** `terminating`: names still taken by copies being deleted; they do not count, nor are they reused. */
export function planScale(existing: readonly ExistingObject[], replicas: number, nameOf: (index: number) => string, terminating: ReadonlySet<string> = new Set()): ScalePlan {
  if (existing.length > replicas) {
    const newestFirst = [...existing].sort((a, b) => (b.creationTimestamp ?? '').localeCompare(a.creationTimestamp ?? '') || b.name.localeCompare(a.name));
    return { create: [], delete: newestFirst.slice(0, existing.length - replicas).map((o) => o.name) };
  }
  const taken = new Set([...existing.map((o) => o.name), ...terminating]);
  const create: number[] = [];
  for (let i = 0; create.length < replicas - existing.length; i++) if (!taken.has(nameOf(i))) create.push(i);
  return { create, delete: [] };
}
