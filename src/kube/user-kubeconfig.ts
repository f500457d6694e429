/**
 * A second entry of src/kube, for `delete cluster`: where the user's kubeconfig is and the removal
 * of a cluster's context from it, without what index.ts loads besides (the API client and its HTTP
 * pool, the yaml package). On the fast path that load was a sixth of a delete's CPU.
 */
export { removeContext } from './kubeconfig/remove-context.js';
export { resolveUserKubeconfigPath } from './kubeconfig/resolve-path.js';
