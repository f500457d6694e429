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
import { buildConnection } from '../../src/kwok/client/connection.js';
import { HttpKubeClient } from '../../src/kwok/client/http-client.js';
import { loadKubeConfig } from '../../src/kwok/client/kubeconfig.js';
import { Reflector } from '../../src/kwok/client/reflector.js';
import { nodesResource, podsResource } from '../../src/kwok/client/resources.js';
import type { KubeObject } from '../../src/kwok/client/types.js';
import { silentLogger } from '../../src/util/log.js';
import { findControlPlaneBinaries, startControlPlane } from './kwok-controller-cluster.js';
import { defaultStageYaml } from './kwok-controller-stages.js';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const nodeCount = arg('nodes', 5000);
const podCount = arg('pods', 10000);
const createConcurrency = arg('concurrency', 32);

async function forEachLimited(count: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

function isReadyNode(node: KubeObject): boolean {
  const conditions = ((node['status'] as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []);
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

function isRunningPod(pod: KubeObject): boolean {
  return (pod['status'] as { phase?: string } | undefined)?.phase === 'Running';
}

/** utime+stime of a process and its children that were waited for, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Mean API latency per verb/resource and request counts, from the controller's /metrics. */
async function printControllerMetrics(logFile: string): Promise<void> {
  const port = /serving \/healthz and \/metrics on [^:]+:(\d+)/.exec(readFileSync(logFile, 'utf8'))?.[1];
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
  const abort = new AbortController();
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

    // Nodes.
    const readyNodes = new Set<string>();
    const nodeWatch = new Reflector({
      client,
      ref: nodesResource,
      logger: silentLogger,
      onEvent: (type, node) => {
        if (type !== 'DELETED' && isReadyNode(node)) readyNodes.add(node.metadata.name ?? '');
      },
    });
    void nodeWatch.run(abort.signal);
    await nodeWatch.waitForSync();
    const nodeStart = performance.now();
    await forEachLimited(nodeCount, createConcurrency, async (i) => {
      const name = `fake-node-${String(i).padStart(6, '0')}`;
      await client.create(nodesResource, {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name, labels: { type: 'kwok' }, annotations: { 'kwok.x-k8s.io/node': 'fake' } },
        spec: { taints: [{ key: 'kwok.x-k8s.io/node', value: 'fake', effect: 'NoSchedule' }] },
      });
    });
    const nodesCreated = (performance.now() - nodeStart) / 1000;
    while (readyNodes.size < nodeCount) await new Promise((resolve) => setTimeout(resolve, 50));
    const nodesDone = (performance.now() - nodeStart) / 1000;
    process.stdout.write(`nodes: ${nodeCount} Ready in ${nodesDone.toFixed(1)} s (creation took ${nodesCreated.toFixed(1)} s)\n`);

    // Pods, all on one node as in kwok's benchmark.
    const running = new Set<string>();
    const present = new Set<string>();
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
        if (isRunningPod(pod)) running.add(key);
      },
    });
    void podWatch.run(abort.signal);
    await podWatch.waitForSync();
    const podStart = performance.now();
    await forEachLimited(podCount, createConcurrency, async (i) => {
      await client.create(podsResource, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `fake-pod-${String(i).padStart(6, '0')}`, namespace: 'default' },
        spec: {
          nodeName: 'fake-node-000000',
          containers: [{ name: 'fake-container', image: 'fake-image' }],
          tolerations: [{ key: 'kwok.x-k8s.io/node', operator: 'Exists', effect: 'NoSchedule' }],
        },
      });
    });
    const podsCreated = (performance.now() - podStart) / 1000;
    while (running.size < podCount) await new Promise((resolve) => setTimeout(resolve, 50));
    const podsDone = (performance.now() - podStart) / 1000;
    process.stdout.write(`pods: ${podCount} Running in ${podsDone.toFixed(1)} s (creation took ${podsCreated.toFixed(1)} s)\n`);

    const deleteStart = performance.now();
    await forEachLimited(podCount, createConcurrency, async (i) => {
      await client.delete(podsResource, { name: `fake-pod-${String(i).padStart(6, '0')}`, namespace: 'default' });
    });
    const deletesSent = (performance.now() - deleteStart) / 1000;
    while (present.size > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const deleteDone = (performance.now() - deleteStart) / 1000;
    process.stdout.write(`pods: ${podCount} deleted in ${deleteDone.toFixed(1)} s (delete requests took ${deletesSent.toFixed(1)} s)\n`);
    client.close();
    await printControllerMetrics(join(plane.dir, 'kwok-controller.log'));
  } finally {
    abort.abort();
    if (controller?.pid) process.stdout.write(`controller CPU: ${cpuSeconds(controller.pid).toFixed(1)} s, benchmark process CPU: ${(process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6).toFixed(1)} s\n`);
    controller?.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.stdout.write(`logs in ${plane.dir} (kept with KWOK_E2E_KEEP=1)\n`);
    await plane.stop();
  }
}

await main();
