/**
 * Which of a scale's copies are Ready, from a watch on the scale's label: a Node with condition
 * Ready=True, a Pod in phase Running. Other kinds have no Ready that `scale` knows, so they are not
 * paced.
 */
import { Reflector, type KubeClient, type KubeObject, type ResourceRef } from '../kube/index.js';
import { silentLogger } from '../util/log.js';
import { SCALE_LABEL } from './resource.js';

type ReadyTest = (object: KubeObject) => boolean;

const nodeReady: ReadyTest = (node) => {
  const conditions = (node['status'] as { conditions?: Array<{ type?: string; status?: string }> } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
};

const podRunning: ReadyTest = (pod) => (pod['status'] as { phase?: string } | undefined)?.phase === 'Running';

/** The Ready test for a kind, or undefined when scale does not pace it. */
export function readyTest(ref: ResourceRef): ReadyTest | undefined {
  if (ref.group !== '') return undefined;
  if (ref.kind === 'Node') return nodeReady;
  if (ref.kind === 'Pod') return podRunning;
  return undefined;
}

export interface ReadinessWatchOptions {
  client: KubeClient;
  ref: ResourceRef;
  /** The scale's name prefix (the label's value). */
  name: string;
  namespace?: string;
  /** Called once per copy each time it is seen Ready. */
  onReady: (name: string) => void;
}

/**
 * Starts watching; the returned function stops it. The watch keeps only each copy's name, so a
 * scale of many thousands holds little.
 */
export function watchReadiness(options: ReadinessWatchOptions & { isReady: ReadyTest }, signal?: AbortSignal): () => void {
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const reflector = new Reflector({
    client: options.client,
    ref: options.ref,
    selectors: { labelSelector: `${SCALE_LABEL}=${options.name}`, ...(options.namespace ? { namespace: options.namespace } : {}) },
    logger: silentLogger,
    transform: (object) => ({ metadata: { name: object.metadata.name, namespace: object.metadata.namespace, resourceVersion: object.metadata.resourceVersion }, ready: options.isReady(object) }),
    onEvent: (type, object) => {
      if (type !== 'DELETED' && object['ready'] === true && object.metadata.name) options.onReady(object.metadata.name);
    },
  });
  // The reflector never throws for API errors (it retries); a watch that never works only leaves
  // the pacer without Ready news, and the pacer's stall rule stops pacing.
  void reflector.run(stop.signal).catch(() => undefined);
  return () => {
    signal?.removeEventListener('abort', onAbort);
    stop.abort();
  };
}
