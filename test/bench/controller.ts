/**
 * `npm run bench -- controller [--nodes 1000] [--pods 2000] [--concurrency 32] [--timeout 300] [--rounds 1] [--no-settle] [--scheduler] [--pace] [--profile]`
 *
 * Our kwok controller (`node bin/kwok-controller.js`, as a cluster runs it: the bundle, with
 * NODE_EXTRA_CA_CERTS deferred, Node's options and kwok's flags as kwokts gives them) beside Go kwok
 * (`~/go/bin/kwok`, or KWOK=/path; skipped with a note when missing). For each, a fresh
 * `kwokts create cluster --disable kwok-controller --disable kube-scheduler --disable-qps-limits`
 * (deleted afterwards), the same stage YAML (templates/stages/{node-fast,node-heartbeat-with-lease,
 * pod-fast}.yaml) via --config, then the load of ./controller-load.ts: seconds until N nodes are
 * Ready, until M pods on one node (with --scheduler: placed by kube-scheduler, which the cluster then
 * runs) are Running, until they are gone after a graceful delete (between
 * the nodes and the pods, untimed, until kcm has untainted every node: --no-settle skips it); and
 * the controller's CPU seconds (utime+stime) and peak RSS (VmHWM) from /proc. Then, per phase, the
 * CPU seconds of every process (components from the cluster's pid files, the controller, this
 * process as the load generator) and the floor they set: the others' CPU over the machine's cores;
 * with a peer, the ceiling too: the peer's time over our floor, how far ahead of it a controller
 * making our requests could have been in that run. With --profile, ours runs with --cpu-prof and a
 * note says where its CPU went (./cpu-profile.ts): the kube client, the controllers, JSON, Node's
 * sockets and TLS, the garbage collector. Needs `npm run build`.
 */
import { execa } from 'execa';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildConnection } from '../../src/kube/client/connection.js';
import { HttpKubeClient } from '../../src/kube/client/http-client.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig/load.js';
import { silentLogger } from '../../src/util/log.js';
import { deferExtraCaCerts } from '../../src/util/extra-ca-certs.js';
import { CONTROLLER_NODE_OPTIONS } from '../../src/components/kwok-controller.js';
import { freePort } from '../e2e/harness.js';
import { cpuSeconds, mainThreadCpuSeconds, peakRssMiB, runControllerLoad, type LoadResult, type PhaseResult } from './controller-load.js';
import { peerBinary } from '../peers.js';
import { profileLine, summarizeProfiles, type CpuProfile } from './cpu-profile.js';
import { newResults, timing, writeResults, type BenchResults } from './results.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CACHE = process.env.KWOK_CACHE_DIR ?? join(homedir(), '.kwok', 'cache');
const STAGES = ['node-fast.yaml', 'node-heartbeat-with-lease.yaml', 'pod-fast.yaml'];
const CLUSTER = 'bench-controller';

export interface Controller {
  label: string;
  command: string;
  /** Arguments before the common flags (the script for node). */
  entry: string[];
  /** Flags after the common ones. */
  extra: string[];
  /** Where its CPU profile goes (--profile, ours only). */
  profileDir?: string;
}

export interface ClusterPaths {
  dir: string;
  kubeconfig: string;
  adminCert: string;
  adminKey: string;
}

/** A bench cluster's files the controller needs (the admin kubeconfig and certificate). */
export function clusterPaths(clusterDir: string): ClusterPaths {
  return { dir: clusterDir, kubeconfig: join(clusterDir, 'kubeconfig.yaml'), adminCert: join(clusterDir, 'pki', 'admin.crt'), adminKey: join(clusterDir, 'pki', 'admin.key') };
}

/** Stage files of templates/stages (or of `dir`) as one multi-document YAML for --config. */
export function stagesYaml(files: readonly string[], dir = join(ROOT, 'templates', 'stages')): string {
  return files.map((f) => readFileSync(join(dir, f), 'utf8').trim()).join('\n---\n') + '\n';
}

/**
 * The flags src/components/kwok-controller.ts gives a cluster's controller (which Go kwok knows
 * too), for one the bench starts itself: the cluster's admin kubeconfig and certificate, the stage
 * YAML, its own kubelet port. Lease duration 200 s: kwokctl's 40 × heartbeat factor 5.
 */
export function controllerFlags(paths: ClusterPaths, stagesFile: string, port: number, leaseDurationSeconds = 200): string[] {
  return [
    '--manage-all-nodes=true',
    `--kubeconfig=${paths.kubeconfig}`,
    `--config=${stagesFile}`,
    `--tls-cert-file=${paths.adminCert}`,
    `--tls-private-key-file=${paths.adminKey}`,
    '--node-ip=127.0.0.1',
    '--node-name=localhost',
    `--node-port=${port}`,
    `--server-address=127.0.0.1:${port}`,
    `--node-lease-duration-seconds=${leaseDurationSeconds}`,
  ];
}

