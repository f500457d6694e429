import { stringify } from 'yaml';
import { CONTAINER_PORTS, type Component } from '../../src/components/index.js';

/**
 * kind's cluster config: the apiserver published on 127.0.0.1 at the cluster's port, and the kwok
 * controller's port (it runs on the node's network) published the same way, so the host-side
 * readiness probes and kubectl work as for every other runtime. With `ca`, the cluster's own CA
 * goes into the node where kubeadm looks for one (/etc/kubernetes/pki/ca.{crt,key}): kubeadm then
 * signs everything with it instead of making its own, so the cluster's pki/ca.key is the key of
 * the cluster's CA and `get kubeconfig --user ... --group ...` can sign for it (kwokctl mounts its
 * whole pki directory there to the same end).
 */
export function renderKindConfig(components: readonly Component[], host: { cgroupV1?: boolean } = {}, ca?: { cert: string; key: string }): string {
  const apiserver = components.find((c) => c.name === 'kube-apiserver');
  const controller = components.find((c) => c.name === 'kwok-controller');
  const config = {
    kind: 'Cluster',
    apiVersion: 'kind.x-k8s.io/v1alpha4',
    networking: { apiServerAddress: '127.0.0.1', ...(apiserver ? { apiServerPort: apiserver.ports[0]?.port } : {}) },
    // Since Kubernetes 1.35 the kubelet refuses cgroup v1 hosts unless told otherwise.
    ...(host.cgroupV1 ? { kubeadmConfigPatches: ['kind: KubeletConfiguration\nfailCgroupV1: false\n'] } : {}),
    nodes: [
      {
        role: 'control-plane',
        ...(ca
          ? {
              extraMounts: [
                { hostPath: ca.cert, containerPath: '/etc/kubernetes/pki/ca.crt', readOnly: true },
                { hostPath: ca.key, containerPath: '/etc/kubernetes/pki/ca.key', readOnly: true },
              ],
            }
          : {}),
        ...(controller
          ? { extraPortMappings: [{ containerPort: CONTAINER_PORTS.kwokController, hostPort: controller.ports[0]?.port, listenAddress: '127.0.0.1', protocol: 'TCP' }] }
          : {}),
      },
    ],
  };
  return stringify(config);
}

/** The controller's manifests (templates/kind/kwok-controller.yaml) for an image. */
export function renderControllerManifests(template: string, image: string): string {
  return template.split('${KWOK_CONTROLLER_IMAGE}').join(image);
}
