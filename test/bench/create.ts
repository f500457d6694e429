import { execa } from 'execa';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEngine } from '../engines/start-engine.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CACHE = process.env.KWOK_CACHE_DIR ?? join(homedir(), '.kwok', 'cache');

interface Sample {
  createMs: number;
  deleteMs: number;
}

async function timed(cmd: string, args: string[], env: Record<string, string>): Promise<number> {
  const started = process.hrtime.bigint();
  const result = await execa(cmd, args, { env: { ...process.env, ...env }, reject: false, all: true });
  if (result.exitCode !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${String(result.all).slice(-2000)}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  return `median ${(median / 1000).toFixed(2)}s  min ${(sorted[0]! / 1000).toFixed(2)}s  max ${(sorted.at(-1)! / 1000).toFixed(2)}s`;
}

async function run(label: string, create: (env: Record<string, string>) => Promise<number>, del: (env: Record<string, string>) => Promise<number>, rounds: number, extraEnv: Record<string, string> = {}): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < rounds; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'kwokts-bench-'));
    // KWOK_KUBECTL_BINARY: kwokctl's readiness check runs kubectl; give it the same one we use.
    const env = { KWOK_WORKDIR: join(dir, 'w'), KUBECONFIG: join(dir, 'kubeconfig'), KWOK_CACHE_DIR: CACHE, KWOK_KUBECTL_BINARY: join(CACHE, 'gobuild', 'kubernetes', 'v1.36.1', 'kubectl'), KWOK_KUBE_VERSION: 'v1.36.1', KWOK_RUNTIME: 'binary', ...extraEnv };
    try {
      const createMs = await create(env);
      const deleteMs = await del(env);
      samples.push({ createMs, deleteMs });
      process.stderr.write(`${label} round ${i + 1}: create ${(createMs / 1000).toFixed(2)}s, delete ${(deleteMs / 1000).toFixed(2)}s\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
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

export async function benchCreate(args: string[]): Promise<void> {
  const runtimeAt = args.indexOf('--runtime');
  if (runtimeAt >= 0) {
    await benchRuntimes(Number(args.find((a) => /^\d+$/.test(a)) ?? 3), (args[runtimeAt + 1] ?? 'binary').split(','));
    return;
  }
  const rounds = Number(args[0] ?? 5);
  const bin = join(ROOT, 'bin', 'run.js');
  // --wait: both tools block until every component answers its health check.
  const ours = await run(
    'kwokts',
    (env) => timed('node', [bin, 'create', 'cluster', '--wait', '2m'], env),
    (env) => timed('node', [bin, 'delete', 'cluster'], env),
    rounds,
  );
  const lines = [`kwokts  create→ready: ${stats(ours.map((s) => s.createMs))}   delete: ${stats(ours.map((s) => s.deleteMs))}`];

  const kwokctl = process.env.KWOKCTL ?? join(homedir(), 'go', 'bin', 'kwokctl');
  const kwok = process.env.KWOK ?? join(homedir(), 'go', 'bin', 'kwok');
  if (existsSync(kwokctl) && existsSync(kwok)) {
    const b = cachedBinaries();
    const flags = [
      '--runtime=binary',
      `--kube-apiserver-binary=${b['kube-apiserver']}`,
      `--kube-controller-manager-binary=${b['kube-controller-manager']}`,
      `--kube-scheduler-binary=${b['kube-scheduler']}`,
      `--etcd-binary=${b.etcd}`,
      `--kwok-controller-binary=${kwok}`,
      '--wait=2m',
    ];
    const theirs = await run(
      'kwokctl',
      (env) => timed(kwokctl, ['create', 'cluster', ...flags], env),
      (env) => timed(kwokctl, ['delete', 'cluster'], env),
      rounds,
    );
    lines.push(`kwokctl create→ready: ${stats(theirs.map((s) => s.createMs))}   delete: ${stats(theirs.map((s) => s.deleteMs))}`);
  } else {
    lines.push(`kwokctl: not found (go install sigs.k8s.io/kwok/cmd/kwokctl@v0.9.0 sigs.k8s.io/kwok/cmd/kwok@v0.9.0 to compare)`);
  }
  process.stdout.write(`create cluster, binaries cached, ${rounds} rounds:\n${lines.join('\n')}\n`);
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
  const bin = join(ROOT, 'bin', 'run.js');
  const lines: string[] = [];
  for (const runtime of runtimes) {
    // kind runs on the kind tests' dockerd (its node image: kwokts artifacts build kind-node-image, made beforehand).
    const engineEnv = runtime === 'kind' ? await kindEngineEnv() : runtime === 'docker' || runtime === 'podman' ? (await startEngine(runtime)).env : {};
    // A name of its own: an engine's container names are shared by everyone who uses it.
    const name = ['--name', `bench-${runtime}-${process.pid}`];
    const samples = await run(
      runtime,
      (env) => timed('node', [bin, ...name, 'create', 'cluster', '--wait', runtime === 'kind' ? '10m' : '2m'], env),
      (env) => timed('node', [bin, ...name, 'delete', 'cluster'], env),
      rounds,
      { KWOK_RUNTIME: runtime, ...engineEnv },
    );
    lines.push(`${runtime.padEnd(7)} create→ready: ${stats(samples.map((s) => s.createMs))}   delete: ${stats(samples.map((s) => s.deleteMs))}`);
  }
  process.stdout.write(`create cluster by runtime, binaries and images present, ${rounds} rounds:\n${lines.join('\n')}\n`);
}
