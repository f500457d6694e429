export {
  buildClusterEntry,
  buildClusterKubeconfig,
  renderKubeconfig,
  type ClusterKubeconfigOptions,
} from './kubeconfig/build.js';
export {
  checkMergeable,
  mergeContext,
  removeContext,
  restoreKubeconfig,
  type KubeconfigSnapshot,
  type MergeContextOptions,
} from './kubeconfig/merge.js';
export type { LockOptions } from './kubeconfig/file-io.js';
export { resolveUserKubeconfigPath } from './kubeconfig/resolve-path.js';
export type {
  ClusterEntry,
  KubeConfig,
  KubeconfigCluster,
  KubeconfigContext,
  KubeconfigUser,
  NamedCluster,
  NamedContext,
  NamedUser,
} from './kubeconfig/types.js';
export { buildPortableKubeconfig, renderPortableKubeconfig, replaceHost, type PortableKubeconfigOptions } from './kubeconfig/portable.js';
