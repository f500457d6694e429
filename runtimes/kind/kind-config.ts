import { parseAllDocuments, stringify } from 'yaml';
import { CONTAINER_PORTS, type Component } from '../../src/components/index.js';

/**
 * Where a host directory of the controller's (a Logs or Attach document's files) appears in the
 * kind node, kwokctl's layout: `/var/components/controller<dir>`. The controller's pod mounts it
 * from there at `<dir>` itself, so the paths in kwok.yaml hold inside the pod.
 */
export function nodePathOfControllerDir(dir: string): string {
  return `/var/components/controller${dir}`;
}

/**
 * Where the controller's serving certificate and key (the cluster's admin.crt/admin.key, as
 * kwokctl serves with them) and the cluster CA appear in the kind node; the controller's pod
 * mounts the directory at /etc/kwok-tls (templates/kind/kwok-controller.yaml). kube-apiserver
 * reaches the controller over HTTPS for `kubectl logs`, `exec`, `attach` and `port-forward`, so it
 * must serve TLS; it presents kubeadm's apiserver-kubelet-client certificate, which the cluster CA
 * signed (kubeadm is given that CA), and the controller requires a certificate of that CA.
 */
export const CONTROLLER_TLS_NODE_DIR = '/var/components/controller-tls';

/**
 * The host directories the controller reads that are not the cluster's own files (those reach it
 * as the ConfigMap and the service account): the directories of Logs and Attach files.
 */
export function controllerHostDirs(controller: Component | undefined, clusterRoot: string): string[] {
  return (controller?.mounts ?? []).map((m) => m.path).filter((path) => path !== clusterRoot && !path.startsWith(`${clusterRoot}/`));
}

/** Where kubeadm in the node looks for etcd's CA (and, finding it, makes etcd's certificates with it). */
export const ETCD_CA_NODE_DIR = '/etc/kubernetes/pki/etcd';

export interface KindConfigOptions {
  /** The host is on cgroup v1 (the kubelet then needs to be told it may run). */
  cgroupV1?: boolean;
  /** The cluster's CA, given to kubeadm (see renderKindConfig). */
  ca?: { cert: string; key: string };
  /** etcd's CA, given to kubeadm likewise, so that the host's etcd client certificate is good for kind's etcd. */
  etcdCa?: { cert: string; key: string };
  /** Host directories of the controller's Logs and Attach files (controllerHostDirs). */
  controllerDirs?: readonly string[];
  /** The controller's serving certificate and key, and the CA of its callers' certificates (CONTROLLER_TLS_NODE_DIR). */
  controllerTls?: { cert: string; key: string; ca: string };
  /**
   * kube-apiserver sends its traces to jaeger in the node: this tracing configuration file of the
   * host's (kindApiserverTracingConfig) is mounted into the node and given to kubeadm's apiserver,
   * in the kubeadm API the node's Kubernetes version has kind generate (kubeadmApiOf).
   */
  apiserverTracing?: { configFile: string; kubeadmApi: KubeadmApi };
}

export type KubeadmApi = 'v1beta3' | 'v1beta4';

/** Where the apiserver's tracing configuration appears in the node and in its static pod. */
export const APISERVER_TRACING_NODE_PATH = '/etc/kubernetes/apiserver-tracing-config.yaml';

/** Where jaeger (templates/kind/jaeger.yaml) takes OTLP gRPC in the node: on its loopback. */
const JAEGER_OTLP_IN_NODE = '127.0.0.1:4317';

/** The apiserver's tracing configuration in a kind node: every request sampled, sent to jaeger there. */
export function kindApiserverTracingConfig(): string {
  return ['apiVersion: apiserver.config.k8s.io/v1alpha1', 'kind: TracingConfiguration', `endpoint: ${JAEGER_OTLP_IN_NODE}`, 'samplingRatePerMillion: 1000000', ''].join('\n');
}

/**
 * The kubeadm API kind v0.32 writes its config in for a node image's Kubernetes version (the tag
 * of kind's node images): v1beta4 from 1.36, v1beta3 before. Patches must be written for it (its
 * extraArgs are a list of name/value pairs in v1beta4, a map in v1beta3).
 */
export function kubeadmApiOf(nodeImage: string): KubeadmApi {
  const version = /:v(\d+)\.(\d+)/.exec(nodeImage);
  if (!version) return 'v1beta4';
  return Number(version[1]) > 1 || Number(version[2]) >= 36 ? 'v1beta4' : 'v1beta3';
}

/** JSON patches of kind's kubeadm ClusterConfiguration: the apiserver reads the tracing configuration mounted from the host. */
function apiserverTracingPatch(api: KubeadmApi): Record<string, unknown> {
  const arg = api === 'v1beta4'
    ? { op: 'add', path: '/apiServer/extraArgs/-', value: { name: 'tracing-config-file', value: APISERVER_TRACING_NODE_PATH } }
    : { op: 'add', path: '/apiServer/extraArgs/tracing-config-file', value: APISERVER_TRACING_NODE_PATH };
  const volume = { name: 'tracing-config', hostPath: APISERVER_TRACING_NODE_PATH, mountPath: APISERVER_TRACING_NODE_PATH, readOnly: true, pathType: 'File' };
  return { group: 'kubeadm.k8s.io', version: api, kind: 'ClusterConfiguration', patch: stringify([arg, { op: 'add', path: '/apiServer/extraVolumes', value: [volume] }]) };
}