/**
 * Our controller as the benches run it: the flags src/components/kwok-controller.ts gives it, with
 * the Node options a cluster gives it (CONTROLLER_NODE_OPTIONS), then any of
 * KWOKTS_BENCH_NODE_OPTIONS, which come later and win: "--cpu-prof --cpu-prof-dir=/tmp/prof"
 * profiles our controller, --max-semi-space-size=16 runs it with Node's default young generation.
 * KWOKTS_BENCH_CONTROLLER_ARGS="--config=kwok.yaml" tries its flags.
 */
export function ourControllerSpec(cluster: string): Controller {
  return {
    label: 'kwokts (TS)',
    command: process.execPath,
    entry: ourEntry(ourController(), process.env.KWOKTS_BENCH_NODE_OPTIONS),
    extra: [`--id=kwok-${cluster}-controller`, ...(process.env.KWOKTS_BENCH_CONTROLLER_ARGS?.split(/\s+/).filter(Boolean) ?? [])],
  };
}

/** Go kwok (~/go/bin/kwok, or KWOK=/path) labelled with its version, or a note saying where it was looked for. */
export async function goKwokSpec(): Promise<Controller | { missing: string }> {
  const goKwok = peerBinary('kwok');
  if (!existsSync(goKwok)) return { missing: `Go kwok: not found at ${goKwok} (set KWOK=/path, or go install sigs.k8s.io/kwok/cmd/kwok@v0.8.0); skipped` };
  const version = await execa(goKwok, ['--version'], { reject: false });
  return { label: `Go kwok ${/v\d+\.\d+\.\d+\S*/.exec(version.stdout)?.[0] ?? ''}`.trim(), command: goKwok, entry: [], extra: [] };
}

/** CPU seconds per process, sampled as each phase starts (and at the end). */
interface CpuSample {
  phase: string;
  seconds: Record<string, number>;
  /** When it was taken (performance.now() in seconds); absent in samples made by hand. */
  at?: number;
  /** A Node controller's main thread alone (its share of `seconds.controller`). */
  controllerMainThread?: number;
}

export interface Outcome {
  label: string;
  /** The apiserver's request and watch counters as each phase starts (and at the end). */
  apiserverSamples: Promise<ApiserverCounters | undefined>[];
  load?: LoadResult;
  cpuSamples: CpuSample[];
  cpu: number;
  rssMiB: number;
  error?: string;
  log: string;
}

function flag(args: string[], name: string, fallback: number): number {
  const index = args.indexOf(`--${name}`);
  const inline = args.find((a) => a.startsWith(`--${name}=`));
  const value = inline ? inline.slice(name.length + 3) : index >= 0 ? args[index + 1] : undefined;
  return value === undefined ? fallback : Number(value);
}

/**
 * Our controller's entry as a cluster's binary runtime starts it (src/components/kwok-controller.ts):
 * bin/kwok-controller.js, which runs the esbuild bundle the build makes.
 */
