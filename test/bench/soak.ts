/**
 * `npm run bench -- soak [--nodes 2000] [--pods 20000] [--minutes 30] [--tool ours|kwok|both]
 *   [--heartbeat <duration>] [--warmup 5m] [--every 1m] [--concurrency 32]`
 *
 * A soak of the kwok controller: does anything grow, slow down or go stale when a cluster runs for
 * half an hour? Per tool (ours: kwokts's embedded controller; kwok: Go kwok, KWOK=/path or
 * ~/go/bin/kwok), one after the other on a fresh cluster each:
 *   - `kwokts create cluster --disable kwok-controller --disable-qps-limits` (kube-scheduler runs:
 *     it places the pods), then the controller started by the bench (./controller.ts's flags);
 *   - from then on (t = 0) for --minutes: `kwokts scale node --replicas N` (kwokctl's node template,
 *     templates/resources/node.yaml: dual-stack, one IPv4 and one IPv6 InternalIP), and once every
 *     node is Ready, `kwokts scale pod --replicas M` (no nodeName: the scheduler spreads them);
 *   - a sample at t = 0 and every --every (1 minute): RSS (VmRSS) and CPU (utime+stime over the
 *     interval, % of one core) of every process (the components from the cluster's pid files and
 *     the controller), nodes NotReady, late node leases (renewTime + leaseDurationSeconds in the
 *     past), pods Running, node status writes the apiserver refused (apiserver_request_total for
 *     nodes/status with a 4xx/5xx code), and the nodes whose heartbeat advanced: whose Ready
 *     condition's lastHeartbeatTime moved past the first one the bench saw for the node (the one
 *     node-initialize wrote when the node was created) by half the heartbeat stage's delay or more
 *     (see observeNode), and the nodes that still have both
 *     InternalIPs (a controller that loses them makes the heartbeat count meaningless). One plain
 *     line per sample.
 * Then the RSS slope of each process after warm-up: a least-squares line through the samples from
 * --warmup (5 minutes; half the run when it is shorter than 10) or from the end of the load
 * (every node Ready, every pod Running) when that is later, as % per hour of their mean.
 *
 * The heartbeat stage (node-heartbeat-with-lease) waits 600 s plus up to 10 s of jitter after each
 * status change, so a run must last well over 10 minutes for every node to beat once (the default
 * for a soak); --heartbeat 30s gives the controller a copy of the stage with its delay and jitter
 * scaled down to that, for a short run. Ours runs with templates/stages (a cluster's default set:
 * src/cluster/default-stages.ts); Go kwok with kwok's own (kustomize/stage/node/fast,
 * node/heartbeat-with-lease and pod/fast from its module source: KWOK_SOURCE=/path, else
 * sigs.k8s.io/kwok@v0.8.0 in $GOMODCACHE or ~/go/pkg/mod; ours, with a note, when absent).
 *
 * The JSON (./results.ts, bench "soak") is rewritten after every sample, so a run cut short keeps
 * what it measured: series per tool for each count and each process's RSS MiB and CPU %; timings
 * for the load (nodes Ready, pods Running) and, one sample per node, the seconds from a node's
 * first heartbeat (node-initialize's) to its next (null: never advanced); notes with the heartbeat
 * count, the fitted slopes, the worst NotReady and late-lease counts and the refused writes.
 * SIGINT/SIGTERM end the run at once (the cluster is deleted; KWOKTS_BENCH_KEEP=1 keeps it).
 * Needs `npm run build`. Never a test: nothing here passes or fails.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { parseGoDurationMs } from '../../src/gocompat/go-duration.js';
import { buildConnection } from '../../src/kube/client/connection.js';
import { HttpKubeClient } from '../../src/kube/client/http-client.js';
import { Reflector } from '../../src/kube/client/reflector.js';
import { leasesResource, nodesResource, podsResource } from '../../src/kube/client/resources.js';
import type { KubeObject } from '../../src/kube/client/types.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig/load.js';
import { silentLogger } from '../../src/util/log.js';
import { benchEnv, launchController, tearDown } from './bench-cluster.js';
import { isRunningPod } from './controller-load.js';
import { apiserverCounters, clusterPaths, kwokts, waitHealthy } from './controller.js';
import { clock, fixed, signed, sleep } from './lines.js';
import { startLongRun } from './long-run.js';
import { ProcessSampler } from './process-sampler.js';
import { newResults, timing, writeResults, type BenchResults, type Series } from './results.js';
import { componentPids, leaseFigures, numberOption, option, slim } from './scale-out.js';
import { toolChoice, toolRuns, type ToolRun } from './tool-runs.js';

const HEARTBEAT_STAGE = 'node-heartbeat-with-lease';
const LEASE_DURATION_SECONDS = 200;

interface SoakOptions {
  nodes: number;
  pods: number;
  minutes: number;
  heartbeatMs: number | undefined;
  warmupMs: number;
  everyMs: number;
  concurrency: number;
}

/** What the bench knows of one node: Ready or not, its addresses, its Ready heartbeats. */
interface NodeState {
  ready: boolean;
  /** Has an IPv4 and an IPv6 InternalIP now. */
  dualStack: boolean;
  /** Had them when the bench first saw it (as `kwokts scale node` made it). */
  createdDualStack: boolean;
  /** The first Ready lastHeartbeatTime seen (ms): node-initialize's. */
  firstBeat?: number;
  /** The latest Ready lastHeartbeatTime seen (ms). */
  lastBeat?: number;
  /** The first lastHeartbeatTime at least the minimum gap after firstBeat (ms): the first heartbeat. */
  secondBeat?: number;
}

