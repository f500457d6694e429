/**
 * kubeadm's static pods in a kind node (etcd, kube-controller-manager, kube-scheduler), stopped
 * one at a time while the node runs: the kubelet stops a static pod whose manifest leaves its
 * directory and starts one whose manifest comes in. This module says where the manifests go, how
 * a start is waited for, and how etcd's data is swapped under it (an etcd restore).
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

/** kubeadm's etcd data in the node, and where the data it replaces waits until a restore is done. */
export const ETCD_DATA = '/var/lib/etcd';
export const ETCD_DATA_ASIDE = '/var/lib/etcd.previous';

/** The shell that stops a static pod through the kubelet: its manifest out, its process waited out. */
export function stopStaticPod(name: ComponentName): string {
  return `mv ${manifestIn(name)} ${manifestAside(name)} && while pgrep -x ${name} >/dev/null; do sleep 0.1; done`;
}

/** The shell that starts it again (the same manifest back, unchanged); for etcd, waited for on its health. */
export function startStaticPod(name: ComponentName): string {
  return `if [ -f ${manifestAside(name)} ]; then mv ${manifestAside(name)} ${manifestIn(name)}; fi${name === 'etcd' ? ` && ${etcdHealthWait()}` : ''}`;
}

/**
 * How etcd is restarted on swapped data (an etcd restore):
 * - `kill`: etcd frozen (SIGSTOP, so it writes nothing more, not even a new WAL file into the new
 *   directory) while the data is swapped, then killed; the kubelet starts its container again as
 *   after any crash. The pod stays, so nothing waits on the apiserver, which cannot answer while
 *   etcd is down. Through its manifest (below), in one CI run in several a restore waited two
 *   minutes for an etcd the kubelet did not start again: a static pod whose same manifest comes back is
 *   the pod it has just terminated (kubernetes/kubernetes#104648), and a changed manifest made the
 *   kubelet first delete the old mirror pod, through that apiserver (tried, seen). But the kubelet
 *   starts a crashed container at once only when it has not restarted it within its back-off (10 s,
 *   doubling to 5 minutes with each restart): see `killRestartsAtOnce`.
 * - `manifest`: as stop() and start() stop and start a static pod, through the kubelet. Repeated
 *   every few seconds it restarts etcd in about ten, with no back-off.
 * (Restarting the kubelet to forget its back-off was tried: a kubelet starting while etcd is down
 * took one to two minutes to start anything.)
 */
export type EtcdRestart = 'kill' | 'manifest';

/** What the kubelet says of etcd's container: when the running one started, and whether an earlier one ended. */
export interface EtcdContainerView {
  startedAt?: string;
  endedBefore: boolean;
}

/** The kubelet's longest back-off before it starts a crashed container again, and a margin over it. */
const KUBELET_MAX_BACKOFF_MS = 300_000;
const BACKOFF_MARGIN_MS = 30_000;

/**
 * Whether a killed etcd is started again at once: the kubelet holds a container back when it dies
 * within the back-off of its last start (the back-off at most 5 minutes), and has nothing to hold
 * against a container that never ended before. Unknown (the apiserver did not say): no.
 */
export function killRestartsAtOnce(view: EtcdContainerView | undefined, nowMs: number): boolean {
  if (!view) return false;
  if (!view.endedBefore) return true;
  const started = view.startedAt ? Date.parse(view.startedAt) : Number.NaN;
  return Number.isFinite(started) && nowMs - started > KUBELET_MAX_BACKOFF_MS + BACKOFF_MARGIN_MS;
}

/**
 * The shell that stops etcd for a swap of its data, the `kill` way or the `manifest` way. A restore
 * swaps data only under a running etcd; a rollback also when etcd is down (the restored data may
 * have made it crash), as the kubelet then starts it on the data put back.
 */
export function stopEtcdForSwap(way: EtcdRestart, swap: 'restore' | 'rollback' = 'restore'): string {
  if (way === 'manifest') return stopStaticPod('etcd');
  return swap === 'restore' ? "{ pkill -STOP -x etcd || { echo 'etcd is not running in the node' >&2; exit 1; }; }" : '{ pkill -STOP -x etcd || true; }';
}

/** The shell that starts it again on the swapped data, waited for on its health. */
export function startEtcdAfterSwap(way: EtcdRestart): string {
  return way === 'kill' ? killEtcd() : startStaticPod('etcd');
}

/** The frozen etcd killed (if one runs) and its end waited for (so the health wait cannot reach it), then its restart by the kubelet waited for. */
function killEtcd(): string {
  return `for pid in $(pgrep -x etcd); do kill -KILL $pid; while kill -0 $pid 2>/dev/null; do sleep 0.05; done; done; ${etcdHealthWait()}`;
}

/** The shell that sets etcd's (stopped) data aside, an empty directory in its place for the new data. */
export function setEtcdDataAside(data = ETCD_DATA, aside = ETCD_DATA_ASIDE): string {
  return `rm -rf ${aside} && mv ${data} ${aside} && mkdir -m 700 ${data}`;
}

/** The shell that puts the data set aside back (a rollback): only data a restore set aside, else etcd's own stays. */
export function putEtcdDataBack(data = ETCD_DATA, aside = ETCD_DATA_ASIDE): string {
  return `if [ -d ${aside} ]; then rm -rf ${data} && mv ${aside} ${data}; fi`;
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
