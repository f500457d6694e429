import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { startEngine } from '../engines/start-engine.js';
import { peerBinary } from '../peers.js';
import { newResults, timing, writeResults } from './results.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CACHE = process.env.KWOK_CACHE_DIR ?? join(homedir(), '.kwok', 'cache');

/**
 * kwokts as npm installs it: bin/kwokts, the launcher users run (it also defers
 * NODE_EXTRA_CA_CERTS, see src/util/extra-ca-certs.ts). A .js or .cjs path (KWOKTS_BASELINE=…/bin/run.cjs)
 * is run with node.
 */
const KWOKTS = join(ROOT, 'bin', 'kwokts');
function cliOf(path: string): [string, ...string[]] {
  return /\.c?js$/.test(path) ? ['node', path] : [path];
}

interface Sample {
  createMs: number;
  deleteMs: number;
  /**
   * From the create command's start to kube-apiserver's exec (undefined where /proc cannot say):
   * the tool's own work before the control plane's start-up, which is the same binary for both.
   * The rest of createMs is that start-up (its post-start hooks) plus the tool's wait for it.
   */
  toApiserverMs: number | undefined;
}

/**
 * When the cluster's kube-apiserver process started, in ms since the epoch, from its pid file
 * (both tools write <workdir>/clusters/<name>/pids/kube-apiserver.pid for the binary runtime) and
 * /proc: its start in clock ticks since boot (/proc/<pid>/stat field 22, USER_HZ = 100 on Linux)
 * against /proc/uptime read now. Both have 10 ms steps, so this is good to ~20 ms.
 */
