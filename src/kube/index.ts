/**
 * Public surface of src/kube, the one Kubernetes client and kubeconfig module that the controller
 * (src/kwok) and the CLI (create, delete, deploy, scale, snapshot, get kubeconfig) share. Code
 * outside src/kube imports this file only, or user-kubeconfig.ts for the kubeconfig edit a delete
 * needs without the rest (test/unit/architecture.test.ts checks it).
 */

// The API client: a small HTTP client over node:http(s), list/watch reflector, retries.
export type { KubeClient, KubeObject, ListOptions, PatchRequest, ResourceRef } from './client/types.js';
export { HttpKubeClient } from './client/http-client.js';
export { buildConnection } from './client/connection.js';
export { KubeApiError, isAlreadyExists, isConflict, isNotFound, isRefused } from './client/api-error.js';
export { defaultRetry, isRetryable, sleep } from './client/retry.js';
export { Reflector, type ObjectEventType } from './client/reflector.js';
export { parseLabelSelector, type LabelSelector } from './client/label-selector.js';
export {
  apiVersionOf,
  clusterLogsResource,
  clusterResourceUsagesResource,
  configMapsResource,
  eventsResource,
  leasesResource,
  logsResource,
  metricsResource,
  nodesResource,
  objectKey,
  podsResource,
  resourceUsagesResource,
  stagesResource,
  streamingResources,
} from './client/resources.js';

// Reading a kubeconfig (or the in-cluster service account) into a client configuration.
export { loadKubeConfig } from './kubeconfig/load.js';
export { KubeconfigError, readRestConfig, type RestConfig, type TlsMaterial } from './kubeconfig/rest-config.js';

// Writing kubeconfigs: a cluster's own file, the user's merged context, portable copies.
export {
  buildClusterEntry,
  buildClusterKubeconfig,
  renderKubeconfig,
  type ClusterKubeconfigOptions,
} from './kubeconfig/build.js';
export {
  checkMergeable,
  mergeContext,
  restoreKubeconfig,
  type KubeconfigSnapshot,
  type MergeContextOptions,
} from './kubeconfig/merge.js';
export type { LockOptions } from './kubeconfig/file-io.js';
export { resolveUserKubeconfigPath } from './kubeconfig/resolve-path.js';
export { removeContext } from './kubeconfig/remove-context.js';
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
export { buildPortableKubeconfig, checkHostOverride, renderPortableKubeconfig, replaceHost, type PortableKubeconfigOptions } from './kubeconfig/portable.js';
