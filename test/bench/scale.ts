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
import { newResults, timing, writeResults } from './results.js';

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
}

async function measure(label: string, cli: string[], nodes: number, pods: number, createFlags: string[] = []): Promise<Row> {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-bench-scale-'));
  const env = { KWOK_WORKDIR: join(dir, 'w'), KUBECONFIG: join(dir, 'kubeconfig'), KWOK_CACHE_DIR: CACHE, KWOK_KUBECTL_BINARY: join(CACHE, 'gobuild', 'kubernetes', 'v1.36.1', 'kubectl'), KWOK_KUBE_VERSION: 'v1.36.1', KWOK_RUNTIME: 'binary' };
  const [cmd, ...pre] = cli as [string, ...string[]];
  try {
    await timed(cmd, [...pre, '--name', 'bench-scale', 'create', 'cluster', '--disable-qps-limits', '--disable', 'kube-scheduler', '--wait', '2m', ...createFlags], env);
    const row: Row = {
      label,
      nodes: await timed(cmd, [...pre, '--name', 'bench-scale', 'scale', 'node', '--replicas', String(nodes)], env),
      pods: await timed(cmd, [...pre, '--name', 'bench-scale', 'scale', 'pod', '--replicas', String(pods), '--param', '.nodeName="node-000000"'], env),
      podsDown: await timed(cmd, [...pre, '--name', 'bench-scale', 'scale', 'pod', '--replicas', '0'], env),
    };
    process.stderr.write(`${label}: ${nodes} nodes ${row.nodes.toFixed(1)}s, ${pods} pods ${row.pods.toFixed(1)}s, down to 0 ${row.podsDown.toFixed(1)}s\n`);
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
  const rows = [await measure('kwokts', ['node', join(ROOT, 'bin', 'run.js')], nodes, pods)];
  const kwokctl = peerBinary('kwokctl');
  const kwok = peerBinary('kwok');
  if (existsSync(kwokctl) && existsSync(kwok)) {
    // Same binaries as ours; kwokctl cannot download them here.
    const b = cachedBinaries();
    const flags = ['--runtime=binary', `--kube-apiserver-binary=${b['kube-apiserver']}`, `--kube-controller-manager-binary=${b['kube-controller-manager']}`, `--kube-scheduler-binary=${b['kube-scheduler']}`, `--etcd-binary=${b.etcd}`, `--kwok-controller-binary=${kwok}`];
    try {
      rows.push(await measure('kwokctl', [kwokctl], nodes, pods, flags));
    } catch (error) {
      process.stderr.write(`kwokctl: ${(error as Error).message.split('\n')[0]}\n`);
    }
  }
  process.stdout.write(`scale benchmark (cluster with --disable-qps-limits, scheduler off):\n`);
  process.stdout.write(`${'tool'.padEnd(10)}${`${nodes} nodes`.padEnd(14)}${`${pods} pods`.padEnd(14)}pods to 0\n`);
  for (const r of rows) process.stdout.write(`${r.label.padEnd(10)}${`${r.nodes.toFixed(1)} s`.padEnd(14)}${`${r.pods.toFixed(1)} s`.padEnd(14)}${r.podsDown.toFixed(1)} s\n`);
  const results = newResults('scale', `scale: ${nodes} nodes, ${pods} pods, pods to 0 (one run each)`, startedAt, { nodes, pods });
  for (const [key, caseName] of [['nodes', `${nodes} nodes`], ['pods', `${pods} pods`], ['podsDown', 'pods to 0']] as const) {
    for (const r of rows) results.timings.push(timing(caseName, r.label, 's', [r[key]]));
  }
  writeResults(results);
}
