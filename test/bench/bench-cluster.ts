/**
 * A cluster the benches that run one tool after the other (./soak.ts, ./capacity.ts) make per
 * tool: the environment kwokts runs with (a workdir and kubeconfig of the bench's own, the shared
 * binary cache, the binary runtime) and the controller the bench starts on it in place of the
 * cluster's own (`create cluster --disable kwok-controller`), with the flags a cluster gives its
 * controller (./controller.ts); and the end of both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../e2e/harness.js';
import { controllerEnv, controllerFlags, kwokts, type ClusterPaths } from './controller.js';
import type { ToolRun } from './tool-runs.js';

const CACHE = process.env.KWOK_CACHE_DIR ?? join(homedir(), '.kwok', 'cache');

/** kwokts's environment for a cluster: KWOK_WORKDIR says where its files are. */
export type BenchEnv = { KWOK_WORKDIR: string; KUBECONFIG: string; KWOK_CACHE_DIR: string; KWOK_KUBE_VERSION: string; KWOK_RUNTIME: string };

/** kwokts's environment for a cluster whose files live under `dir`. */
export function benchEnv(dir: string): BenchEnv {
  return { KWOK_WORKDIR: join(dir, 'w'), KUBECONFIG: join(dir, 'kubeconfig'), KWOK_CACHE_DIR: CACHE, KWOK_KUBE_VERSION: 'v1.36.1', KWOK_RUNTIME: 'binary' };
}

/**
 * Starts `run`'s controller on the cluster of `paths`: its stage YAML written beside the cluster's
 * files, a free port for its kubelet endpoint and /healthz, its output to `log`. The caller waits
 * for /healthz (waitHealthy) and stops the process.
 */
export async function launchController(run: ToolRun, paths: ClusterPaths, leaseDurationSeconds: number, log: string, env: BenchEnv): Promise<{ child: ChildProcess; port: number }> {
  const stagesFile = join(paths.dir, 'bench-stages.yaml');
  writeFileSync(stagesFile, run.stages);
  const port = await freePort();
  const fd = openSync(log, 'w');
  const child = spawn(run.controller.command, [...run.controller.entry, ...controllerFlags(paths, stagesFile, port, leaseDurationSeconds), ...run.controller.extra], { stdio: ['ignore', fd, fd], env: controllerEnv(env) });
  closeSync(fd);
  return { child, port };
}

/**
 * The controller stopped (SIGTERM, SIGKILL a second later) and the cluster deleted with `dir`,
 * unless KWOKTS_BENCH_KEEP asks to keep it; `say` gets what went wrong or what was kept.
 */
export async function tearDown(child: ChildProcess | undefined, env: BenchEnv, cluster: string, dir: string, say: (line: string) => void): Promise<void> {
  if (child?.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  if (!process.env.KWOKTS_BENCH_KEEP) {
    await kwokts(['delete', 'cluster'], env, cluster).catch((e: unknown) => say(`delete: ${String(e)}`));
    rmSync(dir, { recursive: true, force: true });
  } else {
    say(`kept: KWOK_WORKDIR=${env.KWOK_WORKDIR} (KWOKTS_BENCH_KEEP)`);
  }
}
