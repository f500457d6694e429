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
 * kwokctl serves with them) appear in the kind node; the controller's pod mounts the directory at
 * /etc/kwok-tls (templates/kind/kwok-controller.yaml). kube-apiserver reaches the controller over
 * HTTPS for `kubectl logs`, `exec`, `attach` and `port-forward`, so it must serve TLS.
 */
export const CONTROLLER_TLS_NODE_DIR = '/var/components/controller-tls';

/**
 * The host directories the controller reads that are not the cluster's own files (those reach it
 * as the ConfigMap and the service account): the directories of Logs and Attach files.
 */
export function controllerHostDirs(controller: Component | undefined, clusterRoot: string): string[] {
  return (controller?.mounts ?? []).map((m) => m.path).filter((path) => path !== clusterRoot && !path.startsWith(`${clusterRoot}/`));
}

/**
 * kind's cluster config: the apiserver published on 127.0.0.1 at the cluster's port, and the kwok
 * controller's port (it runs on the node's network) published the same way, so the host-side
 * readiness probes and kubectl work as for every other runtime. With `ca`, the cluster's own CA
 * goes into the node where kubeadm looks for one (/etc/kubernetes/pki/ca.{crt,key}): kubeadm then
 * signs everything with it instead of making its own, so the cluster's pki/ca.key is the key of
 * the cluster's CA and `get kubeconfig --user ... --group ...` can sign for it (kwokctl mounts its
 * whole pki directory there to the same end).
 */
export function renderKindConfig(
  components: readonly Component[],
  host: { cgroupV1?: boolean } = {},
  ca?: { cert: string; key: string },
  controllerDirs: readonly string[] = [],
  controllerTls?: { cert: string; key: string },
): string {
  const apiserver = components.find((c) => c.name === 'kube-apiserver');
  const controller = components.find((c) => c.name === 'kwok-controller');
  const mounts = [
    ...(ca
      ? [
          { hostPath: ca.cert, containerPath: '/etc/kubernetes/pki/ca.crt', readOnly: true },
          { hostPath: ca.key, containerPath: '/etc/kubernetes/pki/ca.key', readOnly: true },
        ]
      : []),
    ...(controllerTls
      ? [
          { hostPath: controllerTls.cert, containerPath: `${CONTROLLER_TLS_NODE_DIR}/tls.crt`, readOnly: true },
          { hostPath: controllerTls.key, containerPath: `${CONTROLLER_TLS_NODE_DIR}/tls.key`, readOnly: true },
        ]
      : []),
    ...controllerDirs.map((dir) => ({ hostPath: dir, containerPath: nodePathOfControllerDir(dir), readOnly: true })),
  ];
  const config = {
    kind: 'Cluster',
    apiVersion: 'kind.x-k8s.io/v1alpha4',
    networking: { apiServerAddress: '127.0.0.1', ...(apiserver ? { apiServerPort: apiserver.ports[0]?.port } : {}) },
    // Since Kubernetes 1.35 the kubelet refuses cgroup v1 hosts unless told otherwise.
    ...(host.cgroupV1 ? { kubeadmConfigPatches: ['kind: KubeletConfiguration\nfailCgroupV1: false\n'] } : {}),
    nodes: [
      {
        role: 'control-plane',
        ...(mounts.length > 0 ? { extraMounts: mounts } : {}),
        ...(controller
          ? { extraPortMappings: [{ containerPort: CONTAINER_PORTS.kwokController, hostPort: controller.ports[0]?.port, listenAddress: '127.0.0.1', protocol: 'TCP' }] }
          : {}),
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
  const text = template.split('${KWOK_CONTROLLER_IMAGE}').join(image);
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
