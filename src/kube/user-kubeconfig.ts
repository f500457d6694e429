/**
 * A second entry of src/kube, for `delete cluster`: where the user's kubeconfig is and the removal
 * of a cluster's context from it, without what index.ts loads besides (the API client and its HTTP
 * pool, the yaml package). The removal's own module (a file lock, a YAML reader) loads only when
 * asked for: a delete of a cluster the kubeconfig does not name never needs it.
 */
export { resolveUserKubeconfigPath } from './kubeconfig/resolve-path.js';

export type ContextRemoval = typeof import('./kubeconfig/remove-context.js');

/** The module that removes a context from a kubeconfig (removeContext). */
export function contextRemoval(): Promise<ContextRemoval> {
  return import('./kubeconfig/remove-context.js');
}
