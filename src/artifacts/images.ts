/**
 * Image references of the components under container runtimes, kwokctl's way: an explicit
 * `--*-image` wins, else `<prefix>/<name>:<tag>` with the prefix from `KWOK_*_IMAGE_PREFIX` or
 * the upstream registry. Images are used as they are when present locally, pulled otherwise.
 */
import type { ComponentName } from '../config/component-names.js';
import type { ClusterOptionValues } from '../config/options.js';
import { DEFAULT_JAEGER_VERSION, DEFAULT_METRICS_SERVER_VERSION, DEFAULT_PROMETHEUS_VERSION, DEFAULT_SCHEDULER_PLUGINS_VERSION, etcdImageTagForKube, KIND_VERSION } from '../config/versions.js';
import { KWOKTS_VERSION } from '../util/version.js';

/**
 * The kwok controller's image: this package's own (see the repository's Dockerfile), tagged with
 * its version. The in-cluster manifests reference exactly this name.
 */
export const KWOK_CONTROLLER_IMAGE_REPOSITORY = 'ghcr.io/kwokts/kwok';
export const DEFAULT_KWOK_CONTROLLER_IMAGE = `${KWOK_CONTROLLER_IMAGE_REPOSITORY}:v${KWOKTS_VERSION}`;

const stripV = (v: string): string => v.replace(/^v/, '');

/**
 * The images of every component. With scheduler-plugins among `components`, kube-scheduler runs
 * scheduler-plugins' scheduler image (a kube-scheduler with its plugins compiled in) whatever
 * --kube-scheduler-image says, as kwokctl does.
 */
export function resolveImages(values: ClusterOptionValues, kubeVersion: string, etcdVersion: string, components: readonly ComponentName[] = []): Record<ComponentName, string> {
  const kube = values.kubeImagePrefix || 'registry.k8s.io';
  // kwokctl's etcdVersion is the image tag (3.6.10-0); a release version (v3.6.10) is used as given.
  const etcdTag = values.etcdVersion ? stripV(values.etcdVersion) : etcdImageTagForKube(kubeVersion);
  const kwokPrefix = values.kwokImagePrefix || 'ghcr.io/kwokts';
  const prometheusVersion = values.prometheusVersion || DEFAULT_PROMETHEUS_VERSION;
  return {
    etcd: values.etcdImage || `${values.etcdImagePrefix || 'registry.k8s.io'}/etcd:${etcdTag}`,
    'kube-apiserver': values.kubeApiserverImage || `${kube}/kube-apiserver:${kubeVersion}`,
    'kube-controller-manager': values.kubeControllerManagerImage || `${kube}/kube-controller-manager:${kubeVersion}`,
    'kube-scheduler': components.includes('scheduler-plugins') ? schedulerPluginsImage(values, 'kube-scheduler') : values.kubeSchedulerImage || `${kube}/kube-scheduler:${kubeVersion}`,
    'kwok-controller': values.kwokControllerImage || `${kwokPrefix}/kwok:v${KWOKTS_VERSION}`,
    prometheus: values.prometheusImage || `${values.prometheusImagePrefix || 'docker.io/prom'}/prometheus:v${stripV(prometheusVersion)}`,
    'metrics-server': values.metricsServerImage || `${values.metricsServerImagePrefix || 'registry.k8s.io/metrics-server'}/metrics-server:v${stripV(values.metricsServerVersion || DEFAULT_METRICS_SERVER_VERSION)}`,
    jaeger: values.jaegerImage || `${values.jaegerImagePrefix || 'docker.io/jaegertracing'}/all-in-one:${stripV(values.jaegerVersion || DEFAULT_JAEGER_VERSION)}`,
    'scheduler-plugins': schedulerPluginsImage(values, 'controller'),
  };
}

/** scheduler-plugins' two images: `<prefix>/controller:<v>` and `<prefix>/kube-scheduler:<v>`, unless given. */
export function schedulerPluginsImage(values: ClusterOptionValues, which: 'controller' | 'kube-scheduler'): string {
  const given = which === 'controller' ? values.schedulerPluginsControllerImage : values.schedulerPluginsSchedulerImage;
  const prefix = values.schedulerPluginsImagePrefix || 'registry.k8s.io/scheduler-plugins';
  return given || `${prefix}/${which}:v${stripV(values.schedulerPluginsVersion || DEFAULT_SCHEDULER_PLUGINS_VERSION)}`;
}

/** kind's node image for a Kubernetes version (kwokctl: docker.io/kindest/node:<kube version>). */
export function resolveKindNodeImage(values: ClusterOptionValues, kubeVersion: string): string {
  return values.kindNodeImage || `${values.kindNodeImagePrefix || 'docker.io/kindest'}/node:${kubeVersion}`;
}

export { KIND_VERSION };
