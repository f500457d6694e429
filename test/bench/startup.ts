/**
 * `npm run bench -- startup [rounds] [--kwokctl PATH]`: how long a call of the CLI takes as a whole
 * process, ours beside kwokctl's (KWOKCTL=/path, or ~/go/bin/kwokctl) and raw kubectl:
 *   --version                 kwokts --version, kwokctl --version, and `node -e 0` (Node's own start)
 *   get clusters              both on the same (empty) workdir
 *   kubectl version --client  through each tool against one cluster, and kubectl run directly;
 *                             also `node bin/run.cjs` (the Node passthrough the launcher skips)
 *   delete cluster (absent)   a delete of a cluster that does not exist: start-up and the lookup
 *   config view               a command through oclif (not one the fast path runs), empty workdir;
 *                             and its first run after an install, with no code cache to take
 *                             (kwokts only: the cache file is removed before each of these runs)
 *   create cluster --help     the help of the command with the most flags
 * kwokts runs as a user runs it: the package's "bin" entry (bin/kwokts, the sh launcher) behind
 * a symlink, as npm installs it. The cluster is made once by kwokts (binaries cached) and
 * deleted at the end. Rounds are
 * interleaved (every command once per round, the order rotated) after one warm-up round, so a
 * machine whose speed drifts slows every tool alike; min and median are reported, never judged.
 */
import { execa } from 'execa';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CODE_CACHE_DIR } from '../../src/util/code-cache.js';
import { peerBinary } from '../peers.js';
import { newResults, timing, writeResults, type BenchResults } from './results.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CACHE = process.env.KWOK_CACHE_DIR ?? join(homedir(), '.kwok', 'cache');
const KUBECTL = process.env.KWOK_KUBECTL_BINARY ?? join(CACHE, 'gobuild', 'kubernetes', 'v1.36.1', 'kubectl');
const CLUSTER = 'bench-startup';

interface Contender {
  case: string;
  tool: string;
  command: string;
  args: string[];
  /** Over this process's environment; undefined removes a variable. */
  env: Record<string, string | undefined>;
  /** Run before each timed run, outside the time. */
  before?: () => void;
}

/** Wall time of one whole run in ms, output thrown away; rejects on a non-zero exit. */
function timeOnce(c: Contender): Promise<number> {
  c.before?.();
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(c.command, c.args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...c.env } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code === 0) resolvePromise(ms);
      else reject(new Error(`${c.tool} ${c.args.join(' ')} exited ${code}: ${stderr.trim().split('\n').at(-1) ?? ''}`));
    });
  });
}

