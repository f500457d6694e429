/** kwokctl v0.8.0's defaults: the versions every default URL and image derives from. */
export const DEFAULT_KUBE_VERSION = 'v1.36.1';
export const KWOK_VERSION = '0.8.0';
export const DEFAULT_PROMETHEUS_VERSION = '3.12.0';
/**
 * kwokctl v0.8.0 defaults to metrics-server 0.8.1, which the Go module proxy does not serve (and
 * 0.8.0's go.mod is missing from the checksum database), so it cannot be built on machines without
 * release downloads; 0.9.0 is the release that can be built and verified there.
 */
export const DEFAULT_METRICS_SERVER_VERSION = '0.9.0';
/** kwokctl v0.8.0's scheduler-plugins (its scheduler and controller images, and its manifests). */
export const DEFAULT_SCHEDULER_PLUGINS_VERSION = '0.34.7';
/** kwokctl's default scheduler-plugins manifests, under `manifests/` at the version's tag. */
export const SCHEDULER_PLUGINS_MANIFEST_FILES = ['install/all-in-one', 'capacityscheduling/crd', 'coscheduling/crd', 'appgroup/crd', 'networktopology/crd', 'sysched/crd', 'noderesourcetopology/crd'] as const;
/**
 * The GitHub tag URL of a scheduler-plugins manifest file, as kwokctl's dry-run names it (kwokctl
 * v0.8.0's `config tidy` writes `tags//v…`, a doubled slash, which kwokts's own sources do not copy).
 */
export function schedulerPluginsManifestUrl(version: string, file: string): string {
  return `https://github.com/kubernetes-sigs/scheduler-plugins/raw/refs/tags/v${version.replace(/^v/, '')}/manifests/${file}.yaml`;
}
/** kwokctl v0.8.0's jaeger (all-in-one). */
export const DEFAULT_JAEGER_VERSION = '1.76.0';
/** kind release kwokctl pairs with its kind runtimes. */
export const KIND_VERSION = '0.32.0';

/**
 * kwokctl picks etcd by Kubernetes minor; unknown minors clamp to the nearest end of the table.
 * Each entry: [first minor, last minor, etcd version].
 */
const ETCD_BY_KUBE_MINOR: ReadonlyArray<readonly [number, number, string]> = [
  [8, 8, '3.0.17'],
  [9, 10, '3.1.12'],
  [11, 11, '3.2.18'],
  [12, 13, '3.2.24'],
  [14, 15, '3.3.10'],
  [16, 16, '3.3.17-0'],
  [17, 18, '3.4.3-0'],
  [19, 21, '3.4.13-0'],
  [22, 28, '3.5.12-0'],
  [29, 30, '3.5.21-0'],
  [31, 33, '3.5.24-0'],
  [34, 36, '3.6.10-0'],
];

/** The etcd image tag kwokctl pairs with a Kubernetes version (e.g. `3.6.10-0`). */
export function etcdImageTagForKube(kubeVersion: string): string {
  const minor = Number(/^v?\d+\.(\d+)/.exec(kubeVersion)?.[1] ?? NaN);
  const first = ETCD_BY_KUBE_MINOR[0]!;
  const last = ETCD_BY_KUBE_MINOR[ETCD_BY_KUBE_MINOR.length - 1]!;
  if (Number.isNaN(minor) || minor > last[1]) return last[2];
  if (minor < first[0]) return first[2];
  return ETCD_BY_KUBE_MINOR.find(([lo, hi]) => minor >= lo && minor <= hi)?.[2] ?? last[2];
}

/** The etcd release (binary) version: the image tag without its `-N` build suffix, with `v`. */
export function etcdVersionForKube(kubeVersion: string): string {
  return 'v' + etcdImageTagForKube(kubeVersion).replace(/-\d+$/, '');
}

/**
 * cluster-autoscaler is released per Kubernetes minor (CA 1.N.x for Kubernetes 1.N.x); its kwok
 * build simulates the scheduler of that minor, so the default follows the cluster's minor.
 */
export function clusterAutoscalerVersionForKube(kubeVersion: string): string {
  const m = /^v?(\d+)\.(\d+)/.exec(kubeVersion.trim());
  return m ? `v${m[1]}.${m[2]}.0` : 'v1.36.0';
}

/**
 * What kwokctl's version parsing (blang/semver's ParseTolerant) takes: an optional `v`, then
 * MAJOR, MAJOR.MINOR or MAJOR.MINOR.PATCH, and on the full form a -pre-release and +build.
 * Anything else ends up in a download URL and a module path, where it fails as a network or Go
 * module error that does not say the version is the problem.
 */
const TOLERANT_SEMVER = /^v?\d+(\.\d+)?$|^v?\d+\.\d+\.\d+(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

export function isVersion(text: string): boolean {
  return TOLERANT_SEMVER.test(text.trim());
}

/** kwokctl normalises versions to carry a leading `v`. */
export function normalizeVersion(version: string): string {
  const v = version.trim();
  return v.startsWith('v') ? v : `v${v}`;
}

/** The Kubernetes and etcd versions a cluster uses: the options' own, else the defaults (etcd paired with Kubernetes, as kwokctl). */
export function clusterVersions(values: { kubeVersion: string; etcdVersion: string }): { kubeVersion: string; etcdVersion: string } {
  const kubeVersion = normalizeVersion(values.kubeVersion || DEFAULT_KUBE_VERSION);
  // An image tag (3.6.10-0, as kwokctl writes etcdVersion) names the release v3.6.10.
  return { kubeVersion, etcdVersion: values.etcdVersion ? normalizeVersion(values.etcdVersion).replace(/-\d+$/, '') : etcdVersionForKube(kubeVersion) };
}
