import { planArtifacts, type ArtifactPlan, type BinaryName } from '../artifacts/index.js';
import { resolveImages, resolveKindNodeImage } from '../artifacts/images.js';
import type { ClusterOptionValues } from '../config/options.js';
import { clusterVersions } from '../config/versions.js';
import { loadRuntime } from '../../runtimes/load.js';
import { artifactRequest, cacheDirOf, offlineMode } from './artifact-request.js';

export interface ArtifactList {
  /** Host binaries, with where each would come from. */
  binaries: ArtifactPlan[];
  /** Container images, by what they are for. */
  images: Array<{ name: string; image: string }>;
}

/** Images `kind load` puts into a kind node (kwokctl lists Prometheus and metrics-server too; kwokts also runs jaeger there). */
const KIND_LOADED = ['kwok-controller', 'prometheus', 'metrics-server', 'jaeger'] as const;

const HOST_COMPONENT_BINARIES: BinaryName[] = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'prometheus'];

/**
 * Everything a cluster of this runtime may use, as kwokctl's `get artifacts` lists it: every
 * component that can be enabled (Prometheus included), plus the tools kwokts runs on the host.
 * The runtime's kind decides between binaries and images; nothing is probed or fetched.
 */
export async function listArtifacts(runtimeName: string, values: ClusterOptionValues, workdir: string): Promise<ArtifactList> {
  const mode = (await loadRuntime(runtimeName)).info().mode;
  const { kubeVersion, etcdVersion } = clusterVersions(values);
  const names: BinaryName[] = mode === 'native' ? [...HOST_COMPONENT_BINARIES, 'kubectl', 'etcdctl'] : ['kubectl'];
  const binaries = planArtifacts(
    names.map((n) => artifactRequest(n, values, kubeVersion, etcdVersion)),
    { cacheDir: cacheDirOf(values, workdir), offlineBuild: offlineMode(values) },
  );
  const all = resolveImages(values, kubeVersion, etcdVersion);
  const images =
    mode === 'container'
      ? // scheduler-plugins is an extra a create must enable, not one a container cluster pulls by default.
        Object.entries(all).filter(([name]) => name !== 'scheduler-plugins').map(([name, image]) => ({ name, image }))
      : mode === 'cluster'
        ? [
            { name: 'kind-node', image: resolveKindNodeImage(values, kubeVersion) },
            // What a kind cluster loads into its node: the controller always, the extras when enabled.
            ...KIND_LOADED.map((name) => ({ name, image: all[name] })),
          ]
        : [];
  return { binaries, images };
}
