/**
 * The start order of a cluster's components, in a module of its own: the binary runtime's stop (a
 * `delete cluster`) needs it, and index.ts would load every component builder with it (and through
 * Prometheus' config the yaml package), which a delete has no use for.
 */
import { UsageError } from '../util/errors.js';
import type { Component, ComponentName } from './component.js';

/** Groups that can start together, each after the previous; a link to a disabled component is ignored. */
export function startGroups(components: readonly Component[]): Component[][] {
  const present = new Set(components.map((c) => c.name));
  const done = new Set<ComponentName>();
  const groups: Component[][] = [];
  let rest = [...components];
  while (rest.length > 0) {
    const ready = rest.filter((c) => c.links.every((l) => !present.has(l) || done.has(l)));
    if (ready.length === 0) throw new UsageError(`components have circular links: ${rest.map((c) => c.name).join(', ')}`);
    groups.push(ready);
    for (const c of ready) done.add(c.name);
    rest = rest.filter((c) => !ready.includes(c));
  }
  return groups;
}
