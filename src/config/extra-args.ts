import { COMPONENT_NAMES } from './component-names.js';
import { UsageError } from '../util/errors.js';
import type { ComponentPatch } from './load.js';

/**
 * `--extra-args component=key=value` (kwokctl's flag) as componentsPatches: the component gets
 * `--key=value` appended. kwokctl silently drops malformed entries; we refuse them, because a
 * flag that quietly does nothing costs users an afternoon. The value may itself contain `=`.
 */
export function parseExtraArgs(entries: readonly string[]): ComponentPatch[] {
  const patches = new Map<string, ComponentPatch>();
  for (const entry of entries) {
    const first = entry.indexOf('=');
    const second = first < 0 ? -1 : entry.indexOf('=', first + 1);
    if (first <= 0 || second < 0 || second === first + 1) {
      throw new UsageError(`invalid --extra-args ${JSON.stringify(entry)}`, { hint: 'use --extra-args COMPONENT=KEY=VALUE, e.g. --extra-args kube-apiserver=v=4' });
    }
    const component = entry.slice(0, first);
    const key = entry.slice(first + 1, second).replace(/^--?/, '');
    const value = entry.slice(second + 1);
    if (!(COMPONENT_NAMES as readonly string[]).includes(component)) {
      throw new UsageError(`--extra-args names unknown component ${JSON.stringify(component)}`, { hint: `one of: ${COMPONENT_NAMES.join(', ')}` });
    }
    if (key === '') throw new UsageError(`invalid --extra-args ${JSON.stringify(entry)}: the key is empty`, { hint: 'use --extra-args COMPONENT=KEY=VALUE' });
    const patch: ComponentPatch = patches.get(component) ?? { name: component, extraArgs: [], extraEnvs: [], extraVolumes: [] };
    patch.extraArgs.push({ key, value });
    patches.set(component, patch);
  }
  return [...patches.values()];
}