interface Condition {
  type?: string;
  status?: string;
  lastHeartbeatTime?: string;
}

interface Address {
  type?: string;
  address?: string;
}

/** Only the Ready condition and the addresses: all the heartbeat count needs. */
function slimNode(node: KubeObject): KubeObject {
  const { name, resourceVersion, creationTimestamp } = node.metadata;
  const status = (node['status'] as { conditions?: Condition[]; addresses?: Address[] } | undefined) ?? {};
  const ready = (status.conditions ?? []).filter((c) => c.type === 'Ready').map(({ type, status: s, lastHeartbeatTime }) => ({ type, status: s, lastHeartbeatTime }));
  return { metadata: { name, resourceVersion, creationTimestamp }, status: { conditions: ready, addresses: status.addresses ?? [] } } as KubeObject;
}

function slimPod(pod: KubeObject): KubeObject {
  const { name, namespace, resourceVersion } = pod.metadata;
  return { metadata: { name, namespace, resourceVersion }, status: { phase: (pod['status'] as { phase?: string } | undefined)?.phase } } as KubeObject;
}

/** One IPv4 and one IPv6 InternalIP, as kwokctl's node template makes them. */
function isDualStack(addresses: readonly Address[]): boolean {
  const internal = addresses.filter((a) => a.type === 'InternalIP').map((a) => a.address ?? '');
  return internal.some((a) => a.includes('.')) && internal.some((a) => a.includes(':'));
}

/**
 * Folds a node's watch event into what the bench knows of it. A heartbeat is a Ready
 * lastHeartbeatTime at least `minGapMs` after the first one: a controller that plays
 * node-initialize twice (it saw the node's version from before its first play) writes a second
 * lastHeartbeatTime a second or so after the first, which no heartbeat stage could have.
 */
export function observeNode(state: NodeState | undefined, node: KubeObject, minGapMs: number): NodeState {
  const status = (node['status'] as { conditions?: Condition[]; addresses?: Address[] } | undefined) ?? {};
  const ready = (status.conditions ?? []).find((c) => c.type === 'Ready');
  const dualStack = isDualStack(status.addresses ?? []);
  const next: NodeState = { ...(state ?? {}), ready: ready?.status === 'True', dualStack, createdDualStack: state?.createdDualStack ?? dualStack };
  const beat = ready?.lastHeartbeatTime ? Date.parse(ready.lastHeartbeatTime) : NaN;
  if (ready?.status === 'True' && Number.isFinite(beat)) {
    next.firstBeat ??= beat;
    next.lastBeat = Math.max(next.lastBeat ?? beat, beat);
    if (next.secondBeat === undefined && beat - next.firstBeat >= minGapMs) next.secondBeat = beat;
  }
  return next;
}

