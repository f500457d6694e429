/**
 * What `create cluster` uses for each option flag that is not given, as text: the default its
 * --help shows and docs/reference/cli.md lists. The values come in resolved (defaults, config
 * files, KWOK_* variables: what `config view` prints), and what kwokts derives from them (image
 * references, download URLs, the base set of components) is derived here by the same functions
 * create uses, so the help cannot name a value create would not use.
 */
import { buildArtifactCandidates, HOST_PLATFORM, type BinaryName, type Platform } from '../artifacts/sources.js';
import { resolveImages, resolveKindNodeImage } from '../artifacts/images.js';
import { DEFAULT_COMPONENTS } from '../components/index.js';
import type { ComponentName } from '../config/component-names.js';
import { OPTION_SPECS, type ClusterOptionValues, type OptionKey, type OptionSpec } from '../config/options.js';
import { clusterVersions } from '../config/versions.js';
import { artifactRequest, cacheDirOf, offlineMode } from './artifact-request.js';

/** The option behind each `--*-image` flag whose value is a component's image. */
const IMAGE_OF: Partial<Record<OptionKey, ComponentName>> = {
  etcdImage: 'etcd',
  kubeApiserverImage: 'kube-apiserver',
  kubeControllerManagerImage: 'kube-controller-manager',
  kubeSchedulerImage: 'kube-scheduler',
  kwokControllerImage: 'kwok-controller',
  prometheusImage: 'prometheus',
  jaegerImage: 'jaeger',
  metricsServerImage: 'metrics-server',
};

/** The option behind each `--*-binary` flag whose value is a binary kwokts fetches. */
const BINARY_OF: Partial<Record<OptionKey, BinaryName>> = {
  kubeApiserverBinary: 'kube-apiserver',
  kubeControllerManagerBinary: 'kube-controller-manager',
  kubeSchedulerBinary: 'kube-scheduler',
  kubectlBinary: 'kubectl',
  etcdBinary: 'etcd',
  etcdctlBinary: 'etcdctl',
  prometheusBinary: 'prometheus',
  metricsServerBinary: 'metrics-server',
  jaegerBinary: 'jaeger',
};

/**
 * Each option flag's value as create would use it when the flag is not given, by flag name; ''
 * when there is no one value to name (a port picked at random, the runtime detected at create).
 * `platform` is the machine the download URLs are for (the reference is written for linux/amd64).
 */
export function optionFlagDefaults(values: ClusterOptionValues, workdir: string, platform: Platform = HOST_PLATFORM): Map<string, string> {
  const { kubeVersion, etcdVersion } = clusterVersions(values);
  const images = resolveImages(values, kubeVersion, etcdVersion);
  const out = new Map<string, string>();
  for (const spec of OPTION_SPECS as readonly OptionSpec[]) {
    if (!spec.flag) continue;
    const key = spec.key as OptionKey;
    const value = values[key];
    const component = IMAGE_OF[key];
    const binary = BINARY_OF[key];
    let text: string;
    if (component) text = images[component] ?? '';
    else if (key === 'kindNodeImage') text = resolveKindNodeImage(values, kubeVersion);
    else if (binary) text = binaryOrigin(binary, values, kubeVersion, etcdVersion, workdir, platform);
    else if (key === 'components') text = (values.components.length > 0 ? values.components : DEFAULT_COMPONENTS).join(',');
    else if (Array.isArray(value)) text = value.join(',');
    else if (typeof value === 'number') text = value === 0 ? '' : String(value);
    else text = String(value);
    out.set(spec.flag, text);
  }
  return out;
}

/** Where create would take the binary from first: the value given, a mirror, the download (or, with `always`, the Go build). */
function binaryOrigin(name: BinaryName, values: ClusterOptionValues, kubeVersion: string, etcdVersion: string, workdir: string, platform: Platform): string {
  const request = { ...artifactRequest(name, values, kubeVersion, etcdVersion), platform };
  const candidates = buildArtifactCandidates(request, { cacheDir: cacheDirOf(values, workdir), offlineBuild: offlineMode(values), platform });
  // The cache holds copies of what the other candidates name: not where a binary comes from.
  return candidates.find((c) => c.source !== 'cache')?.origin ?? '';
}