/**
 * kind's cluster config: the apiserver published on 127.0.0.1 at the cluster's port, and the kwok
 * controller's port (it runs on the node's network), etcd's client port, Prometheus' and jaeger's
 * UI published the same way, so the host-side readiness probes, kubectl, etcdctl, kectl,
 * snapshots and those UIs work as for every other runtime. With `ca`, the cluster's own CA goes into the
 * node where kubeadm looks for one (/etc/kubernetes/pki/ca.{crt,key}): kubeadm then signs
 * everything with it instead of making its own, so the cluster's pki/ca.key is the key of the
 * cluster's CA and `get kubeconfig --user ... --group ...` can sign for it (kwokctl mounts its
 * whole pki directory there to the same end).
 * `etcdCa` does the same for etcd's CA. Single files are mounted, read-only, so kubeadm's own
 * files are written inside the node, not into the cluster directory as root.
 */
export function renderKindConfig(components: readonly Component[], options: KindConfigOptions = {}): string {
  const apiserver = components.find((c) => c.name === 'kube-apiserver');
  const controller = components.find((c) => c.name === 'kwok-controller');

  const { ca, etcdCa, controllerTls, controllerDirs = [] } = options;
  const mounts = [
    ...(ca
      ? [
          { hostPath: ca.cert, containerPath: '/etc/kubernetes/pki/ca.crt', readOnly: true },
          { hostPath: ca.key, containerPath: '/etc/kubernetes/pki/ca.key', readOnly: true },
        ]
      : []),
    ...(etcdCa
      ? [
          { hostPath: etcdCa.cert, containerPath: `${ETCD_CA_NODE_DIR}/ca.crt`, readOnly: true },
          { hostPath: etcdCa.key, containerPath: `${ETCD_CA_NODE_DIR}/ca.key`, readOnly: true },
        ]
      : []),
    ...(controllerTls
      ? [
          { hostPath: controllerTls.cert, containerPath: `${CONTROLLER_TLS_NODE_DIR}/tls.crt`, readOnly: true },
          { hostPath: controllerTls.key, containerPath: `${CONTROLLER_TLS_NODE_DIR}/tls.key`, readOnly: true },
          { hostPath: controllerTls.ca, containerPath: `${CONTROLLER_TLS_NODE_DIR}/ca.crt`, readOnly: true },
        ]
      : []),
    ...controllerDirs.map((dir) => ({ hostPath: dir, containerPath: nodePathOfControllerDir(dir), readOnly: true })),
    ...(options.apiserverTracing ? [{ hostPath: options.apiserverTracing.configFile, containerPath: APISERVER_TRACING_NODE_PATH, readOnly: true }] : []),
  ];
  // The others' published ports carry their in-node port (src/components/in-node.ts).
  const inNode = components.filter((c) => c !== apiserver && c !== controller).flatMap((c) => c.ports.flatMap((p) => (p.containerPort === undefined ? [] : [{ containerPort: p.containerPort, hostPort: p.port }])));
  const published = [...(controller ? [{ containerPort: CONTAINER_PORTS.kwokController, hostPort: controller.ports[0]?.port }] : []), ...inNode].map((p) => ({ ...p, listenAddress: '127.0.0.1', protocol: 'TCP' }));
  const config = {
    kind: 'Cluster',
    apiVersion: 'kind.x-k8s.io/v1alpha4',
    networking: { apiServerAddress: '127.0.0.1', ...(apiserver ? { apiServerPort: apiserver.ports[0]?.port } : {}) },
    // Since Kubernetes 1.35 the kubelet refuses cgroup v1 hosts unless told otherwise.
    ...(options.cgroupV1 ? { kubeadmConfigPatches: ['kind: KubeletConfiguration\nfailCgroupV1: false\n'] } : {}),
    ...(options.apiserverTracing ? { kubeadmConfigPatchesJSON6902: [apiserverTracingPatch(options.apiserverTracing.kubeadmApi)] } : {}),
    nodes: [
      {
        role: 'control-plane',
        ...(mounts.length > 0 ? { extraMounts: mounts } : {}),
        ...(published.length > 0 ? { extraPortMappings: published } : {}),
      },
    ],
  };
  return stringify(config);
}

/**
 * The controller's manifests (templates/kind/kwok-controller.yaml) for an image, with the
 * directories of its Logs and Attach files mounted read-only from the node at their own paths.
 */
export function renderControllerManifests(template: string, image: string, controllerDirs: readonly string[] = []): string {
  const text = fillImage(template, '${KWOK_CONTROLLER_IMAGE}', image);
  if (controllerDirs.length === 0) return text;
  const docs = parseAllDocuments(text);
  const deployment = docs.find((d) => d.get('kind') === 'Deployment');
  if (!deployment) throw new Error('templates/kind/kwok-controller.yaml has no Deployment');
  const pod = ['spec', 'template', 'spec'];
  controllerDirs.forEach((dir, i) => {
    const name = `controller-files-${i}`;
    deployment.addIn([...pod, 'volumes'], deployment.createNode({ name, hostPath: { path: nodePathOfControllerDir(dir), type: 'Directory' } }));
    deployment.addIn([...pod, 'containers', 0, 'volumeMounts'], deployment.createNode({ name, mountPath: dir, readOnly: true }));
  });
  return docs.map((d) => d.toString()).join('');
}

/** A manifest template of templates/kind with its image placeholder replaced. */
export function fillImage(template: string, placeholder: string, image: string): string {
  return template.split(placeholder).join(image);
}