/**
 * The least-squares line through the points from `fromSeconds` on: its slope per hour, the mean
 * value and the slope as % per hour of that mean. NaN for fewer than three points.
 */
export function slopePerHour(points: ReadonlyArray<readonly [number, number]>, fromSeconds: number): { perHour: number; mean: number; percentPerHour: number; n: number } {
  const used = points.filter(([t, v]) => t >= fromSeconds && Number.isFinite(v));
  const n = used.length;
  if (n < 3) return { perHour: NaN, mean: NaN, percentPerHour: NaN, n };
  const mt = used.reduce((s, [t]) => s + t, 0) / n;
  const mv = used.reduce((s, [, v]) => s + v, 0) / n;
  const sxx = used.reduce((s, [t]) => s + (t - mt) ** 2, 0);
  const sxy = used.reduce((s, [t, v]) => s + (t - mt) * (v - mv), 0);
  const perHour = sxx > 0 ? (sxy / sxx) * 3600 : NaN;
  return { perHour, mean: mv, percentPerHour: (100 * perHour) / mv, n };
}

/**
 * The stage YAML with the heartbeat stage's delay set to `ms` and its jitter scaled by the same
 * factor (600 s + up to 10 s becomes 30 s + up to 0.5 s for 30 s). Throws when there is no such stage.
 */
export function withHeartbeatDelay(yaml: string, ms: number): string {
  const docs = parseAllDocuments(yaml);
  let found = false;
  for (const doc of docs) {
    if ('errors' in doc && doc.errors.length > 0) throw new Error(`stage YAML: ${doc.errors[0]!.message}`);
    if (doc.getIn(['metadata', 'name']) !== HEARTBEAT_STAGE) continue;
    const duration = Number(doc.getIn(['spec', 'delay', 'durationMilliseconds']));
    const jitter = doc.getIn(['spec', 'delay', 'jitterDurationMilliseconds']);
    doc.setIn(['spec', 'delay', 'durationMilliseconds'], ms);
    if (jitter !== undefined && duration > 0) doc.setIn(['spec', 'delay', 'jitterDurationMilliseconds'], Math.round((Number(jitter) * ms) / duration));
    found = true;
  }
  if (!found) throw new Error(`no ${HEARTBEAT_STAGE} stage in the stage YAML`);
  // A document after an explicit marker prints with it: drop it, the join puts one back.
  return docs.map((d) => String(d).replace(/^---\s*\n/, '').trim()).join('\n---\n') + '\n';
}

/** The heartbeat stage's delay and jitter in ms (NaN where absent). */
function stageDelay(yaml: string): { durationMs: number; jitterMs: number; text: string } {
  for (const doc of parseAllDocuments(yaml)) {
    if ('errors' in doc && doc.errors.length > 0) continue;
    if (doc.getIn(['metadata', 'name']) !== HEARTBEAT_STAGE) continue;
    const d = Number(doc.getIn(['spec', 'delay', 'durationMilliseconds']));
    const j = Number(doc.getIn(['spec', 'delay', 'jitterDurationMilliseconds']));
    return { durationMs: d, jitterMs: j, text: Number.isFinite(j) && j > d ? `${d / 1000}–${j / 1000} s` : `${d / 1000} s` };
  }
  return { durationMs: NaN, jitterMs: NaN, text: 'none' };
}

/** Refused writes of node status by code ("422": 40), from the apiserver's request counters. */
async function refusedNodeStatusWrites(kubeconfig: string): Promise<Record<string, number> | undefined> {
  const counters = await apiserverCounters(kubeconfig);
  if (!counters) return undefined;
  const refused: Record<string, number> = {};
  for (const [key, count] of counters.requests) {
    const match = /^\S+ nodes\/status (\d{3})$/.exec(key);
    if (match && Number(match[1]) >= 400) refused[match[1]!] = (refused[match[1]!] ?? 0) + count;
  }
  return refused;
}

