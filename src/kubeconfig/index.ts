export {
  buildClusterEntry,
  buildClusterKubeconfig,
  renderKubeconfig,
  type ClusterKubeconfigOptions,
} from './build.js';
export {
  checkMergeable,
  mergeContext,
  removeContext,
  restoreKubeconfig,
  type KubeconfigSnapshot,
  type MergeContextOptions,
} from './merge.js';
export type { LockOptions } from './file-io.js';
export { resolveUserKubeconfigPath } from './resolve-path.js';
export type {
  ClusterEntry,
  KubeConfig,
  KubeconfigCluster,
  KubeconfigContext,
  KubeconfigUser,
  NamedCluster,
  NamedContext,
  NamedUser,
} from './types.js';
export { buildPortableKubeconfig, renderPortableKubeconfig, replaceHost, type PortableKubeconfigOptions } from './portable.js';
