import { DEFAULT_SCHEDULER_PLUGINS_VERSION, SCHEDULER_PLUGINS_MANIFEST_FILES, schedulerPluginsManifestUrl } from '../config/versions.js';
import type { ClusterOptionValues } from '../config/options.js';
import { UsageError } from '../util/errors.js';
import type { ClusterSpec, Component } from './component.js';
import { imageOf } from './image.js';
import { componentKubeconfig, networkName } from './placement.js';

/**
 * Where scheduler-plugins' controller serves its metrics inside its container (kwokctl's
 * `--metricsAddr=:8080`). Not published on the host: the port is plain HTTP without
 * authentication, so only Prometheus on the cluster network reaches it.
 */
export const SCHEDULER_PLUGINS_METRICS_PORT = 8080;

/**
 * scheduler-plugins' controller (PodGroup and ElasticQuota status) as kwokctl runs it, on
 * container runtimes only. The scheduler half is kube-scheduler itself running scheduler-plugins'
 * scheduler image (src/artifacts/images.ts); the CRDs and the scheduler's RBAC come from
 * scheduler-plugins' manifests, applied once the apiserver serves (create-steps.ts).
 */
export function buildSchedulerPlugins(spec: ClusterSpec): Component {
  const kubeconfig = componentKubeconfig(spec);
  return {
    name: 'scheduler-plugins',
    // Never a host process (create refuses scheduler-plugins outside the container runtimes); containers run `command`.
    program: { path: 'controller' },
    command: ['controller'],
    args: [`--kubeconfig=${kubeconfig}`, `--metricsAddr=:${SCHEDULER_PLUGINS_METRICS_PORT}`],
    env: {},
    links: ['kube-apiserver'],
    // controller-runtime retries the apiserver, and waits for the CRDs applied after start.
    retriesLinks: true,
    ports: [],
    mounts: [
      { path: kubeconfig, readOnly: true },
      { path: spec.paths.pki, readOnly: true },
    ],
    ...imageOf(spec, 'scheduler-plugins'),
    // Its image runs as 65532, who cannot read the cluster's 0600 kubeconfig and keys.
    runAsFileOwner: true,
  };
}

/** `host:port` Prometheus scrapes the controller's metrics at (on the cluster network). */
export function schedulerPluginsMetricsTarget(spec: ClusterSpec): string | undefined {
  const name = networkName(spec, 'scheduler-plugins');
  return name === undefined ? undefined : `${name}:${SCHEDULER_PLUGINS_METRICS_PORT}`;
}

/**
 * What kwokctl applies from scheduler-plugins' manifests: the CRDs, and the ClusterRole and
 * ClusterRoleBinding `system:kube-scheduler:plugins` that let the scheduler read PodGroups and
 * ElasticQuotas; Namespaces are kept. The in-cluster install (Deployment, ConfigMap, Secret,
 * ServiceAccount and the other RBAC objects) is dropped: the controller runs as a container of
 * the cluster instead. Any other kind is an error, as in kwokctl, rather than applied unseen.
 */
export function schedulerPluginsManifestObjects(documents: readonly unknown[], source: string): Array<Record<string, unknown>> {
  const kept: Array<Record<string, unknown>> = [];
  for (const doc of documents) {
    if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new UsageError(`scheduler-plugins manifest ${source} holds a document that is not an object`);
    const object = doc as Record<string, unknown>;
    const kind = String(object.kind ?? '');
    const apiVersion = String(object.apiVersion ?? '');
    const name = (object.metadata as { name?: unknown } | undefined)?.name;
    const rbac = apiVersion === 'rbac.authorization.k8s.io/v1';
    if ((kind === 'CustomResourceDefinition' && apiVersion === 'apiextensions.k8s.io/v1') || (kind === 'Namespace' && apiVersion === 'v1')) kept.push(object);
    else if (rbac && (kind === 'ClusterRole' || kind === 'ClusterRoleBinding') && name === 'system:kube-scheduler:plugins') kept.push(object);
    else if ((rbac && ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'].includes(kind)) || (apiVersion === 'v1' && ['ConfigMap', 'Secret', 'ServiceAccount'].includes(kind)) || (apiVersion === 'apps/v1' && kind === 'Deployment')) continue;
    else throw new UsageError(`scheduler-plugins manifest ${source} has a ${kind || 'document without a kind'} (${apiVersion || 'no apiVersion'}) that kwokts does not know how to set up`, { hint: 'name manifests that hold only CRDs, Namespaces, RBAC and the in-cluster install (KWOK_SCHEDULER_PLUGINS_MANIFESTS)' });
  }
  return kept;
}

/** kwokctl's manifests of scheduler-plugins: the given ones, else its install and CRD files at the version's tag. */
export function schedulerPluginsManifestSources(options: Pick<ClusterOptionValues, 'schedulerPluginsManifests' | 'schedulerPluginsVersion'>): string[] {
  if (options.schedulerPluginsManifests.length > 0) return [...options.schedulerPluginsManifests];
  return SCHEDULER_PLUGINS_MANIFEST_FILES.map((file) => schedulerPluginsManifestUrl(options.schedulerPluginsVersion || DEFAULT_SCHEDULER_PLUGINS_VERSION, file));
}