async function soakOne(run: ToolRun, options: SoakOptions, results: BenchResults, save: () => void, logDir: string, stop: AbortSignal): Promise<void> {
  const label = run.controller.label;
  const cluster = `soak-${run.tool}`;
  const dir = mkdtempSync(join(tmpdir(), `kwokts-bench-${cluster}-`));
  const env = benchEnv(dir);
  const say = (line: string): void => void process.stdout.write(`[${clock()}] ${label} ${line}\n`);
  const note = (line: string): void => void results.notes.push(`${label}: ${line}`);
  const log = join(logDir, `${run.tool}.log`);
  // Ends the run: the minutes are up, a signal came, or the controller died.
  const end = new AbortController();
  const onStop = (): void => end.abort();
  stop.addEventListener('abort', onStop, { once: true });
  const watches = new AbortController();
  let child: ChildProcess | undefined;
  let client: HttpKubeClient | undefined;
  const delay = stageDelay(run.stages);
  // Half the stage's delay: no heartbeat comes sooner, a second node-initialize much sooner.
  const minGapMs = Number.isFinite(delay.durationMs) ? delay.durationMs / 2 : 1000;
  note(`stages ${run.stagesFrom}; heartbeat delay ${delay.text} (a heartbeat counts when lastHeartbeatTime moves ${minGapMs / 1000} s or more past node-initialize's); controller log ${log}`);
  try {
    const createStart = performance.now();
    await kwokts(['create', 'cluster', '--disable', 'kwok-controller', '--disable-qps-limits', '--etcd-quota-backend-size', '8Gi', '--wait', '5m'], env, cluster, stop);
    const clusterDir = join(env.KWOK_WORKDIR, 'clusters', cluster);
    const paths = clusterPaths(clusterDir);
    const launched = await launchController(run, paths, LEASE_DURATION_SECONDS, log, env);
    child = launched.child;
    const controllerChild = child;
    controllerChild.once('exit', (code, signal) => {
      if (end.signal.aborted) return;
      say(`controller exited (${code ?? signal}); the run ends`);
      note(`the controller exited (${code ?? signal}) before the run's end`);
      end.abort();
    });
    await waitHealthy(launched.port, controllerChild, 120);
    say(`cluster ${cluster} and controller up in ${((performance.now() - createStart) / 1000).toFixed(1)} s (${clusterDir})`);

    const { config } = loadKubeConfig({ kubeconfig: paths.kubeconfig, logger: silentLogger });
    client = new HttpKubeClient(await buildConnection(config), { maxSockets: 8 });
    const nodes = new Map<string, NodeState>();
    let running = 0;
    const podsRunning = new Set<string>();
    const nodeWatch = new Reflector({ client, ref: nodesResource, logger: silentLogger, transform: slimNode, onEvent: (type, node) => {
      const name = node.metadata.name ?? '';
      if (type === 'DELETED') nodes.delete(name);
      else nodes.set(name, observeNode(nodes.get(name), node, minGapMs));
    } });
    const podWatch = new Reflector({ client, ref: podsResource, logger: silentLogger, transform: slimPod, onEvent: (type, pod) => {
      const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
      if (type !== 'DELETED' && isRunningPod(pod)) podsRunning.add(key);
      else podsRunning.delete(key);
      running = podsRunning.size;
    } });
    const leaseWatch = new Reflector({ client, ref: leasesResource, selectors: { namespace: 'kube-node-lease' }, logger: silentLogger, transform: slim, onEvent: () => {} });
    for (const watch of [nodeWatch, podWatch, leaseWatch]) void watch.run(watches.signal);
    await Promise.all([nodeWatch.waitForSync(), podWatch.waitForSync(), leaseWatch.waitForSync()]);

    const t0 = performance.now();
    const seconds = (): number => (performance.now() - t0) / 1000;
    const readyCount = (): number => [...nodes.values()].filter((n) => n.ready).length;
    // The load, beside the samples: nodes, then (all Ready) pods; each timed from t = 0.
    const load: { nodesReadyS?: number; podsRunningS?: number } = {};
    const waitFor = async (done: () => boolean): Promise<boolean> => {
      while (!done()) {
        if (end.signal.aborted) return false;
        await sleep(250, end.signal);
      }
      return true;
    };
    const loading = (async (): Promise<void> => {
      await kwokts(['scale', 'node', '--replicas', String(options.nodes), '--concurrency', String(options.concurrency)], env, cluster, end.signal);
      say(`${options.nodes} nodes created in ${seconds().toFixed(1)} s (kwokts scale node)`);
      if (!(await waitFor(() => readyCount() >= options.nodes))) return;
      load.nodesReadyS = seconds();
      const states = [...nodes.values()];
      say(`${options.nodes} nodes Ready at ${load.nodesReadyS.toFixed(1)} s; dual-stack (an IPv4 and an IPv6 InternalIP) when created ${states.filter((n) => n.createdDualStack).length}, now ${states.filter((n) => n.dualStack).length} of ${states.length}`);
      if (options.pods > 0) {
        const podStart = seconds();
        await kwokts(['scale', 'pod', '--replicas', String(options.pods), '--concurrency', String(options.concurrency)], env, cluster, end.signal);
        say(`${options.pods} pods created in ${(seconds() - podStart).toFixed(1)} s (kwokts scale pod)`);
        if (!(await waitFor(() => running >= options.pods))) return;
      }
      load.podsRunningS = seconds();
      if (options.pods > 0) say(`${options.pods} pods Running at ${load.podsRunningS.toFixed(1)} s`);
    })().catch((error: unknown) => {
      if (end.signal.aborted) return;
      const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      say(`load failed: ${message}`);
      note(`the load failed: ${message}`);
    });

    // The series of this run, filled in place: every save writes what is there so far.
    const series = new Map<string, Series>();
    const point = (name: string, target: number, t: number, value: number): void => {
      let s = series.get(name);
      if (!s) {
        s = { name, tool: label, target, points: [] };
        series.set(name, s);
        results.series.push(s);
      }
      s.points.push([Math.round(t * 10) / 10, Math.round(value * 10) / 10]);
    };
    const processes = new ProcessSampler();
    let worst: { notReady: number; late: number } | undefined;
    let refused: Record<string, number> = {};
    const sample = async (): Promise<void> => {
      const t = seconds();
      const pids: Record<string, number> = componentPids(clusterDir);
      if (controllerChild.pid !== undefined && controllerChild.exitCode === null) pids['controller'] = controllerChild.pid;
      const { rss, cpu } = processes.sample(pids, t, (series, value) => point(series, 0, t, value));
      const states = [...nodes.values()];
      const ready = states.filter((n) => n.ready).length;
      const notReady = states.length - ready;
      const advanced = states.filter((n) => n.secondBeat !== undefined).length;
      const dualStack = states.filter((n) => n.dualStack).length;
      const leases = leaseFigures([...leaseWatch.store.values()].filter((l) => nodes.has(l.metadata.name ?? '')), Date.now());
      refused = (await refusedNodeStatusWrites(paths.kubeconfig)) ?? refused;
      const refusedTotal = Object.values(refused).reduce((a, b) => a + b, 0);
      if (load.nodesReadyS !== undefined) worst = { notReady: Math.max(worst?.notReady ?? 0, notReady), late: Math.max(worst?.late ?? 0, leases.stale) };
      point('nodes Ready', options.nodes, t, ready);
      point('nodes NotReady', 0, t, notReady);
      point('late node leases', 0, t, leases.stale);
      point('nodes whose heartbeat advanced', options.nodes, t, advanced);
      point('nodes still dual-stack', options.nodes, t, dualStack);
      point('pods Running', options.pods, t, running);
      point('node status writes refused', 0, t, refusedTotal);
      const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
      say(
        `${(t / 60).toFixed(1)} min: nodes ${states.length} Ready ${ready} NotReady ${notReady} | late leases ${leases.stale}/${leases.total} (oldest renewal ${fixed(leases.oldestS)} s ago) | ` +
          `heartbeat advanced ${advanced} of ${states.length} | dual-stack ${dualStack} | pods Running ${running}/${options.pods} | node status writes refused ${refusedTotal}${refusedTotal ? ` (${Object.entries(refused).map(([c, n]) => `${c}×${n}`).join(' ')})` : ''} | ` +
          `RSS MiB ${rss.join(', ')} | CPU % ${cpu.join(', ') || '-'} | load ${load1}`,
      );
      save();
    };

    const runMs = options.minutes * 60_000;
    for (let k = 0; k * options.everyMs <= runMs + 1; k++) {
      await sleep(t0 + k * options.everyMs - performance.now(), end.signal);
      if (end.signal.aborted) break;
      await sample();
    }
    const cut = end.signal.aborted;
    if (cut) {
      say(`stopped at ${(seconds() / 60).toFixed(1)} min; a last sample`);
      await sample().catch(() => {});
    }
    end.abort();
    await loading;

    // The figures of the run.
    const states = [...nodes.entries()].sort(([a], [b]) => a.localeCompare(b));
    const advanced = states.filter(([, n]) => n.secondBeat !== undefined).length;
    const firstHeartbeat = states.map(([, n]) => (n.secondBeat !== undefined && n.firstBeat !== undefined ? (n.secondBeat - n.firstBeat) / 1000 : NaN));
    const heartbeatTiming = timing('seconds from node-initialize to the first heartbeat, per node', label, 's', firstHeartbeat);
    results.timings.push(timing(`${options.nodes} nodes Ready (from t = 0)`, label, 's', [load.nodesReadyS ?? NaN]));
    if (options.pods > 0) results.timings.push(timing(`${options.pods} pods Running (from t = 0)`, label, 's', [load.podsRunningS ?? NaN]));
    results.timings.push(heartbeatTiming);
    const heartbeatLine = `nodes whose heartbeat advanced: ${advanced} of ${states.length}` + (advanced > 0 ? ` (first heartbeat ${fixed(heartbeatTiming.min)}–${fixed(heartbeatTiming.max)} s after node-initialize, median ${fixed(heartbeatTiming.median)} s)` : '');
    const dualLine = `dual-stack nodes (an IPv4 and an IPv6 InternalIP): ${states.filter(([, n]) => n.createdDualStack).length} of ${states.length} when created, ${states.filter(([, n]) => n.dualStack).length} at the end`;
    note(`${heartbeatLine}; ${dualLine}`);
    const fitFrom = Math.max(options.warmupMs / 1000, load.podsRunningS ?? 0);
    if (load.podsRunningS === undefined) note(`the load did not finish (nodes Ready ${load.nodesReadyS === undefined ? 'no' : 'yes'}): the slopes include it`);
    const slopes: string[] = [];
    const cpuMeans: string[] = [];
    for (const s of series.values()) {
      if (s.name.startsWith('RSS MiB ')) {
        const fit = slopePerHour(s.points, fitFrom);
        slopes.push(`${s.name.slice('RSS MiB '.length)} ${signed(fit.percentPerHour)} %/h (${signed(fit.perHour, 0)} MiB/h, mean ${fixed(fit.mean)} MiB, n ${fit.n})`);
      } else if (s.name.startsWith('CPU % ')) {
        const used = s.points.filter(([t]) => t >= fitFrom).map(([, v]) => v);
        cpuMeans.push(`${s.name.slice('CPU % '.length)} ${fixed(used.reduce((a, b) => a + b, 0) / used.length, 1)}`);
      }
    }
    const slopeLine = `RSS slope after warm-up (least squares from t = ${(fitFrom / 60).toFixed(1)} min, % per hour of the mean): ${slopes.join('; ')}`;
    note(slopeLine);
    note(`mean CPU % of one core after warm-up: ${cpuMeans.join(', ')}`);
    const refusedTotal = Object.values(refused).reduce((a, b) => a + b, 0);
    const worstLine = worst ? `after all nodes were Ready: most NotReady nodes ${worst.notReady}, most late leases ${worst.late}` : 'the nodes never were all Ready';
    note(`${worstLine}; node status writes refused by the apiserver: ${refusedTotal}${refusedTotal ? ` (${Object.entries(refused).map(([c, n]) => `${c}×${n}`).join(' ')})` : ''}`);
    if (cut) note(`cut short at ${(seconds() / 60).toFixed(1)} of ${options.minutes} min`);
    save();
    say(`done: ${heartbeatLine}; ${dualLine}`);
    say(slopeLine);
    say(worstLine);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    say(`failed: ${message}`);
    note(`failed: ${message.split('\n')[0]}`);
    save();
    process.exitCode = 1;
  } finally {
    end.abort();
    watches.abort();
    client?.close();
    stop.removeEventListener('abort', onStop);
    await tearDown(child, env, cluster, dir, say);
  }
}

