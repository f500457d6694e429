/**
 * kubeadm's static pods in a kind node (etcd, kube-controller-manager, kube-scheduler), stopped
 * one at a time while the node runs: the kubelet stops a static pod whose manifest leaves its
 * directory and starts one whose manifest comes in. This module says where the manifests go and
 * what comes back in.
 */
import { parseDocument } from 'yaml';
import type { ComponentName } from '../../src/components/index.js';
import { OperationError } from '../../src/util/errors.js';

export const STATIC_PODS: ReadonlySet<ComponentName> = new Set<ComponentName>(['etcd', 'kube-controller-manager', 'kube-scheduler']);

/** Where the kubelet reads it. */
export const manifestIn = (name: ComponentName): string => `/etc/kubernetes/manifests/${name}.yaml`;
/** Where it waits while the component is stopped (outside the kubelet's directory). */
export const manifestAside = (name: ComponentName): string => `/etc/kubernetes/${name}.yaml.bak`;
/** Where the marked copy lands before it is moved in whole (outside the kubelet's directory). */
export const manifestNext = (name: ComponentName): string => `/etc/kubernetes/${name}.yaml.next`;

/** The annotation that makes each start of a static pod a new pod to the kubelet (markedManifest). */
export const RESTART_ANNOTATION = 'kwokts.x-k8s.io/restarted';

/**
 * The manifest to move back in, its RESTART_ANNOTATION set to `mark` (a fresh value per start).
 * The kubelet derives a static pod's UID from its content: the same manifest back again is the
 * same UID, the very pod it has just stopped, and its pod workers can hold such a pod back
 * (kubernetes/kubernetes#104648 and #113145; the likely cause of a kind CI run that waited two
 * minutes for etcd after an etcd restore). A changed annotation is a new UID, so a new pod.
 */
export function markedManifest(text: string, mark: string): string {
  const doc = parseDocument(text);
  const metadata = doc.get('metadata');
  if (doc.errors.length > 0 || metadata === undefined || metadata === null) {
    throw new OperationError(`a static pod manifest in the kind node does not read as a pod (${doc.errors[0]?.message.split('\n')[0] ?? 'no metadata'})`, {
      hint: 'the kind node was changed by hand; delete the cluster and create it again',
    });
  }
  doc.setIn(['metadata', 'annotations', RESTART_ANNOTATION], mark);
  return doc.toString();
}

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
