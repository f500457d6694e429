/**
 * What a scheduler or autoscaler under test sees while `scale` runs: from a watch on the scale's
 * label, each copy's delay from being seen created to being seen Ready, and once a second the
 * backlog (created but not yet Ready) beside what was created in that second.
 */
import { Reflector } from '../../src/kube/client/reflector.js';
import type { KubeObject, ResourceRef } from '../../src/kube/client/types.js';
import { clientForKubeconfig } from '../../src/scale/scale.js';
import { silentLogger } from '../../src/util/log.js';
import { isReadyNode, isRunningPod } from './controller-load.js';
import { percentile } from './results.js';

export interface ReadinessStats {
  copies: number;
  /** Creation→Ready, seen by the watch, in ms. */
  p50: number;
  p99: number;
  max: number;
  /** The largest backlog seen at a one-second sample. */
  maxBacklog: number;
  /** Samples whose backlog was larger than what was created in the second before. */
  secondsOverRule: number;
  /** Samples in which the Ready count did not rise while copies were waiting. */
  secondsStalled: number;
}

export interface ReadinessTracker {
  /** Resolves when `count` copies made since the tracker started are Ready (checked each sample). */
  allReady(count: number): Promise<void>;
  stop(): Promise<ReadinessStats>;
}

export async function trackReadiness(kubeconfig: string, ref: ResourceRef, label: string): Promise<ReadinessTracker> {
  const isReady = ref.kind === 'Node' ? isReadyNode : isRunningPod;
  const client = await clientForKubeconfig(kubeconfig, 2);
  const seen = new Map<string, number>();
  const latencies: number[] = [];
  const done = new Set<string>();
  const stop = new AbortController();
  const reflector = new Reflector({
    client,
    ref,
    selectors: { labelSelector: `kwok.x-k8s.io/kwokctl-scale=${label}` },
    logger: silentLogger,
    transform: (object: KubeObject) => ({ metadata: { name: object.metadata.name, namespace: object.metadata.namespace, resourceVersion: object.metadata.resourceVersion }, ready: isReady(object) }),
    onEvent: (type, object) => {
      const name = object.metadata.name!;
      if (type === 'DELETED') return;
      const now = performance.now();
      if (!seen.has(name)) seen.set(name, now);
      if (object['ready'] === true && !done.has(name)) {
        done.add(name);
        latencies.push(now - seen.get(name)!);
      }
    },
  });
  const running = reflector.run(stop.signal);
  await reflector.waitForSync();
  // Copies that were there before the run are not its copies.
  const before = new Set(seen.keys());
  for (const name of before) done.add(name);
  latencies.length = 0;
  let maxBacklog = 0;
  let secondsOverRule = 0;
  let secondsStalled = 0;
  let lastSeen = seen.size;
  let lastDone = done.size;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const sampler = setInterval(() => {
    for (const w of [...waiters]) if (done.size - before.size >= w.count) (waiters.splice(waiters.indexOf(w), 1), w.resolve());
    const backlog = seen.size - done.size;
    const createdLastSecond = seen.size - lastSeen;
    maxBacklog = Math.max(maxBacklog, backlog);
    if (backlog > createdLastSecond && backlog > 0) secondsOverRule++;
    if (backlog > 0 && done.size === lastDone) secondsStalled++;
    lastSeen = seen.size;
    lastDone = done.size;
  }, 1000);
  return {
    allReady: (count) => new Promise((resolve) => waiters.push({ count, resolve })),
    async stop(): Promise<ReadinessStats> {
      clearInterval(sampler);
      stop.abort();
      await running;
      const sorted = [...latencies].sort((a, b) => a - b);
      return { copies: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN, maxBacklog, secondsOverRule, secondsStalled };
    },
  };
}