export async function benchSoak(args: string[]): Promise<void> {
  const tool = toolChoice(option(args, 'tool'));
  const minutes = numberOption(args, 'minutes', 30);
  const duration = (name: string, fallback: number | undefined): number | undefined => {
    const text = option(args, name);
    if (text === undefined) return fallback;
    const ms = parseGoDurationMs(text);
    if (ms === undefined || ms <= 0) throw new Error(`--${name} ${text}: a duration such as 30s or 5m`);
    return ms;
  };
  const options: SoakOptions = {
    nodes: numberOption(args, 'nodes', 2000),
    pods: numberOption(args, 'pods', 20000),
    minutes,
    heartbeatMs: duration('heartbeat', undefined),
    // 5 minutes, or half a run shorter than 10, so that a short run still has samples to fit.
    warmupMs: duration('warmup', Math.min(5, minutes / 2) * 60_000)!,
    everyMs: duration('every', 60_000)!,
    concurrency: numberOption(args, 'concurrency', 32),
  };
  if (!(options.nodes > 0 && options.pods >= 0 && minutes > 0)) throw new Error('--nodes must be positive, --pods not negative, --minutes positive');
  const notes: string[] = [];
  const heartbeatMs = options.heartbeatMs;
  const runs = await toolRuns(tool, 'soak', notes, heartbeatMs === undefined ? undefined : (yaml) => withHeartbeatDelay(yaml, heartbeatMs));
  const results = newResults('soak', `soak: ${options.nodes} dual-stack nodes, ${options.pods} pods, ${minutes} min per tool; RSS, CPU, NotReady nodes, late leases, heartbeats`, new Date(), {
    nodes: options.nodes,
    pods: options.pods,
    minutes,
    tool,
    heartbeat: options.heartbeatMs === undefined ? 'the stage\'s own delay' : `${options.heartbeatMs / 1000}s`,
    warmupMinutes: options.warmupMs / 60_000,
    sampleEverySeconds: options.everyMs / 1000,
    leaseDurationSeconds: LEASE_DURATION_SECONDS,
    concurrency: options.concurrency,
  });
  results.notes.push(...notes);
  const { save, signal: stopSignal, logDir, close } = startLongRun(results);
  process.stdout.write(`soak: ${runs.map((r) => r.controller.label).join(', ') || 'no controller'}; ${options.nodes} nodes, ${options.pods} pods, ${minutes} min each, heartbeat ${results.params['heartbeat']}, a sample every ${options.everyMs / 1000} s; logs in ${logDir}\n`);
  save();
  try {
    for (const run of runs) {
      if (stopSignal.aborted) break;
      await soakOne(run, options, results, save, logDir, stopSignal);
    }
  } finally {
    close();
    save();
  }
  process.stdout.write(results.notes.map((n) => `note: ${n}\n`).join(''));
  writeResults(results);
}
