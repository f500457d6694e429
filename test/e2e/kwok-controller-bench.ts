/**
 * Throughput benchmark for the kwok controller against a real etcd + kube-apiserver, modelled on
 * kwok's test/e2e/benchmark.go: N nodes until all Ready, M pods on one node until all Running, then
 * delete the pods (graceful delete, kwok's pod-delete stage finishes it) until all are gone.
 *
 *   node --import tsx test/e2e/kwok-controller-bench.ts [--nodes 5000] [--pods 10000]
 *
 * Prints one line per phase: objects, seconds until done, and how long creation itself took.
 * Env: KWOK_BENCH_PARALLELISM, KWOK_BENCH_LEASE_PARALLELISM, KWOK_BENCH_CPU_PROFILE=<dir>,
 * KWOK_E2E_NATIVE_STAGES=1 (stand-in stages without templates), KWOK_E2E_KEEP=1 (keep the logs).
 */
import { spawn } from 'node:child_process';
import { openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildConnection } from '../../src/kube/client/connection.js';
import { HttpKubeClient } from '../../src/kube/client/http-client.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig/load.js';
import { silentLogger } from '../../src/util/log.js';
import { cpuSeconds, runControllerLoad } from '../bench/controller-load.js';
import { findControlPlaneBinaries, startControlPlane } from './kwok-controller-cluster.js';
import { defaultStageYaml } from './kwok-controller-stages.js';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const nodeCount = arg('nodes', 5000);
const podCount = arg('pods', 10000);
const createConcurrency = arg('concurrency', 32);

/** Mean API latency per verb/resource and request counts, from the controller's /metrics. */
async function printControllerMetrics(logFile: string): Promise<void> {
  const port = /serving \/healthz[^\n]* on [^:\s]+:(\d+)/.exec(readFileSync(logFile, 'utf8'))?.[1];
  if (!port) return;
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const sums = new Map<string, { sum: number; count: number }>();
  for (const match of text.matchAll(/^kwok_api_request_duration_seconds_(sum|count)\{verb="(\w+)",resource="(\w*)",code="(\d+)"\} ([\d.e+-]+)$/gm)) {
    const key = `${match[2]} ${match[3]} ${match[4]}`;
    const entry = sums.get(key) ?? { sum: 0, count: 0 };
    entry[match[1] as 'sum' | 'count'] += Number(match[5]);
    sums.set(key, entry);
  }
  for (const [key, { sum, count }] of sums) process.stdout.write(`  api ${key}: ${count} requests, mean ${((sum / count) * 1000).toFixed(1)} ms\n`);
}

async function main(): Promise<void> {
  const binaries = findControlPlaneBinaries();
  if (typeof binaries === 'string') {
    process.stdout.write(`skip: ${binaries}\n`);
    return;
  }
  const plane = await startControlPlane(binaries);
  let controller: ReturnType<typeof spawn> | undefined;
  try {
    const stagesFile = join(plane.dir, 'stages.yaml');
    // KWOK_BENCH_PARALLELISM=<n> sets the node/pod play-stage parallelism (kwok's default is 4).
    const parallelism = Number(process.env['KWOK_BENCH_PARALLELISM'] ?? 0);
    const options = parallelism > 0 ? [{ kind: 'KwokConfiguration', options: { nodePlayStageParallelism: parallelism, podPlayStageParallelism: parallelism } }] : [];
    // The Stage YAML for the real engine; with KWOK_E2E_NATIVE_STAGES=1 the runner plays the
    // TypeScript stand-ins with the same names instead (to separate template cost from the rest).
    const stages = defaultStageYaml();
    process.stdout.write(`stages from ${stages.source}\n`);
    writeFileSync(stagesFile, [...options.map((d) => JSON.stringify(d)), stages.yaml].join('\n---\n'));
    const log = openSync(join(plane.dir, 'kwok-controller.log'), 'a');
    const runner = join(import.meta.dirname, 'kwok-controller-run.ts');
    // KWOK_BENCH_CPU_PROFILE=<dir> writes a V8 CPU profile of the controller there.
    const profile = process.env['KWOK_BENCH_CPU_PROFILE'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['KWOK_BENCH_CPU_PROFILE']}`] : [];
    const leaseParallelism = process.env['KWOK_BENCH_LEASE_PARALLELISM'] ? [`--node-lease-parallelism=${process.env['KWOK_BENCH_LEASE_PARALLELISM']}`] : [];
    controller = spawn(process.execPath, [...profile, '--import', 'tsx', runner, `--kubeconfig=${plane.kubeconfig}`, `--config=${stagesFile}`, '--manage-all-nodes', '--node-lease-duration-seconds=200', '--server-address=127.0.0.1:0', ...leaseParallelism], {
      stdio: ['ignore', log, log],
      env: process.env,
    });

    const { config } = loadKubeConfig({ kubeconfig: plane.kubeconfig, logger: silentLogger });
    const client = new HttpKubeClient(await buildConnection(config), { maxSockets: createConcurrency });
    await runControllerLoad(client, { nodes: nodeCount, pods: podCount, concurrency: createConcurrency, report: (line) => process.stdout.write(`${line}\n`) });
    client.close();
    await printControllerMetrics(join(plane.dir, 'kwok-controller.log'));
  } finally {
    if (controller?.pid) process.stdout.write(`controller CPU: ${cpuSeconds(controller.pid).toFixed(1)} s, benchmark process CPU: ${(process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6).toFixed(1)} s\n`);
    controller?.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.stdout.write(`logs in ${plane.dir} (kept with KWOK_E2E_KEEP=1)\n`);
    await plane.stop();
  }
}

await main();
