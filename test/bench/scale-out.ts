/**
 * `npm run bench -- scale-out --nodes 5000 --pods 10000 --shards 2 --hold 2m [--lease-duration 200]
 *   [--concurrency 32] [--timeout 1800] [--create-arg=--extra-args=...]`
 *
 * Scale-out of the kwok controller: a fresh `kwokts create cluster --disable kwok-controller
 * --disable kube-scheduler --disable-qps-limits` (deleted afterwards), K controller processes
 * started with --shard (node bin/kwok-controller.js, the stage YAML of the controller benchmark),
 * then N nodes until all are Ready, M pods spread round-robin over the nodes (bound by nodeName)
 * until all are Running, then a hold of the given length. Every minute (and at each phase's end)
 * one line: nodes Ready, node leases older than their duration (renewTime + duration in the past:
 * must stay 0), pods Running, and the RSS of every process (components from the cluster's pid
 * files, each shard, this process). The summary gives the worst values seen during the hold and the
 * peak RSS (VmHWM) of each process. Needs `npm run build`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildConnection } from '../../src/kube/client/connection.js';
import { HttpKubeClient } from '../../src/kube/client/http-client.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig/load.js';
import { Reflector } from '../../src/kube/client/reflector.js';
import { leasesResource, nodesResource, podsResource } from '../../src/kube/client/resources.js';
import type { KubeObject } from '../../src/kube/client/types.js';
import { shardLabel } from '../../src/kwok/controllers/shard-membership.js';
import { parseGoDurationMs } from '../../src/gocompat/go-duration.js';
import { silentLogger } from '../../src/util/log.js';
import { freePort } from '../e2e/harness.js';
import { cpuSeconds, forEachLimited, isReadyNode, isRunningPod, nodeName, peakRssMiB, podName } from './controller-load.js';
import { clusterPaths, componentCpu, controllerEnv, controllerFlags, kwokts, ourController, stagesYaml, table, waitHealthy } from './controller.js';

const CACHE = process.env.KWOK_CACHE_DIR ?? join(homedir(), '.kwok', 'cache');
const STAGES = ['node-fast.yaml', 'node-heartbeat-with-lease.yaml', 'pod-fast.yaml'];
const CLUSTER = 'bench-scale-out';

export function option(args: string[], name: string): string | undefined {
  const inline = args.find((a) => a.startsWith(`--${name}=`));
  if (inline) return inline.slice(name.length + 3);
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}

export function numberOption(args: string[], name: string, fallback: number): number {
  const value = option(args, name);
  return value === undefined ? fallback : Number(value);
}

/** Resident set size in MiB now, VmRSS from /proc/<pid>/status (Linux); NaN when gone. */
export function rssMiB(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** The cluster's components by the names of their pid files (etcd, kube-apiserver, ...). */
export function componentPids(clusterDir: string): Record<string, number> {
  const dir = join(clusterDir, 'pids');
  const pids: Record<string, number> = {};
  for (const file of existsSync(dir) ? readdirSync(dir) : []) {
    if (!file.endsWith('.pid')) continue;
    const pid = Number(readFileSync(join(dir, file), 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0) pids[file.slice(0, -'.pid'.length)] = pid;
  }
  return pids;
}

/** Only what the counters need: a 100,000-pod watch must not cost the bench gigabytes. */
export function slim(object: KubeObject): KubeObject {
  const { name, namespace, resourceVersion, labels } = object.metadata;
  return { apiVersion: object.apiVersion, kind: object.kind, metadata: { name, namespace, resourceVersion, ...(labels ? { labels } : {}) }, spec: object['spec'] && object.kind === 'Lease' ? object['spec'] : {}, status: object['status'] ?? {} } as KubeObject;
}

function slimPod(pod: KubeObject): KubeObject {
  const { name, namespace, resourceVersion } = pod.metadata;
  return { metadata: { name, namespace, resourceVersion }, status: { phase: (pod['status'] as { phase?: string } | undefined)?.phase } } as KubeObject;
}

/** A node as a count of Ready nodes needs it: its name and a Ready condition when it is Ready. */
export function slimNode(node: KubeObject): KubeObject {
  const { name, resourceVersion } = node.metadata;
  return { metadata: { name, resourceVersion }, status: { conditions: isReadyNode(node) ? [{ type: 'Ready', status: 'True' }] : [] } } as KubeObject;
}

interface LeaseSpec {
  holderIdentity?: string;
  renewTime?: string;
  leaseDurationSeconds?: number;
}

export interface LeaseFigures {
  /** Past renewTime + leaseDurationSeconds (or never renewed): the node would be lost. */
  stale: number;
  total: number;
  /** The longest time since a renewal, in seconds. */
  oldestS: number;
  holders: Record<string, number>;
}

/**
 * Node leases' freshness at `now` (ms). stale: past renewTime + duration (the node would be lost).
 * oldest: the longest time since a renewal, which shows how far renewals lag behind their
 * interval (duration/4) long before any lease goes stale.
 */
export function leaseFigures(leases: Iterable<KubeObject>, now: number): LeaseFigures {
  let stale = 0;
  let total = 0;
  let oldest = 0;
  const holders: Record<string, number> = {};
  for (const lease of leases) {
    total++;
    const spec = (lease['spec'] as LeaseSpec | undefined) ?? {};
    holders[spec.holderIdentity ?? '?'] = (holders[spec.holderIdentity ?? '?'] ?? 0) + 1;
    const renewed = spec.renewTime ? Date.parse(spec.renewTime) : NaN;
    if (!(renewed + (spec.leaseDurationSeconds ?? 0) * 1000 >= now)) stale++;
    if (Number.isFinite(renewed)) oldest = Math.max(oldest, now - renewed);
  }
  return { stale, total, oldestS: oldest / 1000, holders };
}

export async function benchScaleOut(args: string[]): Promise<void> {
  const nodes = numberOption(args, 'nodes', 5000);
  const pods = numberOption(args, 'pods', 10000);
  const shards = numberOption(args, 'shards', 2);
  const concurrency = numberOption(args, 'concurrency', 32);
  const leaseDuration = numberOption(args, 'lease-duration', 200);
  const timeoutMs = numberOption(args, 'timeout', 3600) * 1000;
  const holdMs = parseGoDurationMs(option(args, 'hold') ?? '2m') ?? 120_000;
  const createArgs = args.filter((a) => a.startsWith('--create-arg=')).map((a) => a.slice('--create-arg='.length));
  const shardArgs = args.filter((a) => a.startsWith('--shard-arg=')).map((a) => a.slice('--shard-arg='.length));
  const main = ourController();

  const dir = mkdtempSync(join(tmpdir(), 'kwokts-bench-scale-out-'));
  const env = { KWOK_WORKDIR: join(dir, 'w'), KUBECONFIG: join(dir, 'kubeconfig'), KWOK_CACHE_DIR: CACHE, KWOK_KUBE_VERSION: 'v1.36.1', KWOK_RUNTIME: 'binary' };
  const children: { name: string; child: ChildProcess }[] = [];
  const started = performance.now();
  const elapsed = (): string => `${((performance.now() - started) / 60_000).toFixed(1)}m`;
  const say = (line: string): void => void process.stdout.write(`[${new Date().toISOString().slice(11, 19)} +${elapsed()}] ${line}\n`);
  let created = false;
  const abort = new AbortController();
  let ticker: NodeJS.Timeout | undefined;
  let statusNow: ((label: string) => void) | undefined;
  const peak: Record<string, number> = {};
  // SIGTERM/SIGINT end the run early but still print where it got and delete the cluster.
  let stopped = false;
  const stop = (): void => {
    stopped = true;
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  const checkStopped = (): void => {
    if (stopped) throw new Error('stopped by a signal');
  };
  try {
    created = true;
    await kwokts(['create', 'cluster', '--disable', 'kwok-controller', '--disable', 'kube-scheduler', '--disable-qps-limits', '--etcd-quota-backend-size', '8Gi', '--wait', '5m', ...createArgs], env, CLUSTER);
    const clusterDir = join(env.KWOK_WORKDIR, 'clusters', CLUSTER);
    say(`cluster ready (${clusterDir})`);
    const kubeconfig = join(clusterDir, 'kubeconfig.yaml');
    const stagesFile = join(clusterDir, 'bench-stages.yaml');
    writeFileSync(stagesFile, stagesYaml(STAGES));
    for (let i = 0; i < shards; i++) {
      const port = await freePort();
      const log = join(dir, `shard-${i}.log`);
      const child = spawn(
        process.execPath,
        [
          // Its own Node options (not CONTROLLER_NODE_OPTIONS): the scale-out figures in
          // docs/performance.md were measured with these.
          '--max-old-space-size=6144',
          main,
          ...controllerFlags(clusterPaths(clusterDir), stagesFile, port, leaseDuration),
          '--shard',
          `--id=shard-${i}`,
          ...shardArgs,
        ],
        { stdio: ['ignore', openSync(log, 'w'), openSync(log, 'a')], env: controllerEnv(env) },
      );
      children.push({ name: `shard-${i}`, child });
      await waitHealthy(port, child, 120);
    }
    say(`${shards} shards up (logs in ${dir})`);

    const { config } = loadKubeConfig({ kubeconfig, logger: silentLogger });
    const client = new HttpKubeClient(await buildConnection(config), { maxSockets: concurrency + 4 });
    const readyNodes = new Set<string>();
    const running = new Set<string>();
    const nodeWatch = new Reflector({ client, ref: nodesResource, logger: silentLogger, transform: slimNode, onEvent: (type, node) => {
      const name = node.metadata.name ?? '';
      if (type !== 'DELETED' && isReadyNode(node)) readyNodes.add(name);
      else readyNodes.delete(name);
    } });
    const podWatch = new Reflector({ client, ref: podsResource, logger: silentLogger, transform: slimPod, onEvent: (type, pod) => {
      const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
      if (type !== 'DELETED' && isRunningPod(pod)) running.add(key);
      else running.delete(key);
    } });
    const leaseWatch = new Reflector({ client, ref: leasesResource, selectors: { namespace: 'kube-node-lease' }, logger: silentLogger, transform: slim, onEvent: () => {} });
    void nodeWatch.run(abort.signal);
    void podWatch.run(abort.signal);
    void leaseWatch.run(abort.signal);
    await Promise.all([nodeWatch.waitForSync(), podWatch.waitForSync(), leaseWatch.waitForSync()]);

    // The shards' own membership leases live beside the node leases: not counted.
    const staleLeases = (): LeaseFigures => leaseFigures([...leaseWatch.store.values()].filter((lease) => !lease.metadata.labels?.[shardLabel]), Date.now());
    const processes = (): Record<string, number> => {
      const pids: Record<string, number> = componentPids(clusterDir);
      for (const { name, child } of children) if (child.pid !== undefined && child.exitCode === null) pids[name] = child.pid;
      pids['bench'] = process.pid;
      return pids;
    };
    const cpuTotals = (): Record<string, number> => {
      const cpu = componentCpu(clusterDir);
      for (const { name, child } of children) if (child.pid !== undefined) cpu[name] = cpuSeconds(child.pid);
      return cpu;
    };
    const status = (label: string): { ready: number; stale: number; running: number } => {
      for (const { name, child } of children) if (child.exitCode !== null || child.signalCode !== null) say(`${name} has exited (${child.exitCode ?? child.signalCode})`);
      const leases = staleLeases();
      const rss = Object.entries(processes()).map(([name, pid]) => {
        const mib = rssMiB(pid);
        peak[name] = Math.max(peak[name] ?? 0, name === 'bench' ? mib : peakRssMiB(pid) || mib);
        return `${name} ${mib.toFixed(0)}`;
      });
      const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
      say(`${label}: nodes Ready ${readyNodes.size}/${nodes}, node leases ${leases.total} stale ${leases.stale} oldest renewal ${leases.oldestS.toFixed(0)}s ago (holders ${Object.entries(leases.holders).map(([h, n]) => `${h}:${n}`).join(' ')}), pods Running ${running.size}/${pods}; RSS MiB: ${rss.join(', ')}; load ${load}`);
      return { ready: readyNodes.size, stale: leases.stale, running: running.size };
    };
    ticker = setInterval(() => status('minute'), 60_000);
    statusNow = status;
    const cpuAt: Record<string, Record<string, number>> = { start: cpuTotals() };

    const waitFor = async (done: () => boolean, what: string): Promise<void> => {
      const deadline = performance.now() + timeoutMs;
      while (!done()) {
        checkStopped();
        if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        for (const { name, child } of children) if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const nodeStart = performance.now();
    await forEachLimited(nodes, concurrency, async (i) => {
      checkStopped();
      await client.create(nodesResource, {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: nodeName(i), labels: { type: 'kwok' }, annotations: { 'kwok.x-k8s.io/node': 'fake' } },
        spec: { taints: [{ key: 'kwok.x-k8s.io/node', value: 'fake', effect: 'NoSchedule' }] },
      });
    });
    say(`${nodes} nodes created in ${((performance.now() - nodeStart) / 1000).toFixed(1)} s`);
    await waitFor(() => readyNodes.size >= nodes, 'nodes Ready');
    const nodesSeconds = (performance.now() - nodeStart) / 1000;
    cpuAt['nodes'] = cpuTotals();
    status(`nodes Ready in ${nodesSeconds.toFixed(1)} s`);

    const podStart = performance.now();
    await forEachLimited(pods, concurrency, async (i) => {
      checkStopped();
      await client.create(podsResource, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: podName(i), namespace: 'default' },
        spec: {
          nodeName: nodeName(i % nodes),
          // No token volume or service variables: less for the apiserver to add, store and send.
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          containers: [{ name: 'fake-container', image: 'fake-image' }],
          tolerations: [{ key: 'kwok.x-k8s.io/node', operator: 'Exists', effect: 'NoSchedule' }],
        },
      });
    });
    say(`${pods} pods created in ${((performance.now() - podStart) / 1000).toFixed(1)} s`);
    await waitFor(() => running.size >= pods, 'pods Running');
    const podsSeconds = (performance.now() - podStart) / 1000;
    cpuAt['pods'] = cpuTotals();
    status(`pods Running in ${podsSeconds.toFixed(1)} s`);

    // The hold: every node must stay Ready with its lease renewed in time.
    const holdStart = performance.now();
    let worstStale = 0;
    let oldestRenewalS = 0;
    let fewestReady = nodes;
    let fewestRunning = pods;
    while (performance.now() - holdStart < holdMs) {
      await new Promise((r) => setTimeout(r, Math.min(10_000, holdMs - (performance.now() - holdStart))));
      checkStopped();
      for (const { name, child } of children) if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
      const leases = staleLeases();
      worstStale = Math.max(worstStale, leases.stale);
      oldestRenewalS = Math.max(oldestRenewalS, leases.oldestS);
      fewestReady = Math.min(fewestReady, readyNodes.size);
      fewestRunning = Math.min(fewestRunning, running.size);
    }
    cpuAt['hold'] = cpuTotals();
    status('hold done');
    const names = Object.keys(cpuAt['hold']!);
    const phases = ['nodes', 'pods', 'hold'];
    const cpuRows = [['CPU s', ...phases], ...names.map((n) => [n, ...phases.map((p, i) => ((cpuAt[p]![n] ?? NaN) - (cpuAt[i === 0 ? 'start' : phases[i - 1]!]![n] ?? NaN)).toFixed(1))])];
    process.stdout.write(
      `\nscale-out: ${nodes} nodes, ${pods} pods, ${shards} shards, node leases ${leaseDuration}s, hold ${holdMs / 1000}s\n` +
        `${table([
          ['nodes Ready', `${nodesSeconds.toFixed(1)} s`],
          ['pods Running', `${podsSeconds.toFixed(1)} s`],
          ['hold: fewest nodes Ready', `${fewestReady}/${nodes}`],
          ['hold: most stale node leases', String(worstStale)],
          ['hold: longest since a lease renewal', `${oldestRenewalS.toFixed(0)} s (renewal due every ${(leaseDuration / 4).toFixed(0)} s, lease expires after ${leaseDuration} s)`],
          ['hold: fewest pods Running', `${fewestRunning}/${pods}`],
          ...Object.entries(peak).map(([n, mib]) => [`peak RSS ${n}`, `${mib.toFixed(0)} MiB`]),
        ])}\n\n${table(cpuRows)}\n`,
    );
    client.close();
  } catch (error) {
    say(`failed: ${error instanceof Error ? error.message : String(error)}`);
    try {
      statusNow?.('at the end');
    } catch {
      // the cluster may be gone
    }
    process.exitCode = 1;
  } finally {
    if (ticker) clearInterval(ticker);
    abort.abort();
    for (const { child } of children) if (child.exitCode === null) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 2000));
    for (const { child } of children) if (child.exitCode === null) child.kill('SIGKILL');
    if (created && !process.env.KWOKTS_BENCH_KEEP) await kwokts(['delete', 'cluster'], env, CLUSTER).catch((e: unknown) => say(String(e)));
    if (!process.env.KWOKTS_BENCH_KEEP) {
      // Shard logs are kept beside the summary only on failure.
      if (process.exitCode) say(`shard logs kept in ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    }
  }
}