export async function benchStartup(args: string[]): Promise<void> {
  const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 10);
  const startedAt = new Date();
  const kwokctl = peerBinary('kwokctl');
  const results: BenchResults = newResults('startup', `CLI start-up: kwokts vs kwokctl vs kubectl, ${rounds} interleaved rounds`, startedAt, { rounds });
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-bench-startup-'));
  const env = { KWOK_WORKDIR: join(dir, 'w'), KUBECONFIG: join(dir, 'kubeconfig'), KWOK_CACHE_DIR: CACHE, KWOK_KUBECTL_BINARY: KUBECTL, KWOK_KUBE_VERSION: 'v1.36.1', KWOK_RUNTIME: 'binary' };
  const emptyEnv = { ...env, KWOK_WORKDIR: join(dir, 'empty') };
  mkdirSync(emptyEnv.KWOK_WORKDIR);
  const bin = join(ROOT, 'bin', 'run.cjs');
  const node = process.execPath;
  // What `npm install -g` makes: <prefix>/bin/kwokts -> the package's "bin" entry.
  const installed = join(dir, 'prefix', 'bin', 'kwokts');
  mkdirSync(join(dir, 'prefix', 'bin'), { recursive: true });
  symlinkSync(join(ROOT, (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin.kwokts!), installed);
  const kwokts = (caseName: string, a: string[], e = env): Contender => ({ case: caseName, tool: 'kwokts', command: installed, args: a, env: e });
  const peer = (caseName: string, a: string[], e = env): Contender => ({ case: caseName, tool: 'kwokctl', command: kwokctl, args: a, env: e });
  const absent = 'delete cluster (absent)';
  // The same arguments for both tools, case by case.
  const cases: Array<[string, string[], typeof env]> = [
    ['--version', ['--version'], env],
    ['get clusters', ['get', 'clusters'], emptyEnv],
    [absent, ['--name', 'bench-absent', 'delete', 'cluster'], emptyEnv],
    ['config view', ['config', 'view'], emptyEnv],
    ['create cluster --help', ['create', 'cluster', '--help'], emptyEnv],
  ];
  const contenders: Contender[] = cases.map(([name, a, e]) => kwokts(name, a, e));
  // The oclif path runs from a code cache per command (src/util/code-cache.ts) that its first run writes.
  const codeCache = join(ROOT, 'dist', 'cli', CODE_CACHE_DIR);
  const noCache = (): void => {
    for (const file of existsSync(codeCache) ? readdirSync(codeCache) : []) if (file.startsWith('config-view-')) rmSync(join(codeCache, file), { force: true });
  };
  contenders.push({ ...kwokts('config view', ['config', 'view'], emptyEnv), tool: 'kwokts, first run (no code cache)', before: noCache });
  // The floor under any Node CLI: Node starting and exiting with nothing to do.
  contenders.push({ case: '--version', tool: 'node -e 0 (floor)', command: node, args: ['-e', '0'], env });
  if (process.env.NODE_EXTRA_CA_CERTS) {
    // Node 20 parses that bundle while it starts; bin/kwokts defers it (src/util/extra-ca-certs.ts),
    // so the floor under kwokts is Node without it.
    contenders.push({ case: '--version', tool: 'node -e 0 (floor, NODE_EXTRA_CA_CERTS unset)', command: node, args: ['-e', '0'], env: { ...env, NODE_EXTRA_CA_CERTS: undefined } });
    results.notes.push(`NODE_EXTRA_CA_CERTS is set (${process.env.NODE_EXTRA_CA_CERTS}): kwokctl and kubectl ignore it, plain node pays for it at start-up, bin/kwokts defers it`);
  }
  const hasPeer = existsSync(kwokctl);
  if (hasPeer) contenders.push(...cases.map(([name, a, e]) => peer(name, a, e)));
  else results.notes.push(`kwokctl not found at ${kwokctl} (set KWOKCTL=/path); only kwokts measured`);

  let created = false;
  try {
    process.stderr.write(`creating cluster ${CLUSTER} for the kubectl passthrough (binaries cached) ...\n`);
    const create = await execa(node, [bin, '--name', CLUSTER, 'create', 'cluster', '--wait', '3m'], { env: { ...process.env, ...env }, reject: false, all: true });
    created = create.exitCode === 0;
    if (!created) results.notes.push(`kubectl passthrough not measured: create cluster failed: ${String(create.all).trim().split('\n').at(-1)}`);
    else {
      const kubeconfig = join(env.KWOK_WORKDIR, 'clusters', CLUSTER, 'kubeconfig.yaml');
      const passthrough = 'kubectl version --client';
      contenders.push(kwokts(passthrough, ['--name', CLUSTER, 'kubectl', 'version', '--client']));
      contenders.push({ case: passthrough, tool: 'node bin/run.cjs', command: node, args: [bin, '--name', CLUSTER, 'kubectl', 'version', '--client'], env });
      if (hasPeer) contenders.push(peer(passthrough, ['--name', CLUSTER, 'kubectl', 'version', '--client']));
      contenders.push({ case: passthrough, tool: 'kubectl (direct)', command: KUBECTL, args: [`--kubeconfig=${kubeconfig}`, 'version', '--client'], env });
    }

    const samples = new Map<Contender, number[]>(contenders.map((c) => [c, []]));
    const failed = new Set<Contender>();
    for (let round = 0; round <= rounds; round++) {
      // Rotate the order each round so no tool always runs right after another's.
      const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]!);
      for (const c of order) {
        if (failed.has(c)) continue;
        try {
          const ms = await timeOnce(c);
          if (round > 0) samples.get(c)!.push(Math.round(ms * 10) / 10);
        } catch (error) {
          failed.add(c);
          results.notes.push(`${c.tool} ${c.case}: ${(error as Error).message}`);
        }
      }
      if (round > 0) process.stderr.write(`round ${round}/${rounds} done\n`);
    }
    // Cases in the order above, kwokts first within each.
    for (const caseName of [...new Set(contenders.map((c) => c.case))]) {
      for (const c of contenders.filter((x) => x.case === caseName)) if (!failed.has(c)) results.timings.push(timing(c.case, c.tool, 'ms', samples.get(c)!));
    }
  } finally {
    if (created) await execa(node, [bin, '--name', CLUSTER, 'delete', 'cluster'], { env: { ...process.env, ...env }, reject: false });
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`${report(results)}\n`);
  writeResults(results);
}

/** The figures side by side: per case, each tool's min and median, and ours over the others'. */
export function report(results: BenchResults): string {
  const lines = [`${results.title} (load average ${results.machine.loadavg.join(' ')})`];
  for (const caseName of [...new Set(results.timings.map((t) => t.case))]) {
    const rows = results.timings.filter((t) => t.case === caseName);
    const ours = rows.find((r) => r.tool === 'kwokts');
    const cells = rows.map((r) => `${r.tool} min ${r.min.toFixed(0)} ms, median ${r.median.toFixed(0)} ms${ours && r !== ours ? ` (kwokts ${(ours.median / r.median).toFixed(1)}×, ${signedMs(ours.median - r.median)})` : ''}`);
    lines.push(`${caseName.padEnd(26)} ${cells.join('  |  ')}`);
  }
  for (const note of results.notes) lines.push(`note: ${note}`);
  return lines.join('\n');
}

/** A difference in milliseconds with its sign: +5 ms, -97 ms. */
function signedMs(ms: number): string {
  const rounded = Math.round(ms);
  return `${rounded < 0 ? '-' : '+'}${Math.abs(rounded)} ms`;
}
