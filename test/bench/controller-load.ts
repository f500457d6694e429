/**
 * The load shared by the controller benchmarks (test/bench/controller.ts and
 * test/e2e/kwok-controller-bench.ts), modelled on kwok's test/e2e/benchmark.go: N nodes until all
 * Ready, M pods bound to one node until all Running, then a graceful delete of every pod until all
 * are gone (the controller's pod-delete stage finishes them). Objects are created by a bounded
 * number of concurrent HTTP requests straight to the apiserver.
 */
import { readFileSync } from 'node:fs';
import type { HttpKubeClient } from '../../src/kube/client/http-client.js';
import { Reflector } from '../../src/kube/client/reflector.js';
import { nodesResource, podsResource } from '../../src/kube/client/resources.js';
import type { KubeObject } from '../../src/kube/client/types.js';
import { silentLogger } from '../../src/util/log.js';
import { forEachLimited as forEachPaced, Pacer, Turns } from '../../src/scale/pacer.js';
import { percentile } from './results.js';

export async function forEachLimited(count: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

export function isReadyNode(node: KubeObject): boolean {
  const conditions = (node['status'] as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

/** The taints kube-controller-manager keeps on a node until it has seen the node Ready. */
const NOT_READY_TAINTS = new Set(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);

/** Ready, and kube-controller-manager has taken its not-ready taints off: done with, as far as kcm is concerned. */
export function isSettledNode(node: KubeObject): boolean {
  const taints = (node['spec'] as { taints?: { key: string }[] } | undefined)?.taints ?? [];
  return isReadyNode(node) && !taints.some((t) => NOT_READY_TAINTS.has(t.key));
}

export function isRunningPod(pod: KubeObject): boolean {
  return (pod['status'] as { phase?: string } | undefined)?.phase === 'Running';
}

/** utime+stime of a process (and its waited-for children), from /proc/<pid>/stat (Linux). */
export function cpuSeconds(pid: number): number {
  return statCpuSeconds(`/proc/${pid}/stat`);
}

/**
 * utime+stime of a process's main thread alone, from /proc/<pid>/task/<pid>/stat (Linux). For a
 * Node process that is the JavaScript (and the I/O it does); the rest of cpuSeconds is its other
 * threads: V8's optimizing compiler and GC helpers, libuv's pool.
 */
export function mainThreadCpuSeconds(pid: number): number {
  return statCpuSeconds(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuSeconds(file: string): number {
  try {
    const fields = readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Peak resident set size in MiB, VmHWM from /proc/<pid>/status (Linux). */
export function peakRssMiB(pid: number): number {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

export const nodeName = (i: number): string => `fake-node-${String(i).padStart(6, '0')}`;
export const podName = (i: number): string => `fake-pod-${String(i).padStart(6, '0')}`;

export interface LoadOptions {
  nodes: number;
  pods: number;
  concurrency: number;
  /** Give up on a phase after this many seconds (the result then says so). */
  timeoutSeconds?: number;
  /** Called after each phase with a human-readable line. */
  report?: (line: string) => void;
  /** Called as each phase starts and once at the end, to sample per-process CPU between them. */
  mark?: (phase: LoadPhase | 'end') => void;
  /**
   * Between the nodes and the pods, wait (outside both phases) until kube-controller-manager has
   * taken the not-ready taint off every node. A controller that makes nodes Ready faster than kcm
   * follows leaves kcm's node writes (a GET and PATCHes per node) for the pods phase, which then
   * measures kcm's backlog, not pods. Default true; the wait is reported as its own figure.
   */
  settle?: boolean;
  /**
   * Create the pods without a node and leave them to kube-scheduler (which the cluster must run),
   * as in a cluster where users create Deployments: binding gives each pod a PodScheduled
   * condition before the controller sees it, so pod-ready's conditions merge into a list.
   */
  scheduler?: boolean;
  /**
   * Pace the creator as `kwokts scale` paces itself (src/scale/pacer.ts): a new object starts only
   * while fewer than max(32, 0.4 × those made Ready in the last second) wait to be Ready.
   */
  pace?: boolean;
}

export type LoadPhase = 'nodes' | 'settle' | 'pods' | 'delete';

export interface PhaseResult {
  /** Seconds from the first create/delete request until the phase was done (NaN on timeout). */
  seconds: number;
  /** Seconds the requests themselves took. */
  requestSeconds: number;
  /** How many objects reached the target state (all of them unless timed out). */
  done: number;
  /** [seconds since the phase started, objects in the target state], at each change (for the bench picture). */
  series: Array<[number, number]>;
  /** Creation phases: each object's delay from its create request to the target state. */
  latency?: Latency;
}

export interface Latency {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The most objects created (requested) but not yet in the target state, sampled every 100 ms. */
  maxBacklog: number;
}

/**
 * Creates `count` objects, `concurrency` requests at a time, paced when asked; `reached` is told
 * of each object in the target state (from the phase's watch) and keeps the latencies.
 */
class Creation {
  private readonly started = new Map<string, number>();
  private readonly latencies: number[] = [];
  private readonly pacer: Pacer | undefined;
  private readonly turns = new Turns();
  private maxBacklog = 0;
  private readonly sampler: NodeJS.Timeout;

  constructor(pace: boolean) {
    this.pacer = pace ? new Pacer() : undefined;
    this.sampler = setInterval(() => (this.maxBacklog = Math.max(this.maxBacklog, this.started.size - this.latencies.length)), 100);
    this.sampler.unref();
  }

  reached(name: string): void {
    const at = this.started.get(name);
    if (at === undefined || at < 0) return;
    this.latencies.push(performance.now() - at);
    this.started.set(name, -1);
    this.pacer?.ready(name);
    this.turns.wake();
  }

  async run(count: number, concurrency: number, nameOf: (i: number) => string, create: (i: number) => Promise<void>): Promise<void> {
    await forEachPaced(Array.from({ length: count }, (_, i) => i), concurrency, async (i) => {
      const name = nameOf(i);
      const pacer = this.pacer;
      if (pacer) await this.turns.waitFor(() => pacer.mayStart() && (pacer.started(name), true));
      this.started.set(name, performance.now());
      await create(i);
    });
  }

  latency(): Latency {
    clearInterval(this.sampler);
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return { p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: sorted.at(-1) ?? NaN, maxBacklog: this.maxBacklog };
  }
}

function describeLatency(l: Latency): string {
  return `p50 ${l.p50Ms.toFixed(0)} ms, p99 ${l.p99Ms.toFixed(0)} ms, max ${l.maxMs.toFixed(0)} ms after the request; at most ${l.maxBacklog} waiting`;
}

export interface LoadResult {
  nodesReady: PhaseResult;
  /** From the last node Ready until kcm was done with every node (see LoadOptions.settle). */
  nodesSettled?: PhaseResult;
  podsRunning?: PhaseResult;
  podsDeleted?: PhaseResult;
}

/** Samples count() every 100 ms from start, keeping a point whenever it changed. */
function track(count: () => number, start: number): () => Array<[number, number]> {
  const points: Array<[number, number]> = [[0, count()]];
  const sample = (): void => {
    const n = count();
    if (n !== points.at(-1)![1]) points.push([(performance.now() - start) / 1000, n]);
  };
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    sample();
    return points;
  };
}

async function waitUntil(done: () => boolean, start: number, timeoutSeconds: number): Promise<number> {
  while (!done()) {
    if ((performance.now() - start) / 1000 > timeoutSeconds) return NaN;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return (performance.now() - start) / 1000;
}

/** Runs the three phases; stops after a phase that timed out. Leaves the objects behind. */
export async function runControllerLoad(client: HttpKubeClient, options: LoadOptions): Promise<LoadResult> {
  const { nodes, pods, concurrency } = options;
  const timeout = options.timeoutSeconds ?? Infinity;
  const report = options.report ?? (() => {});
  const mark = options.mark ?? (() => {});
  const abort = new AbortController();
  try {
    const readyNodes = new Set<string>();
    const settledNodes = new Set<string>();
    const nodeCreation = new Creation(options.pace ?? false);
    const nodeWatch = new Reflector({
      client,
      ref: nodesResource,
      logger: silentLogger,
      onEvent: (type, node) => {
        const name = node.metadata.name ?? '';
        if (type !== 'DELETED' && isReadyNode(node)) {
          readyNodes.add(name);
          nodeCreation.reached(name);
        }
        if (type !== 'DELETED' && isSettledNode(node)) settledNodes.add(name);
        else settledNodes.delete(name);
      },
    });
    void nodeWatch.run(abort.signal);
    await nodeWatch.waitForSync();
    mark('nodes');
    const nodeStart = performance.now();
    const nodeSeries = track(() => readyNodes.size, nodeStart);
    await nodeCreation.run(nodes, concurrency, nodeName, async (i) => {
      await client.create(nodesResource, {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: nodeName(i), labels: { type: 'kwok' }, annotations: { 'kwok.x-k8s.io/node': 'fake' } },
        spec: { taints: [{ key: 'kwok.x-k8s.io/node', value: 'fake', effect: 'NoSchedule' }] },
      });
    });
    const nodesCreated = (performance.now() - nodeStart) / 1000;
    const nodesDone = await waitUntil(() => readyNodes.size >= nodes, nodeStart, timeout);
    const nodeLatency = nodeCreation.latency();
    const result: LoadResult = { nodesReady: { seconds: nodesDone, requestSeconds: nodesCreated, done: readyNodes.size, series: nodeSeries(), latency: nodeLatency } };
    report(`nodes: ${readyNodes.size}/${nodes} Ready in ${nodesDone.toFixed(1)} s (creation took ${nodesCreated.toFixed(1)} s; ${describeLatency(nodeLatency)})`);
    if (Number.isNaN(nodesDone)) {
      mark('end');
      return result;
    }

    if ((options.settle ?? true) && settledNodes.size >= nodes) {
      // kcm kept up: no wait, and no CPU sample of its own (an empty one only adds noise).
      result.nodesSettled = { seconds: 0, requestSeconds: 0, done: settledNodes.size, series: [[0, settledNodes.size]] };
      report(`nodes: kube-controller-manager had taken its not-ready taints off all ${nodes} nodes when the last was Ready`);
    } else if (options.settle ?? true) {
      mark('settle');
      const settleStart = performance.now();
      const settleSeries = track(() => settledNodes.size, settleStart);
      const settled = await waitUntil(() => settledNodes.size >= nodes, settleStart, timeout);
      result.nodesSettled = { seconds: settled, requestSeconds: 0, done: settledNodes.size, series: settleSeries() };
      report(`nodes: kube-controller-manager took its not-ready taints off ${settledNodes.size}/${nodes} nodes ${settled.toFixed(1)} s after the last was Ready`);
      if (Number.isNaN(settled)) {
        mark('end');
        return result;
      }
    }

    // Pods, all on one node as in kwok's benchmark (or wherever kube-scheduler puts them).
    const running = new Set<string>();
    const present = new Set<string>();
    const podCreation = new Creation(options.pace ?? false);
    const podWatch = new Reflector({
      client,
      ref: podsResource,
      logger: silentLogger,
      onEvent: (type, pod) => {
        const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
        if (type === 'DELETED') {
          present.delete(key);
          return;
        }
        present.add(key);
        if (isRunningPod(pod)) {
          running.add(key);
          podCreation.reached(pod.metadata.name ?? '');
        }
      },
    });
    void podWatch.run(abort.signal);
    await podWatch.waitForSync();
    mark('pods');
    const podStart = performance.now();
    const podSeries = track(() => running.size, podStart);
    await podCreation.run(pods, concurrency, podName, async (i) => {
      await client.create(podsResource, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: podName(i), namespace: 'default' },
        spec: {
          ...(options.scheduler ? {} : { nodeName: nodeName(0) }),
          containers: [{ name: 'fake-container', image: 'fake-image' }],
          tolerations: [{ key: 'kwok.x-k8s.io/node', operator: 'Exists', effect: 'NoSchedule' }],
        },
      });
    });
    const podsCreated = (performance.now() - podStart) / 1000;
    const podsDone = await waitUntil(() => running.size >= pods, podStart, timeout);
    const podLatency = podCreation.latency();
    result.podsRunning = { seconds: podsDone, requestSeconds: podsCreated, done: running.size, series: podSeries(), latency: podLatency };
    report(`pods: ${running.size}/${pods} Running in ${podsDone.toFixed(1)} s (creation took ${podsCreated.toFixed(1)} s; ${describeLatency(podLatency)})`);
    if (Number.isNaN(podsDone)) {
      mark('end');
      return result;
    }

    mark('delete');
    const deleteStart = performance.now();
    const deleteSeries = track(() => pods - present.size, deleteStart);
    await forEachLimited(pods, concurrency, async (i) => {
      await client.delete(podsResource, { name: podName(i), namespace: 'default' });
    });
    const deletesSent = (performance.now() - deleteStart) / 1000;
    const deleteDone = await waitUntil(() => present.size === 0, deleteStart, timeout);
    result.podsDeleted = { seconds: deleteDone, requestSeconds: deletesSent, done: pods - present.size, series: deleteSeries() };
    mark('end');
    report(`pods: ${pods - present.size}/${pods} deleted in ${deleteDone.toFixed(1)} s (delete requests took ${deletesSent.toFixed(1)} s)`);
    return result;
  } finally {
    abort.abort();
  }
}