export function ourController(): string {
  const bundle = join(ROOT, 'dist', 'kwok-controller', 'kwok-controller.js');
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run npm run build`);
  return join(ROOT, 'bin', 'kwok-controller.js');
}

/** Node's arguments for our controller: a cluster's Node options, then the bench's (which win), then the entry. */
export function ourEntry(entry: string, benchNodeOptions: string | undefined): string[] {
  return [...CONTROLLER_NODE_OPTIONS, ...(benchNodeOptions?.split(/\s+/).filter(Boolean) ?? []), entry];
}

/**
 * The environment a controller runs with: the bench's, with NODE_EXTRA_CA_CERTS deferred as the
 * binary runtime defers it for our controller (Go kwok reads neither variable).
 */
export function controllerEnv(env: Record<string, string>): Record<string, string | undefined> {
  return deferExtraCaCerts({ ...process.env, ...env });
}

/** Runs the built CLI on `cluster`; throws with the end of its output when it fails (or `signal` stops it). */
export async function kwokts(args: string[], env: Record<string, string>, cluster = CLUSTER, signal?: AbortSignal): Promise<void> {
  const result = await execa('node', [join(ROOT, 'bin', 'run.cjs'), '--name', cluster, ...args], { env: { ...process.env, ...env }, reject: false, all: true, ...(signal ? { cancelSignal: signal } : {}) });
  if (result.exitCode !== 0) throw new Error(`kwokts ${args.join(' ')} failed:\n${String(result.all).slice(-2000)}`);
}

export async function waitHealthy(port: number, child: ChildProcess, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`controller exited with ${child.exitCode} before /healthz answered`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`controller /healthz on port ${port} not ok after ${seconds}s`);
}

async function runOne(controller: Controller, load: Load, settle: boolean, logDir: string, round = 0): Promise<Outcome> {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-bench-controller-'));
  const env = { KWOK_WORKDIR: join(dir, 'w'), KUBECONFIG: join(dir, 'kubeconfig'), KWOK_CACHE_DIR: CACHE, KWOK_KUBE_VERSION: 'v1.36.1', KWOK_RUNTIME: 'binary' };
  const log = join(logDir, `${controller.label.replace(/\W+/g, '-')}${round > 0 ? `-round${round + 1}` : ''}.log`);
  const outcome: Outcome = { label: controller.label, cpu: NaN, rssMiB: NaN, log, cpuSamples: [], apiserverSamples: [] };
  let child: ChildProcess | undefined;
  let created = false;
  // A signal (Ctrl-C, a `timeout` around the bench) ends the process without the finally below:
  // the cluster would keep running and take CPU from every later run. Tear it down, then exit.
  const onSignal = (signal: NodeJS.Signals): void => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (created) spawnSync(process.execPath, [join(ROOT, 'bin', 'run.cjs'), '--name', CLUSTER, 'delete', 'cluster'], { env: { ...process.env, ...env }, stdio: 'inherit' });
    rmSync(dir, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const started = performance.now();
    created = true;
    await kwokts(['create', 'cluster', '--disable', 'kwok-controller', ...(load.scheduler ? [] : ['--disable', 'kube-scheduler']), '--disable-qps-limits', '--wait', '2m'], env);
    process.stderr.write(`${controller.label}: cluster ready in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    const clusterDir = join(env.KWOK_WORKDIR, 'clusters', CLUSTER);
    const paths = clusterPaths(clusterDir);
    const stagesFile = join(clusterDir, 'bench-stages.yaml');
    writeFileSync(stagesFile, stagesYaml(STAGES));
    const port = await freePort();
    const args = [...controller.entry, ...controllerFlags(paths, stagesFile, port), ...controller.extra];
    const fd = openSync(log, 'w');
    // Go kwok reads KWOK_* variables and ~/.kwok; give both the cluster's workdir.
    child = spawn(controller.command, args, { stdio: ['ignore', fd, fd], env: controllerEnv(env) });
    await waitHealthy(port, child, 60);

    const { config } = loadKubeConfig({ kubeconfig: paths.kubeconfig, logger: silentLogger });
    const client = new HttpKubeClient(await buildConnection(config), { maxSockets: load.concurrency });
    const controllerPid = child.pid;
    // Go spreads its goroutines over threads, so only a Node controller's main thread means something.
    const isNode = controller.command === process.execPath;
    const sample = (phase: string): void => {
      const seconds = componentCpu(clusterDir);
      if (controllerPid !== undefined) seconds['controller'] = cpuSeconds(controllerPid);
      const self = process.cpuUsage();
      seconds['bench (creator)'] = (self.user + self.system) / 1e6;
      const mainThread = isNode && controllerPid !== undefined ? mainThreadCpuSeconds(controllerPid) : undefined;
      outcome.cpuSamples.push({ phase, seconds, at: performance.now() / 1000, ...(mainThread !== undefined ? { controllerMainThread: mainThread } : {}) });
      outcome.apiserverSamples.push(apiserverCounters(paths.kubeconfig));
    };
    try {
      outcome.load = await runControllerLoad(client, {
        mark: sample,
        settle,
        scheduler: load.scheduler,
        pace: load.pace,
        nodes: load.nodes,
        pods: load.pods,
        concurrency: load.concurrency,
        timeoutSeconds: load.timeout,
        report: (line) => process.stderr.write(`${controller.label}: ${line}\n`),
      });
    } finally {
      client.close();
      // The last reading of the apiserver's counters must finish before the cluster goes.
      await Promise.all(outcome.apiserverSamples);
    }
  } catch (error) {
    outcome.error = error instanceof Error ? error.message.split('\n')[0] : String(error);
    process.stderr.write(`${controller.label}: ${error instanceof Error ? error.message : String(error)}\n`);
  } finally {
    if (child?.pid && child.exitCode === null) {
      outcome.cpu = cpuSeconds(child.pid);
      outcome.rssMiB = peakRssMiB(child.pid);
      child.kill('SIGTERM');
      // A profiled controller writes its profile as it exits: give it the time for that.
      const exited = new Promise((r) => child!.once('exit', r));
      await Promise.race([exited, new Promise((r) => setTimeout(r, controller.profileDir === undefined ? 500 : 30_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    if (created) await kwokts(['delete', 'cluster'], env).catch((e: unknown) => process.stderr.write(`${controller.label}: ${String(e)}\n`));
    rmSync(dir, { recursive: true, force: true });
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return outcome;
}

/** CPU seconds of each component the cluster's pid files name. */
export function componentCpu(clusterDir: string): Record<string, number> {
  const pids = join(clusterDir, 'pids');
  const seconds: Record<string, number> = {};
  for (const file of existsSync(pids) ? readdirSync(pids) : []) {
    if (!file.endsWith('.pid')) continue;
    const pid = Number(readFileSync(join(pids, file), 'utf8').trim());
    if (Number.isInteger(pid) && pid > 0) seconds[file.slice(0, -'.pid'.length)] = cpuSeconds(pid);
  }
  return seconds;
}

/** Per request kind ("PATCH pods/status 200"): how many; per watched resource: events and bytes sent. */
export interface ApiserverCounters {
  requests: Map<string, number>;
  watchEvents: Map<string, { count: number; bytes: number }>;
}

const KUBECTL = join(CACHE, 'gobuild', 'kubernetes', 'v1.36.1', 'kubectl');

/** The apiserver's own counters (/metrics, read with the admin kubeconfig); undefined when unreadable. */
export async function apiserverCounters(kubeconfig: string): Promise<ApiserverCounters | undefined> {
  const result = await execa(KUBECTL, ['--kubeconfig', kubeconfig, 'get', '--raw', '/metrics'], { reject: false });
  if (result.exitCode !== 0) return undefined;
  const counters: ApiserverCounters = { requests: new Map(), watchEvents: new Map() };
  for (const line of String(result.stdout).split('\n')) {
    const match = /^(apiserver_request_total|apiserver_watch_events_total|apiserver_watch_events_sizes_sum)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match) continue;
    const labels = Object.fromEntries([...match[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    const value = Number(match[3]);
    if (match[1]!.startsWith('apiserver_watch')) {
      const watched = labels['resource'] ?? labels['kind'] ?? '?';
      const entry = counters.watchEvents.get(watched) ?? { count: 0, bytes: 0 };
      if (match[1] === 'apiserver_watch_events_total') entry.count += value;
      else entry.bytes += value;
      counters.watchEvents.set(watched, entry);
      continue;
    }
    if (labels['verb'] === 'WATCH' || labels['verb'] === 'CONNECT') continue;
    const key = `${labels['verb']} ${labels['resource']}${labels['subresource'] ? '/' + labels['subresource'] : ''}${labels['code'] ? ' ' + labels['code'] : ''}`;
    counters.requests.set(key, (counters.requests.get(key) ?? 0) + value);
  }
  return counters;
}

/**
 * What the apiserver was asked in each phase (requests of more than 50, by kind) and what it sent
 * to watchers: the cost our requests put on the apiserver, beside the peer's in the same run.
 */
async function apiserverBreakdown(outcome: Outcome): Promise<string> {
  const samples = await Promise.all(outcome.apiserverSamples);
  const phases = outcome.cpuSamples.slice(0, -1).map((c) => c.phase);
  if (samples.length < 2 || samples.some((x) => x === undefined)) return '';
  const counted = samples as ApiserverCounters[];
  const rows = [[`apiserver requests, ${outcome.label}`, ...phases, ...phases.map((p) => `${p} MB`)]];
  const keys = [...counted.at(-1)!.requests.keys()].sort();
  for (const key of keys) {
    const counts = phases.map((_, i) => (counted[i + 1]!.requests.get(key) ?? 0) - (counted[i]!.requests.get(key) ?? 0));
    if (counts.every((c) => c < 50)) continue;
    rows.push([key, ...counts.map(String), ...phases.map(() => '')]);
  }
  for (const kind of [...counted.at(-1)!.watchEvents.keys()].sort()) {
    const counts = phases.map((_, i) => (counted[i + 1]!.watchEvents.get(kind)?.count ?? 0) - (counted[i]!.watchEvents.get(kind)?.count ?? 0));
    if (counts.every((c) => c < 50)) continue;
    const bytes = phases.map((_, i) => (counted[i + 1]!.watchEvents.get(kind)?.bytes ?? 0) - (counted[i]!.watchEvents.get(kind)?.bytes ?? 0));
    rows.push([`watch events sent, ${kind}`, ...counts.map(String), ...bytes.map((b) => (b / 1e6).toFixed(1))]);
  }
  return table(rows);
}

const COMPONENT_NAMES = new Set(['etcd', 'kube-apiserver', 'kube-controller', 'kube-scheduler', 'kwok', 'kwok-controller']);

/** The state letter of /proc/<pid>/stat (after the parenthesized comm), or undefined when unreadable. */
function processState(statFile: string): string | undefined {
  try {
    const stat = readFileSync(statFile, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Control-plane processes already running (comm names as /proc shows them, 15 characters at
 * most), as "name (pid)". A cluster left behind by an interrupted run takes CPU that no phase
 * counts: it shows as idle and slows both controllers.
 */
export function strayComponents(proc = '/proc'): string[] {
  let entries: string[];
  try {
    entries = readdirSync(proc);
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let comm: string;
    try {
      comm = readFileSync(join(proc, entry, 'comm'), 'utf8').trim();
    } catch {
      continue; // gone meanwhile
    }
    if (!COMPONENT_NAMES.has(comm)) continue;
    // A zombie (state Z) is a component killed by the previous run's delete that init has not
    // reaped yet (it does within a second here): it has exited and uses no CPU.
    if (processState(join(proc, entry, 'stat')) === 'Z') continue;
    found.push(`${comm} (${entry})`);
  }
  return found;
}

/** CPU seconds process `name` used between sample i and the next (NaN where either lacks it). */
function cpuBetween(samples: readonly CpuSample[], name: string, i: number): number {
  return (samples[i + 1]!.seconds[name] ?? NaN) - (samples[i]!.seconds[name] ?? NaN);
}

/** Where the CPU went in each phase: one line per process, one column per phase. */
export function cpuBreakdown(outcome: Outcome): string {
  const samples = outcome.cpuSamples;
  if (samples.length < 2) return '';
  const names = Object.keys(samples[samples.length - 1]!.seconds);
  const rows = [['CPU s, ' + outcome.label, ...samples.slice(0, -1).map((s) => s.phase)]];
  const spent = (name: string, i: number): number => cpuBetween(samples, name, i);
  for (const name of names) {
    rows.push([name, ...samples.slice(0, -1).map((_, i) => spent(name, i).toFixed(1))]);
    if (name === 'controller' && samples.every((s) => s.controllerMainThread !== undefined)) {
      // The rest is V8's compiler and GC threads, which a --cpu-prof profile does not show.
      rows.push(['  of which its main thread', ...samples.slice(0, -1).map((s, i) => (samples[i + 1]!.controllerMainThread! - s.controllerMainThread!).toFixed(1))]);
    }
  }
  const cores = availableParallelism();
  rows.push([`floor: others / ${cores} cores`, ...floors(outcome).map((f) => `${f.toFixed(1)} s`)]);
  const parts = floorParts(outcome);
  const share = (x: number | undefined): string => (x === undefined || Number.isNaN(x) ? '-' : `${(100 * x).toFixed(1)}%`);
  rows.push(['controller CPU / others\'', ...parts.map((p) => share(p.controller))]);
  rows.push([`idle (${cores} cores × time − all CPU) / others'`, ...parts.map((p) => share(p.idle))]);
  return table(rows);
}

/**
 * What each sampled stretch's time over its floor is made of. Over a stretch of `t` seconds the
 * cores had `cores × t` CPU seconds: the others used some, the controller some, the rest went
 * unused; so t / floor = 1 + controller / others + idle / others, exactly. Goal 4's "within 10%
 * of the floor" is thus a bound on the controller's share of the cluster's CPU plus the idle
 * share. (A stretch runs from one phase's start to the next one's, a little longer than the
 * phase's own time, which ends when the last object is seen.) Idle is undefined for samples
 * without times.
 */
export function floorParts(outcome: Outcome): Array<{ controller: number; idle: number | undefined }> {
  const samples = outcome.cpuSamples;
  if (samples.length < 2) return [];
  const names = Object.keys(samples[samples.length - 1]!.seconds);
  const spent = (name: string, i: number): number => cpuBetween(samples, name, i);
  return samples.slice(0, -1).map((sample, i) => {
    const controller = spent('controller', i);
    const others = names.filter((n) => n !== 'controller').reduce((sum, n) => sum + spent(n, i), 0);
    const next = samples[i + 1]!;
    const idle = sample.at !== undefined && next.at !== undefined ? (availableParallelism() * (next.at - sample.at) - others - controller) / others : undefined;
    return { controller: controller / others, idle };
  });
}

/**
 * Per phase (nodes, pods, delete), what every other process needed spread over all cores: no
 * controller, however cheap, can finish the phase sooner on this machine (the machine was
 * saturated when this is close to the phase time).
 */
function floors(outcome: Outcome): number[] {
  const samples = outcome.cpuSamples;
  if (samples.length < 2) return [];
  const names = Object.keys(samples[samples.length - 1]!.seconds).filter((n) => n !== 'controller');
  const spent = (name: string, i: number): number => cpuBetween(samples, name, i);
  return samples.slice(0, -1).map((_, i) => names.reduce((sum, n) => sum + spent(n, i), 0) / availableParallelism());
}

/** Each phase's floor in seconds (undefined where it was not sampled), nodes, pods, delete. */
function phaseFloors(o: Outcome): Array<number | undefined> {
  const f = floors(o);
  // The settle wait, when there is one, is a sample of its own and no phase of the three.
  const floorOf = (phase: string): number | undefined => {
    const index = o.cpuSamples.findIndex((s) => s.phase === phase);
    return index >= 0 && index < f.length ? f[index] : undefined;
  };
  return ['nodes', 'pods', 'delete'].map(floorOf);
}

function timed(o: Outcome): Array<PhaseResult | undefined> {
  return [o.load?.nodesReady, o.load?.podsRunning, o.load?.podsDeleted];
}

/** seconds / floor per phase as "1.16×", "-" where either is missing. */
function ratios(seconds: Array<PhaseResult | undefined>, floorsOf: Array<number | undefined>): string[] {
  return seconds.map((p, i) => {
    const floor = floorsOf[i];
    return p && !Number.isNaN(p.seconds) && floor ? `${(p.seconds / floor).toFixed(2)}×` : '-';
  });
}

/** Each phase's time over its floor (1.10 = 10% above what the other processes allow). */
export function overFloor(o: Outcome): string[] {
  return ratios(timed(o), phaseFloors(o));
}

/**
 * How far ahead of the peer a controller making our requests could have been in this run: the
 * peer's time over our run's floor. No phase ends before the other processes have had the CPU our
 * requests cost them, so a speed-up past this is out of reach however little CPU our controller
 * itself uses; only asking the apiserver for less (or for cheaper work) raises it.
 */
export function ceilings(ours: Outcome, peer: Outcome): string[] {
  return ratios(timed(peer), phaseFloors(ours));
}

/** The peer's time over ours per phase (2.00 = ours took half as long). */
export function speedups(ours: Outcome, peer: Outcome): string[] {
  return timed(ours).map((p, i) => {
    const q = timed(peer)[i];
    return p && q && !Number.isNaN(p.seconds) && !Number.isNaN(q.seconds) ? `${(q.seconds / p.seconds).toFixed(2)}×` : '-';
  });
}

function phase(p: PhaseResult | undefined, total: number): string {
  if (!p) return '-';
  if (Number.isNaN(p.seconds)) return `timeout (${p.done}/${total})`;
  return `${p.seconds.toFixed(1)} s`;
}

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd()).join('\n');
}

export async function benchController(args: string[]): Promise<void> {
  // --scheduler: the pods go through kube-scheduler instead of naming a node (LoadOptions.scheduler).
  const load: Load = { nodes: flag(args, 'nodes', 1000), pods: flag(args, 'pods', 2000), concurrency: flag(args, 'concurrency', 32), timeout: flag(args, 'timeout', 300), scheduler: args.includes('--scheduler'), pace: args.includes('--pace') };
  // --no-settle: start the pods right after the last node is Ready, as before (see LoadOptions.settle).
  const settle = !args.includes('--no-settle');
  const startedAt = new Date();
  const logDir = mkdtempSync(join(tmpdir(), 'kwokts-bench-controller-logs-'));
  // --profile: ours runs with --cpu-prof, and the notes say where its CPU went (./cpu-profile.ts).
  const profile = args.includes('--profile');
  const ours = ourControllerSpec(CLUSTER);
  const profileDir = join(logDir, 'profile');
  const controllers: Controller[] = [profile ? { ...ours, profileDir, entry: ourEntry(ourController(), `${process.env.KWOKTS_BENCH_NODE_OPTIONS ?? ''} --cpu-prof --cpu-prof-dir=${profileDir}`) } : ours];
  const notes: string[] = [];
  const goKwok = await goKwokSpec();
  if ('missing' in goKwok) notes.push(goKwok.missing);
  else controllers.push(goKwok);
  const strays = strayComponents();
  if (strays.length > 0) {
    const note = `already running before the bench: ${strays.join(', ')}; their CPU is counted nowhere and shows as idle, and the phases share the cores with them (delete their clusters for figures that compare)`;
    process.stderr.write(`warning: ${note}\n`);
    notes.push(note);
  }
  // --rounds N: the controllers in turn (ours, the peer, ours, ...) on a fresh cluster each, so a
  // drift in the machine's load hits both; each pair's ratio counts, and their median.
  const rounds = Math.max(1, Math.floor(flag(args, 'rounds', 1)));
  const runs: Outcome[][] = [];
  for (let round = 0; round < rounds; round++) {
    const outcomes: Outcome[] = [];
    for (const controller of controllers) outcomes.push(await runOne(controller, load, settle, logDir, round));
    runs.push(outcomes);
    if (rounds > 1) process.stdout.write(`round ${round + 1} of ${rounds}\n${table(mainRows(outcomes, load, settle))}\n\n${table(ratioRows(outcomes))}\n\n`);
  }
  const outcomes = runs[0]!;
  const loadavg = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  process.stdout.write(`controller benchmark: ${load.nodes} nodes, ${load.pods} pods ${load.scheduler ? 'placed by kube-scheduler' : 'on one node'}, ${load.concurrency} concurrent requests${load.pace ? ', paced' : ''}, ${rounds} round(s), load average after ${loadavg}\n`);
  if (rounds > 1) {
    process.stdout.write(`${table(summaryRows(runs, load))}\n`);
    process.stdout.write(`(CPU and apiserver request breakdowns below: round 1)\n`);
  } else {
    process.stdout.write(`${table(mainRows(outcomes, load, settle))}\n\n${table(ratioRows(outcomes))}\n`);
  }
  for (const o of outcomes) {
    const breakdown = cpuBreakdown(o);
    if (breakdown) process.stdout.write(`\n${breakdown}\n`);
  }
  for (const o of outcomes) {
    const requests = await apiserverBreakdown(o);
    if (requests) process.stdout.write(`\n${requests}\n`);
  }
  for (const [round, run] of runs.entries()) for (const o of run) if (o.error) notes.push(`${o.label}${rounds > 1 ? ` (round ${round + 1})` : ''}: ${o.error}`);
  if (profile) {
    const files = existsSync(profileDir) ? readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile')) : [];
    const line =
      files.length === 0
        ? 'no profile was written (the controller did not exit by itself)'
        : `where its CPU went, self time of every round and phase together (--cpu-prof, ${files.length} profile${files.length > 1 ? 's' : ''}): ${profileLine(summarizeProfiles(files.map((f) => JSON.parse(readFileSync(join(profileDir, f), 'utf8')) as CpuProfile)))}`;
    notes.push(`${ours.label}: ${line}`);
  }
  const results = controllerResults(runs, load, startedAt, notes, profile);
  notes.push(`controller logs in ${logDir}`);
  process.stdout.write(notes.map((n) => `note: ${n}\n`).join(''));
  writeResults(results);
}

/** pace: the creator paced as `kwokts scale` paces itself (LoadOptions.pace). */
type Load = { nodes: number; pods: number; concurrency: number; timeout: number; scheduler: boolean; pace?: boolean };

/** One round: each controller's seconds per phase, CPU and memory. */
function latency(result: PhaseResult | undefined): string {
  const l = result?.latency;
  return l && !Number.isNaN(l.p99Ms) ? `${l.p99Ms.toFixed(0)} ms (${l.maxBacklog})` : '-';
}

function mainRows(outcomes: readonly Outcome[], load: Load, settle: boolean): string[][] {
  return [
    ['', ...outcomes.map((o) => o.label)],
    [`${load.nodes} nodes Ready`, ...outcomes.map((o) => phase(o.load?.nodesReady, load.nodes))],
    ...(settle ? [[`then kcm done with them (not timed)`, ...outcomes.map((o) => phase(o.load?.nodesSettled, load.nodes))]] : []),
    [`node request→Ready p99 (most waiting)`, ...outcomes.map((o) => latency(o.load?.nodesReady))],
    [`${load.pods} pods Running`, ...outcomes.map((o) => phase(o.load?.podsRunning, load.pods))],
    [`pod request→Running p99 (most waiting)`, ...outcomes.map((o) => latency(o.load?.podsRunning))],
    [`${load.pods} pods deleted`, ...outcomes.map((o) => phase(o.load?.podsDeleted, load.pods))],
    ['controller CPU', ...outcomes.map((o) => (Number.isNaN(o.cpu) ? '-' : `${o.cpu.toFixed(1)} s`))],
    ['controller peak RSS', ...outcomes.map((o) => (Number.isNaN(o.rssMiB) ? '-' : `${o.rssMiB.toFixed(0)} MiB`))],
  ];
}

/** One round, per phase: each controller's time over its floor, the peer's time over ours and the ceiling. */
function ratioRows(outcomes: readonly Outcome[]): string[][] {
  const rows = [['', 'nodes Ready', 'pods Running', 'pods deleted'], ...outcomes.map((o) => [`${o.label}: time / floor`, ...overFloor(o)])];
  if (outcomes.length > 1) {
    rows.push([`${outcomes[1]!.label} time / ${outcomes[0]!.label} time`, ...speedups(outcomes[0]!, outcomes[1]!)]);
    rows.push([`ceiling: ${outcomes[1]!.label} time / ${outcomes[0]!.label} floor`, ...ceilings(outcomes[0]!, outcomes[1]!)]);
  }
  return rows;
}

function median(values: readonly number[]): number {
  return timing('', '', 's', values).median;
}

/**
 * Several rounds: per phase, each controller's median seconds (min–max) and median time over
 * floor; with a peer, its time over ours in each round (pairs, not medians of each side) and their
 * median.
 */
export function summaryRows(runs: readonly (readonly Outcome[])[], load: Pick<Load, 'nodes' | 'pods'>): string[][] {
  const names = [`${load.nodes} nodes Ready`, `${load.pods} pods Running`, `${load.pods} pods deleted`];
  const labels = runs[0]!.map((o) => o.label);
  const rows = [['median of rounds (min–max)', ...names]];
  for (const [c, label] of labels.entries()) {
    const seconds = names.map((_, i) => runs.map((run) => timed(run[c]!)[i]?.seconds ?? NaN));
    rows.push([label, ...seconds.map((s) => { const t = timing('', '', 's', s); return s.some(Number.isNaN) ? `not done in ${s.filter(Number.isNaN).length} of ${s.length}` : `${t.median.toFixed(1)} s (${t.min.toFixed(1)}–${t.max.toFixed(1)})`; })]);
    rows.push([`${label}: time / floor`, ...names.map((_, i) => { const m = median(runs.map((run) => { const p = timed(run[c]!)[i]; const f = phaseFloors(run[c]!)[i]; return p && f ? p.seconds / f : NaN; })); return Number.isNaN(m) ? '-' : `${m.toFixed(2)}×`; })]);
  }
  if (labels.length > 1) {
    const pairs = names.map((_, i) => runs.map((run) => { const ours = timed(run[0]!)[i]?.seconds ?? NaN; const peer = timed(run[1]!)[i]?.seconds ?? NaN; return peer / ours; }));
    rows.push([`${labels[1]} time / ${labels[0]} time, each round`, ...pairs.map((p) => p.map((r) => (Number.isNaN(r) ? '-' : `${r.toFixed(2)}×`)).join(' '))]);
    rows.push([`  median of those`, ...pairs.map((p) => { const m = median(p); return Number.isNaN(m) ? '-' : `${m.toFixed(2)}×`; })]);
  }
  return rows;
}

/** The figures for ./results.ts: each phase's seconds (one sample per round) and its count over time (round 1). */
function controllerResults(runs: readonly (readonly Outcome[])[], load: Load, startedAt: Date, notes: readonly string[], profile = false): BenchResults {
  // profile only when asked for: it does not change what is measured (report.ts keys runs without it).
  // Node options of the bench's own measure another controller: a param (and so another row) of their own.
  const nodeOptions = process.env.KWOKTS_BENCH_NODE_OPTIONS?.trim();
  const results = newResults('controller', `kwok controller: ${load.nodes} nodes Ready, ${load.pods} pods Running, then deleted`, startedAt, {
    ...load,
    rounds: runs.length,
    ...(profile ? { profile: true } : {}),
    ...(nodeOptions ? { nodeOptions } : {}),
  });
  const phases: Array<[keyof LoadResult, string, number]> = [
    ['nodesReady', 'nodes Ready', load.nodes],
    ['podsRunning', 'pods Running', load.pods],
    ['podsDeleted', 'pods deleted', load.pods],
  ];
  const outcomes = runs[0]!;
  for (const [index, [key, name, target]] of phases.entries()) {
    for (const [c, o] of outcomes.entries()) {
      const p = o.load?.[key];
      if (!p) continue;
      const all = runs.map((run) => run[c]!);
      results.timings.push(timing(`${target} ${name}`, o.label, 's', all.map((r) => r.load?.[key]?.seconds ?? NaN)));
      // What the other processes' CPU allowed (see floors()): the reader can work out every ratio.
      const floors = all.map((r) => phaseFloors(r)[index]).filter((f): f is number => f !== undefined);
      if (floors.length > 0) results.timings.push(timing(`${target} ${name}: floor`, o.label, 's', floors));
      results.series.push({ name, tool: o.label, target, points: p.series });
      if (p.latency) results.timings.push(timing(`${target} ${name}: p99 after the request`, o.label, 'ms', all.map((r) => r.load?.[key]?.latency?.p99Ms ?? NaN)));
    }
  }
  // The controller's own cost over all three phases, per round.
  for (const [c, o] of outcomes.entries()) {
    if (!o.load) continue;
    results.timings.push(timing('controller CPU, all phases', o.label, 's', runs.map((run) => run[c]!.cpu)));
    results.timings.push(timing('controller peak RSS', o.label, 'MiB', runs.map((run) => run[c]!.rssMiB)));
  }
  // kcm's catching up between the phases: a figure, not a curve (no controller is timed by it).
  for (const [c, o] of outcomes.entries()) {
    if (o.load?.nodesSettled) results.timings.push(timing(`${load.nodes} nodes: kcm done after Ready`, o.label, 's', runs.map((run) => run[c]!.load?.nodesSettled?.seconds ?? NaN)));
  }
  results.notes.push(...notes);
  return results;
}