export function apiserverStartedAt(workdir: string, cluster = 'kwok'): number | undefined {
  try {
    const pid = Number(readFileSync(join(workdir, 'clusters', cluster, 'pids', 'kube-apiserver.pid'), 'utf8').trim());
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const uptimeSeconds = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    const bootedAt = Date.now() - uptimeSeconds * 1000;
    return Number.isFinite(startTicks) && Number.isFinite(bootedAt) ? bootedAt + startTicks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/** Runs cmd with process.env plus `env` (a variable set to undefined is left out) and returns the milliseconds it took. */
async function timed(cmd: string, args: string[], env: Record<string, string | undefined>): Promise<number> {
  return (await timedWithOutput(cmd, args, env)).ms;
}

async function timedWithOutput(cmd: string, args: string[], env: Record<string, string | undefined>): Promise<{ ms: number; output: string }> {
  const started = process.hrtime.bigint();
  const result = await execa(cmd, args, { env: { ...process.env, ...env }, reject: false, all: true });
  if (result.exitCode !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${String(result.all).slice(-2000)}`);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, output: String(result.all) };
}

/**
 * Our delete, timed, with the part spent stopping the components: killing them and waiting until
 * each has exited (its timeline's "stop components" span). The wait is for the kernel to take the
 * processes down; delete waits so that a create right after it, on the same pinned ports, finds
 * them free (kwokctl signals and returns).
 */
async function timedDelete(cmd: string, args: string[], env: Record<string, string>, waits: number[]): Promise<number> {
  const { ms, output } = await timedWithOutput(cmd, args, { ...env, KWOKTS_TIMELINE: '1' });
  const wait = /delete: stop components done \(([\d.]+)s\)/.exec(output)?.[1];
  if (wait !== undefined) waits.push(Number(wait) * 1000);
  return ms;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${(median(values) / 1000).toFixed(2)}s  min ${(sorted[0]! / 1000).toFixed(2)}s  max ${(sorted.at(-1)! / 1000).toFixed(2)}s`;
}

/** The ratio ours/theirs round by round (each pair ran back to back), as median, min and max. */
function ratios(ours: readonly number[], theirs: readonly number[]): string {
  const r = ours.map((o, i) => o / theirs[i]!).sort((a, b) => a - b);
  return `ratio median ${median(r).toFixed(2)}x (min ${r[0]!.toFixed(2)}x, max ${r.at(-1)!.toFixed(2)}x)`;
}

/** Each round's create split at kube-apiserver's exec, when every round could be split. */
function splitOf(samples: readonly Sample[]): { before: number[]; after: number[] } | undefined {
  const before = samples.map((s) => s.toApiserverMs);
  if (before.length === 0 || before.some((ms) => ms === undefined)) return undefined;
  return { before: before as number[], after: samples.map((s) => s.createMs - s.toApiserverMs!) };
}

function loadAverage(): string {
  return loadavg().map((l) => l.toFixed(2)).join(' ');
}

/** One isolated workdir and kubeconfig, the same cached binaries and kubectl for both tools. */
function isolatedEnv(dir: string, extraEnv: Record<string, string> = {}): Record<string, string> {
  // KWOK_KUBECTL_BINARY: kwokctl's readiness check runs kubectl; give it the same one we use.
  return { KWOK_WORKDIR: join(dir, 'w'), KUBECONFIG: join(dir, 'kubeconfig'), KWOK_CACHE_DIR: CACHE, KWOK_KUBECTL_BINARY: join(CACHE, 'gobuild', 'kubernetes', 'v1.36.1', 'kubectl'), KWOK_KUBE_VERSION: 'v1.36.1', KWOK_RUNTIME: 'binary', ...extraEnv };
}

interface Tool {
  label: string;
  create: (env: Record<string, string>) => Promise<number>;
  del: (env: Record<string, string>) => Promise<number>;
}

async function round(tool: Tool, i: number, extraEnv: Record<string, string> = {}): Promise<Sample> {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-bench-'));
  const env = isolatedEnv(dir, extraEnv);
  try {
    const startedAt = Date.now();
    const createMs = await tool.create(env);
    const apiserverAt = apiserverStartedAt(env.KWOK_WORKDIR!);
    const toApiserverMs = apiserverAt === undefined ? undefined : apiserverAt - startedAt;
    const deleteMs = await tool.del(env);
    const split = toApiserverMs === undefined ? '' : ` (kube-apiserver started at ${(toApiserverMs / 1000).toFixed(2)}s)`;
    process.stderr.write(`${tool.label} round ${i + 1}: create ${(createMs / 1000).toFixed(2)}s${split}, delete ${(deleteMs / 1000).toFixed(2)}s (load ${loadAverage()})\n`);
    return { createMs, deleteMs, toApiserverMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rounds of each tool in turn (A B A B ...), so a change in the machine's load hits both alike. */
async function interleaved(tools: readonly Tool[], rounds: number, extraEnv: Record<string, string> = {}): Promise<Sample[][]> {
  const samples: Sample[][] = tools.map(() => []);
  for (let i = 0; i < rounds; i++) for (const [t, tool] of tools.entries()) samples[t]!.push(await round(tool, i, extraEnv));
  return samples;
}

/** Binaries built from Go modules by `kwokts artifacts build`, so both tools run the same ones. */
export function cachedBinaries(): Record<string, string> {
  const kube = join(CACHE, 'gobuild', 'kubernetes', 'v1.36.1');
  const etcd = join(CACHE, 'gobuild', 'etcd', 'v3.6.10');
  return {
    'kube-apiserver': join(kube, 'kube-apiserver'),
    'kube-controller-manager': join(kube, 'kube-controller-manager'),
    'kube-scheduler': join(kube, 'kube-scheduler'),
    etcd: join(etcd, 'etcd'),
  };
}

/** Go kwokctl and kwok (see test/peers.ts), to run on our cached binaries; undefined when absent. */
export function kwokctlPeer(): { kwokctl: string; flags: string[] } | undefined {
  const kwokctl = peerBinary('kwokctl');
  const kwok = peerBinary('kwok');
  if (!existsSync(kwokctl) || !existsSync(kwok)) return undefined;
  const b = cachedBinaries();
  return {
    kwokctl,
    flags: [
      '--runtime=binary',
      `--kube-apiserver-binary=${b['kube-apiserver']}`,
      `--kube-controller-manager-binary=${b['kube-controller-manager']}`,
      `--kube-scheduler-binary=${b['kube-scheduler']}`,
      `--etcd-binary=${b.etcd}`,
      `--kwok-controller-binary=${kwok}`,
    ],
  };
}

const NO_PEER = 'kwokctl: not found (set KWOKCTL and KWOK, or go install sigs.k8s.io/kwok/cmd/kwokctl@v0.8.0 sigs.k8s.io/kwok/cmd/kwok@v0.8.0, to compare)';

export async function benchCreate(args: string[]): Promise<void> {
  const runtimeAt = args.indexOf('--runtime');
  if (runtimeAt >= 0) {
    await benchRuntimes(Number(args.find((a) => /^\d+$/.test(a)) ?? 3), (args[runtimeAt + 1] ?? 'binary').split(','));
    return;
  }
  const rounds = Number(args[0] ?? 5);
  const results = newResults('create', `create cluster → ready, then delete, binaries cached, ${rounds} rounds`, new Date(), { rounds, runtime: 'binary' });
  const [cmd, ...pre] = cliOf(KWOKTS);
  const loadBefore = loadAverage();
  // --wait: both tools block until the cluster is ready (see docs/user/clusters.md#ready: what "ready" means).
  const deleteWaits: number[] = [];
  const tools: Tool[] = [
    { label: 'kwokts', create: (env) => timed(cmd, [...pre, 'create', 'cluster', '--wait', '2m'], env), del: (env) => timedDelete(cmd, [...pre, 'delete', 'cluster'], env, deleteWaits) },
  ];
  // KWOKTS_BASELINE=/other/checkout/bin/kwokts (or …/bin/run.cjs): that kwokts too, in the same rotation (before/after).
  const baseline = process.env.KWOKTS_BASELINE;
  if (baseline) {
    const [bcmd, ...bpre] = cliOf(baseline);
    tools.push({ label: 'baseline', create: (env) => timed(bcmd, [...bpre, 'create', 'cluster', '--wait', '2m'], env), del: (env) => timed(bcmd, [...bpre, 'delete', 'cluster'], env) });
  }
  const peer = kwokctlPeer();
  if (peer) {
    tools.push({
      label: 'kwokctl',
      create: (env) => timed(peer.kwokctl, ['create', 'cluster', ...peer.flags, '--wait=2m'], env),
      del: (env) => timed(peer.kwokctl, ['delete', 'cluster'], env),
    });
  }
  // What starting the CLI costs by itself, to tell it from the command's own work; and what
  // starting Node costs with no program at all, the least any kwokts command run by Node can take
  // (without NODE_EXTRA_CA_CERTS, which bin/kwokts keeps from Node's start-up: see docs/design/launcher.md).
  const versionMs: number[] = [];
  const nodeMs: number[] = [];
  const samples = await interleaved(tools, rounds);
  const ours = samples[0];
  const theirs = peer ? samples.at(-1) : undefined;
  const before = baseline ? samples[1] : undefined;
  for (let i = 0; i < rounds; i++) {
    versionMs.push(await timed(cmd, [...pre, '--version'], {}));
    nodeMs.push(await timed(process.execPath, ['-e', '0'], { NODE_EXTRA_CA_CERTS: undefined }));
  }
  const lines = [`kwokts  create→ready: ${stats(ours!.map((s) => s.createMs))}   delete: ${stats(ours!.map((s) => s.deleteMs))}`];
  const record = (tool: string, of: Sample[]): void => {
    results.timings.push(timing('create → ready', tool, 's', of.map((s) => s.createMs / 1000)));
    const split = splitOf(of);
    if (split) {
      results.timings.push(timing('create: command → kube-apiserver started', tool, 's', split.before.map((ms) => ms / 1000)));
      results.timings.push(timing('create: kube-apiserver started → ready', tool, 's', split.after.map((ms) => ms / 1000)));
    }
    results.timings.push(timing('delete', tool, 's', of.map((s) => s.deleteMs / 1000)));
  };
  const splitLine = (label: string, of: Sample[]): void => {
    const split = splitOf(of);
    if (split) lines.push(`${label} command → kube-apiserver started: ${stats(split.before)}   started → ready: ${stats(split.after)}`);
  };
  splitLine('kwokts ', ours!);
  record('kwokts', ours!);
  if (deleteWaits.length > 0) {
    lines.push(`kwokts  delete: stopping the components (kill, wait for exits): ${stats(deleteWaits)}`);
    results.timings.push(timing('delete: stop components (kill, wait for exits)', 'kwokts', 's', deleteWaits.map((ms) => ms / 1000)));
  }
  if (theirs) record('kwokctl', theirs);
  else results.notes.push('kwokctl not found (KWOKCTL=/path, KWOK=/path); only kwokts measured');
  // Grouped by case in this order, and within a case kwokts before kwokctl, as the picture draws them.
  const order = ['create → ready', 'create: command → kube-apiserver started', 'create: kube-apiserver started → ready', 'delete', 'delete: stop components (kill, wait for exits)'];
  results.timings.sort((a, b) => order.indexOf(a.case) - order.indexOf(b.case));
  if (theirs) {
    lines.push(`kwokctl create→ready: ${stats(theirs.map((s) => s.createMs))}   delete: ${stats(theirs.map((s) => s.deleteMs))}`);
    splitLine('kwokctl', theirs);
    lines.push(`kwokts/kwokctl pair by pair: create ${ratios(ours!.map((s) => s.createMs), theirs.map((s) => s.createMs))}; delete ${ratios(ours!.map((s) => s.deleteMs), theirs.map((s) => s.deleteMs))}`);
  } else {
    lines.push(NO_PEER);
  }
  if (before) {
    lines.push(`baseline create→ready: ${stats(before.map((s) => s.createMs))}   delete: ${stats(before.map((s) => s.deleteMs))}`);
    lines.push(`kwokts/baseline pair by pair: create ${ratios(ours!.map((s) => s.createMs), before.map((s) => s.createMs))}; delete ${ratios(ours!.map((s) => s.deleteMs), before.map((s) => s.deleteMs))}`);
    if (theirs) lines.push(`baseline/kwokctl pair by pair: create ${ratios(before.map((s) => s.createMs), theirs.map((s) => s.createMs))}; delete ${ratios(before.map((s) => s.deleteMs), theirs.map((s) => s.deleteMs))}`);
  }
  lines.push(`kwokts --version (CLI start alone): ${stats(versionMs)}`);
  lines.push(`node -e 0 (Node's own start, the least a command run by Node takes): ${stats(nodeMs)}`);
  process.stdout.write(`create cluster, binaries cached, ${rounds} interleaved rounds (load average before ${loadBefore}, after ${loadAverage()}):\n${lines.join('\n')}\n`);
  writeResults(results);
}

/**
 * `npm run bench -- restore N`: etcd snapshot restore, each tool on a cluster of its own holding
 * the same objects (`--objects` config maps, 200 by default), restored N times in turn. Before each
 * restore one config map is created and one deleted, so "restored" is observable. Both tools are
 * timed to the same bar, until the restored cluster serves the restored state (the new config map
 * gone, the deleted one back, /readyz answering): kwokctl returns before that (its apiserver is
 * still starting), kwokts returns at it. The return times are printed beside it.
 */
export async function benchRestore(args: string[]): Promise<void> {
  const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 5);
  const objectsAt = args.indexOf('--objects');
  const objects = objectsAt >= 0 ? Number(args[objectsAt + 1]) : 200;
  const kubectl = join(CACHE, 'gobuild', 'kubernetes', 'v1.36.1', 'kubectl');
  const peer = kwokctlPeer();
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-bench-'));
  const startedAt = new Date();
  const loadBefore = loadAverage();
  const setups = [
    { label: 'kwokts', env: isolatedEnv(join(dir, 'ours')), cli: cliOf(KWOKTS) },
    ...(peer ? [{ label: 'kwokctl', env: isolatedEnv(join(dir, 'theirs')), cli: [peer.kwokctl] as const }] : []),
  ];
  const snapshots: string[] = [];
  // kwokctl takes etcdctl and etcdutl from its config only (no flag): ours, from the same cache.
  const etcd = dirname(cachedBinaries().etcd!);
  const kwokctlConfig = join(dir, 'kwokctl.yaml');
  writeFileSync(kwokctlConfig, `apiVersion: config.kwok.x-k8s.io/v1alpha1\nkind: KwokctlConfiguration\noptions:\n  etcdctlBinary: ${join(etcd, 'etcdctl')}\n  etcdutlBinary: ${join(etcd, 'etcdutl')}\n`);
  const kubectlIn = (env: Record<string, string>, kargs: string[], input?: string) => execa(kubectl, kargs, { env: { ...process.env, ...env }, reject: false, ...(input === undefined ? {} : { input }) });
  try {
    for (const setup of setups) {
      const [cmd, ...pre] = setup.cli;
      await timed(cmd, [...pre, 'create', 'cluster', ...(setup.label === 'kwokctl' ? [`--config=${kwokctlConfig}`, ...peer!.flags, '--wait=2m'] : ['--wait', '2m'])], setup.env);
      const manifest = Array.from({ length: objects }, (_, i) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"bench-${i}","namespace":"default"},"data":{"v":"${'x'.repeat(512)}"}}`).join('\n');
      await execa(kubectl, ['apply', '-f', '-'], { env: { ...process.env, ...setup.env }, input: manifest });
      const snapshot = join(dir, `${setup.label}.db`);
      await timed(cmd, [...pre, 'snapshot', 'save', '--path', snapshot], setup.env);
      snapshots.push(snapshot);
    }
    const returnMs: number[][] = setups.map(() => []);
    const servedMs: number[][] = setups.map(() => []);
    for (let i = 0; i < rounds; i++) {
      for (const [t, setup] of setups.entries()) {
        const [cmd, ...pre] = setup.cli;
        // What the restore must undo: a config map the snapshot lacks, one it has deleted.
        for (const kargs of [['create', 'configmap', 'bench-after', '-n', 'default'], ['delete', 'configmap', 'bench-0', '-n', 'default']]) {
          const r = await kubectlIn(setup.env, kargs);
          if (r.exitCode !== 0) throw new Error(`kubectl ${kargs.join(' ')} failed: ${r.stderr}`);
        }
        const started = process.hrtime.bigint();
        returnMs[t]!.push(await timed(cmd, [...pre, 'snapshot', 'restore', '--path', snapshots[t]!], setup.env));
        // Served: the restored objects answer, and so does /readyz.
        for (;;) {
          const got = await kubectlIn(setup.env, ['get', 'configmap', 'bench-0', 'bench-after', '-n', 'default', '-o', 'name', '--ignore-not-found']);
          if (got.exitCode === 0 && String(got.stdout).trim() === 'configmap/bench-0' && (await kubectlIn(setup.env, ['get', '--raw', '/readyz'])).exitCode === 0) break;
          await new Promise((res) => setTimeout(res, 50));
        }
        servedMs[t]!.push(Number(process.hrtime.bigint() - started) / 1e6);
        process.stderr.write(`${setup.label} restore round ${i + 1}: returns ${(returnMs[t]!.at(-1)! / 1000).toFixed(2)}s, serves the restored state ${(servedMs[t]!.at(-1)! / 1000).toFixed(2)}s (load ${loadAverage()})\n`);
      }
    }
    const lines = setups.map((s, t) => `${s.label.padEnd(7)} snapshot restore: returns ${stats(returnMs[t]!)} | serves the restored state ${stats(servedMs[t]!)}`);
    if (peer) lines.push(`kwokts/kwokctl pair by pair, until the restored state is served: ${ratios(servedMs[0]!, servedMs[1]!)}; return times: ${ratios(returnMs[0]!, returnMs[1]!)}`);
    else lines.push(NO_PEER);
    process.stdout.write(`snapshot restore (etcd, ${objects} config maps), ${rounds} interleaved rounds (load average before ${loadBefore}, after ${loadAverage()}):\n${lines.join('\n')}\n`);
    const results = newResults('restore', `etcd snapshot restore of ${objects} config maps → the restored state served, ${rounds} rounds`, startedAt, { rounds, objects });
    for (const [t, setup] of setups.entries()) results.timings.push(timing('restore → served', setup.label, 's', servedMs[t]!.map((ms) => ms / 1000)));
    for (const [t, setup] of setups.entries()) results.timings.push(timing('restore returns', setup.label, 's', returnMs[t]!.map((ms) => ms / 1000)));
    if (!peer) results.notes.push('kwokctl not found (KWOKCTL=/path, KWOK=/path); only kwokts measured');
    writeResults(results);
  } finally {
    for (const setup of setups) {
      const [cmd, ...pre] = setup.cli;
      await execa(cmd, [...pre, 'delete', 'cluster'], { env: { ...process.env, ...setup.env }, reject: false });
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

/** kind's dockerd (test/engines/docker-kind.sh); the node image is made there beforehand. */
async function kindEngineEnv(): Promise<Record<string, string>> {
  const { execa } = await import('execa');
  const host = String((await execa('bash', [join(ROOT, 'test', 'engines', 'docker-kind.sh')])).stdout).trim().split('\n').pop()!;
  process.env.DOCKER_HOST = host;
  const { ensureTestImages } = await import('../engines/images.js');
  await ensureTestImages('docker');
  return { DOCKER_HOST: host };
}

/**
 * `npm run bench -- create 3 --runtime binary,docker,podman,kind`: create→ready per runtime, images
 * present (made locally by test/engines), each engine the tests' own.
 */
async function benchRuntimes(rounds: number, runtimes: string[]): Promise<void> {
  const results = newResults('create', `create cluster → ready by runtime, ${rounds} rounds`, new Date(), { rounds, runtimes: runtimes.join(',') });
  const [cmd, ...pre] = cliOf(KWOKTS);
  const lines: string[] = [];
  for (const runtime of runtimes) {
    // kind runs on the kind tests' dockerd (its node image: kwokts artifacts build kind-node-image, made beforehand).
    const engineEnv = runtime === 'kind' ? await kindEngineEnv() : runtime === 'docker' || runtime === 'podman' ? (await startEngine(runtime)).env : {};
    // A name of its own: an engine's container names are shared by everyone who uses it.
    const name = ['--name', `bench-${runtime}-${process.pid}`];
    const [samples = []] = await interleaved(
      [{
        label: runtime,
        create: (env) => timed(cmd, [...pre, ...name, 'create', 'cluster', '--wait', runtime === 'kind' ? '10m' : '2m'], env),
        del: (env) => timed(cmd, [...pre, ...name, 'delete', 'cluster'], env),
      }],
      rounds,
      { KWOK_RUNTIME: runtime, ...engineEnv },
    );
    lines.push(`${runtime.padEnd(7)} create→ready: ${stats(samples.map((s) => s.createMs))}   delete: ${stats(samples.map((s) => s.deleteMs))}`);
    results.timings.push(timing('create → ready', runtime, 's', samples.map((s) => s.createMs / 1000)));
    results.timings.push(timing('delete', runtime, 's', samples.map((s) => s.deleteMs / 1000)));
  }
  results.timings.sort((a, b) => (a.case === b.case ? 0 : a.case === 'delete' ? 1 : -1));
  process.stdout.write(`create cluster by runtime, binaries and images present, ${rounds} rounds:\n${lines.join('\n')}\n`);
  writeResults(results);
}
