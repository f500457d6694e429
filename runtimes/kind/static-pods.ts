/**
 * kubeadm's static pods in a kind node (etcd, kube-controller-manager, kube-scheduler), stopped
 * one at a time while the node runs: the kubelet stops a static pod whose manifest leaves its
 * directory and starts one whose manifest comes in. This module says where the manifests go and
 * how a start is waited for.
 */
import type { ComponentName } from '../../src/components/index.js';

export const STATIC_PODS: ReadonlySet<ComponentName> = new Set<ComponentName>(['etcd', 'kube-controller-manager', 'kube-scheduler']);

/** Where the kubelet reads it. */
export const manifestIn = (name: ComponentName): string => `/etc/kubernetes/manifests/${name}.yaml`;
/**
 * Where it waits while the component is stopped (outside the kubelet's directory). It comes back
 * unchanged. Marking it (an annotation with the time, so that the kubelet would see a new pod UID)
 * was tried after a kind CI run waited two minutes for etcd after an etcd restore, and failed with
 * the same symptom: the kubelet, replacing the old mirror pod, kept trying to delete it through
 * the apiserver, which cannot answer while etcd is down, and started no etcd (etcdHealthWait's
 * output showed it).
 */
export const manifestAside = (name: ComponentName): string => `/etc/kubernetes/${name}.yaml.bak`;

/**
 * A shell condition waiting for etcd's health on the node's loopback (about two minutes); when it
 * gives up, it says on stderr what the kubelet and the container runtime show of etcd, so the
 * failure can be read from the command's output.
 */
export function etcdHealthWait(): string {
  // kindest/node has crictl; the node image kwokts builds has not, so the processes are listed too.
  const diagnose =
    "{ echo 'etcd processes:'; pgrep -a etcd; echo 'etcd containers:'; crictl ps -a --name etcd 2>/dev/null || echo '(no crictl in this node image)'; echo 'kubelet on etcd:'; journalctl -u kubelet --no-pager -n 400 2>&1 | grep -i etcd | tail -n 12; } >&2";
  return `i=0 && until curl -fs http://127.0.0.1:2381/health >/dev/null; do i=$((i+1)); if [ $i -ge 1200 ]; then ${diagnose}; exit 1; fi; sleep 0.1; done`;
}
