/**
 * Which pod in kube-system is a component's on a kind node, and whether it is ready: kubeadm's
 * static pods (the apiserver, kube-controller-manager, kube-scheduler, etcd) are named
 * `<component>-<node>`; what kwokts deploys (templates/kind) is a Deployment whose pods carry
 * `app=<component>`. kwokctl's kind runtime counts a component ready when its pod is Running with
 * every container ready, and so does this.
 */
import type { ComponentName } from '../../src/components/index.js';
import { buildConnection, HttpKubeClient, loadKubeConfig, podsResource, type KubeObject } from '../../src/kube/index.js';
import { silentLogger } from '../../src/util/log.js';
import type { KubeObjectView, RuntimeContext } from '../runtime.js';
import type { EtcdContainerView } from './static-pods.js';

/** What kwokts deploys into a kind cluster (templates/kind), as opposed to kubeadm's static pods. */
export const DEPLOYED: ReadonlySet<ComponentName> = new Set<ComponentName>(['kwok-controller', 'metrics-server', 'prometheus', 'jaeger']);

/** A pod of one of those Deployments (kube-system, app=<component>): its Deployment makes it. */
export function isDeployedPod(object: KubeObjectView): boolean {
  const app = object.metadata.labels?.app;
  return object.kind === 'Pod' && object.metadata.namespace === 'kube-system' && app !== undefined && (DEPLOYED as ReadonlySet<string>).has(app);
}

/** The annotation the kubelet puts on the API's copy (the mirror pod) of a static pod it runs. */
const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';

/**
 * The mirror pod of a static pod (kubeadm's apiserver, etcd, controller-manager, scheduler): the
 * kubelet makes and deletes it as it starts and stops the static pod, so a restore must not.
 */
export function isMirrorPod(object: KubeObjectView): boolean {
  return object.kind === 'Pod' && object.metadata.annotations?.[MIRROR_ANNOTATION] !== undefined;
}

interface PodView {
  metadata: { name?: string; labels?: Record<string, string> };
  status?: { phase?: string; containerStatuses?: Array<{ ready?: boolean }> };
}

/** Running, and every container ready (no container statuses yet: not ready). */
export function podReady(pod: PodView): boolean {
  const statuses = pod.status?.containerStatuses;
  return pod.status?.phase === 'Running' && statuses !== undefined && statuses.length > 0 && statuses.every((s) => s.ready === true);
}

/** Each component's readiness from the kube-system pods of node `node`; a component without a pod is not ready. */
export function componentReadiness(pods: readonly KubeObject[], names: readonly ComponentName[], node: string): Map<ComponentName, boolean> {
  const views = pods as readonly PodView[];
  return new Map(
    names.map((name) => {
      const own = DEPLOYED.has(name) ? views.filter((p) => p.metadata.labels?.['app'] === name) : views.filter((p) => p.metadata.name === `${name}-${node}`);
      return [name, own.some(podReady)];
    }),
  );
}

/** What the kubelet reports of etcd's container in its static pod on `node` (undefined: no such pod or container). */
export function etcdContainer(pods: readonly KubeObject[] | undefined, node: string): EtcdContainerView | undefined {
  const pod = pods?.find((p) => p.metadata.name === `etcd-${node}`) as { status?: { containerStatuses?: ContainerStatusView[] } } | undefined;
  const status = pod?.status?.containerStatuses?.find((c) => c.name === 'etcd');
  if (!status) return undefined;
  return { ...(status.state?.running?.startedAt ? { startedAt: status.state.running.startedAt } : {}), endedBefore: status.lastState?.terminated !== undefined };
}

interface ContainerStatusView {
  name?: string;
  state?: { running?: { startedAt?: string } };
  lastState?: { terminated?: unknown };
}

/**
 * The kube-system pods through the cluster's kubeconfig, in one quick try (no retries, a short
 * timeout): readiness is asked over and over while a cluster starts, and an apiserver that does
 * not answer yet means nothing in it counts as ready. undefined when it did not answer.
 */
export async function systemPods(ctx: RuntimeContext): Promise<KubeObject[] | undefined> {
  let client: HttpKubeClient | undefined;
  try {
    const { config } = loadKubeConfig({ kubeconfig: ctx.paths.kubeconfig, logger: silentLogger });
    client = new HttpKubeClient(await buildConnection(config), { maxSockets: 1, retry: { baseMs: 0, factor: 1, jitter: 0, capMs: 0, retries: 0 }, requestTimeoutMs: 2000 });
    return (await client.list(podsResource, { namespace: 'kube-system' })).items;
  } catch {
    return undefined;
  } finally {
    client?.close();
  }
}
