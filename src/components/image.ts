import type { ClusterSpec, Component } from './component.js';

/** The component's image, when the cluster has images (container runtimes). */
export function imageOf(spec: ClusterSpec, name: Component['name']): { image?: string } {
  const image = spec.images?.[name];
  return image ? { image } : {};
}
