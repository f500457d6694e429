/**
 * `npm run bench -- scale [--pods 10000] [--nodes 10]`: time `kwokts scale` on a fresh cluster
 * created with --disable-qps-limits (the scheduler off, so only creation is measured): N nodes,
 * then M pods, then scaling the pods to 0 — and kwokctl's scale beside it on its own cluster
 * when a kwokctl binary is found (KWOKCTL=/path or ~/go/bin/kwokctl).
 */
import { execa } from 'execa';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cachedBinaries } from './create.js';
import { peerBinary } from '../peers.js';
import { nodesResource, podsResource } from '../../src/kube/client/resources.js';
import type { ResourceRef } from '../../src/kube/client/types.js';
import { trackReadiness, type ReadinessStats } from './readiness-tracker.js';
import { newResults, timing, writeResults, type Timing } from './results.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CACHE = process.env.KWOK_CACHE_DIR ?? join(homedir(), '.kwok', 'cache');

function flag(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? Number(args[i + 1]) : fallback;
}

async function timed(cmd: string, args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const result = await execa(cmd, args, { env: { ...process.env, ...env }, reject: false, all: true });
  if (result.exitCode !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${String(result.all).slice(-2000)}`);
  return (performance.now() - started) / 1000;
}

interface Row {
  label: string;
  nodes: number;
  pods: number;
  podsDown: number;
  /** Created until all Ready (nodes) / Running (pods), and what the watch saw meanwhile. */
  nodesReady: number;
  podsRunning: number;
  nodeStats: ReadinessStats;
  podStats: ReadinessStats;
}

/** Scale, then wait until every copy is Ready: the seconds to each, and what a watch saw. */
async function scaleTracked(cmd: string, args: string[], env: Record<string, string>, kubeconfig: string, ref: ResourceRef, count: number): Promise<[number, number, ReadinessStats]> {
  const tracker = await trackReadiness(kubeconfig, ref, ref.kind === 'Node' ? 'node' : 'pod');
  const started = performance.now();
  const seconds = await timed(cmd, args, env);
  await tracker.allReady(count);
  const ready = (performance.now() - started) / 1000;
  return [seconds, ready, await tracker.stop()];
}

function describeStats(s: ReadinessStats): string {
  return `creation→Ready p50 ${s.p50.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms, max ${s.max.toFixed(0)} ms; backlog at most ${s.maxBacklog}; ${s.secondsOverRule} s with backlog > created that second, ${s.secondsStalled} s with no new Ready`;
}

async function measure(label: string, cli: string[], nodes: number, pods: number, createFlags: string[] = [], scaleFlags: string[] = []): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-bench-scale-'));
  const env = { KWOK_WORKDIR: join(dir, 'w'), KUBECONFIG: join(dir, 'kubeconfig'), KWOK_CACHE_DIR: CACHE, KWOK_KUBECTL_BINARY: join(CACHE, 'gobuild', 'kubernetes', 'v1.36.1', 'kubectl'), KWOK_KUBE_VERSION: 'v1.36.1', KWOK_RUNTIME: 'binary' };
  const [cmd, ...pre] = cli as [string, ...string[]];
  try {
    await timed(cmd, [...pre, '--name', 'bench-scale', 'create', 'cluster', '--disable-qps-limits', '--disable', 'kube-scheduler', '--wait', '2m', ...createFlags], env);
    const kubeconfig = join(env.KWOK_WORKDIR, 'clusters', 'bench-scale', 'kubeconfig.yaml');
    const [nodesSeconds, nodesReady, nodeStats] = await scaleTracked(cmd, [...pre, '--name', 'bench-scale', 'scale', 'node', '--replicas', String(nodes), ...scaleFlags], env, kubeconfig, nodesResource, nodes);
    const [podsSeconds, podsRunning, podStats] = await scaleTracked(cmd, [...pre, '--name', 'bench-scale', 'scale', 'pod', '--replicas', String(pods), '--param', '.nodeName="node-000000"', ...scaleFlags], env, kubeconfig, podsResource, pods);
    const row: Row = {
      label,
      nodes: nodesSeconds,
      pods: podsSeconds,
      podsDown: await timed(cmd, [...pre, '--name', 'bench-scale', 'scale', 'pod', '--replicas', '0'], env),
      nodesReady,
      podsRunning,
      nodeStats,
      podStats,
    };
    process.stderr.write(`${label}: ${nodes} nodes ${row.nodes.toFixed(1)}s (all Ready ${nodesReady.toFixed(1)}s), ${pods} pods ${row.pods.toFixed(1)}s (all Running ${podsRunning.toFixed(1)}s), down to 0 ${row.podsDown.toFixed(1)}s\n`);
    process.stderr.write(`${label}: nodes: ${describeStats(nodeStats)}\n${label}: pods: ${describeStats(podStats)}\n`);
    return row;
  } finally {
    await execa(cmd, [...pre, '--name', 'bench-scale', 'delete', 'cluster'], { env: { ...process.env, ...env }, reject: false });
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchScale(args: string[]): Promise<void> {
  const nodes = flag(args, 'nodes', 10);
  const pods = flag(args, 'pods', 10_000);
  const startedAt = new Date();
  const rows: Row[] = [];
  const results = newResults('scale', `scale: ${nodes} nodes, ${pods} pods, pods to 0 (one run each)`, startedAt, { nodes, pods });
  // Written after each tool, so a run cut short keeps what it measured.
  const record = (row: Row): void => {
    rows.push(row);
    const cases: Array<[string, Timing['unit'], number]> = [
      [`${nodes} nodes`, 's', row.nodes],
      [`${nodes} nodes all Ready`, 's', row.nodesReady],
      [`node creation→Ready p99`, 'ms', row.nodeStats.p99],
      [`${pods} pods`, 's', row.pods],
      [`${pods} pods all Running`, 's', row.podsRunning],
      [`pod creation→Running p99`, 'ms', row.podStats.p99],
      ['pods to 0', 's', row.podsDown],
    ];
    for (const [caseName, unit, value] of cases) results.timings.push(timing(caseName, row.label, unit, [value]));
    results.notes.push(`${row.label}: nodes: ${describeStats(row.nodeStats)}`, `${row.label}: pods: ${describeStats(row.podStats)}`);
    writeResults(results, undefined, false);
  };
  const ours = ['node', join(ROOT, 'bin', 'run.cjs')];
  record(await measure('kwokts', ours, nodes, pods));
  record(await measure('kwokts --no-pace', ours, nodes, pods, [], ['--no-pace']));
  const kwokctl = peerBinary('kwokctl');
  const kwok = peerBinary('kwok');
  if (existsSync(kwokctl) && existsSync(kwok)) {
    // Same binaries as ours; kwokctl cannot download them here.
    const b = cachedBinaries();
    const flags = ['--runtime=binary', `--kube-apiserver-binary=${b['kube-apiserver']}`, `--kube-controller-manager-binary=${b['kube-controller-manager']}`, `--kube-scheduler-binary=${b['kube-scheduler']}`, `--etcd-binary=${b.etcd}`, `--kwok-controller-binary=${kwok}`];
    try {
      record(await measure('kwokctl', [kwokctl], nodes, pods, flags));
    } catch (error) {
      process.stderr.write(`kwokctl: ${(error as Error).message.split('\n')[0]}\n`);
    }
  } else {
    process.stderr.write(`kwokctl: not measured (no ${kwokctl} and ${kwok}; go install sigs.k8s.io/kwok/cmd/{kwok,kwokctl}@v0.8.0)\n`);
  }
  const columns: Array<[string, (r: Row) => string]> = [
    [`${nodes} nodes`, (r) => `${r.nodes.toFixed(1)} s`],
    ['all Ready', (r) => `${r.nodesReady.toFixed(1)} s`],
    ['p99 →Ready', (r) => `${r.nodeStats.p99.toFixed(0)} ms`],
    ['backlog', (r) => String(r.nodeStats.maxBacklog)],
    [`${pods} pods`, (r) => `${r.pods.toFixed(1)} s`],
    ['all Running', (r) => `${r.podsRunning.toFixed(1)} s`],
    ['p99 →Running', (r) => `${r.podStats.p99.toFixed(0)} ms`],
    ['backlog', (r) => String(r.podStats.maxBacklog)],
    ['pods to 0', (r) => `${r.podsDown.toFixed(1)} s`],
  ];
  process.stdout.write(`scale benchmark (cluster with --disable-qps-limits, scheduler off; backlog: most created-but-not-Ready at a one-second sample):\n`);
  process.stdout.write(`${'tool'.padEnd(18)}${columns.map(([h]) => h.padEnd(14)).join('')}\n`);
  for (const r of rows) process.stdout.write(`${r.label.padEnd(18)}${columns.map(([, f]) => f(r).padEnd(14)).join('')}\n`);
  writeResults(results);
}
