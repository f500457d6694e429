/**
 * `npm run bench -- capacity [--steps 1000,2000,4000,8000,16000] [--hold 2m] [--minutes 30]
 *   [--tool ours|kwok|both] [--shards 1] [--every 10s] [--concurrency 32]`
 *
 * Capacity of the kwok controller: the most nodes it keeps Ready with 40 s node leases on this
 * machine, ours (kwokts's embedded controller) beside Go kwok (KWOK=/path or ~/go/bin/kwok), one
 * after the other in one run, each on a fresh cluster:
 *   - `kwokts create cluster --disable kwok-controller --disable kube-scheduler --disable-qps-limits
 *     --heartbeat-factor 1` (no pods, so no scheduler), then the controller started by the bench
 *     with the flags a cluster gives it (./controller.ts) and --node-lease-duration-seconds=40.
 *     40 s is kwokctl's node lease duration before its heartbeat factor (5 by default, which makes
 *     a cluster's leases 200 s; kwok's own binary holds no lease unless told a duration). With the
 *     factor at 1, kube-controller-manager's node monitor grace period is kwokctl's 40 s too, so a
 *     node whose lease goes unrenewed for 40 s is marked NotReady. Ours runs with templates/stages,
 *     Go kwok with kwok's own stages (./tool-runs.ts); both with their own defaults otherwise.
 *     With --shards N (N > 1), ours runs as `--kwok-controller-shards N` runs it: one process with
 *     --shards N that starts N-1 shard children, each holding the leases of its share of the nodes
 *     (Go kwok has no shards: it runs as one process whatever --shards says). The controller's RSS
 *     and CPU are then those of all its processes together, and the shards' membership leases,
 *     which live beside the node leases, are not counted as node leases.
 *   - The node count grows in steps (--steps), each made by `kwokts scale node --replicas N`
 *     (paced, kwokctl's node template), until every node is Ready; then a hold of --hold (2
 *     minutes) with a sample every --every (10 s).
 *   - A step holds when, through its whole hold, no node left Ready and no node lease was late.
 *     Both are caught from the watch events between the samples (./capacity-watch.ts), not only
 *     at them: kube-controller-manager marks a node whose lease expired NotReady, and node-initialize
 *     makes it Ready again within moments, a flap a sample would miss; a lease is late when its
 *     renewal comes after renewTime + leaseDurationSeconds (or a sample finds that time past, as
 *     ./soak.ts counts it).
 *   - A tool stops at its first step that does not hold, and when its budget is spent: half of
 *     --minutes each (all of it with --tool ours or kwok), counted from its cluster's creation. A
 *     step whose growth (at the last step's pace per node) and hold do not fit in what is left is
 *     not started (./capacity-steps.ts); a step the budget ends is cut, neither held nor failed. A
 *     step fails while it grows too, at the first late lease or node gone from Ready: the
 *     controller is already losing what it had, and the rest might never be Ready.
 * A line per sample (nodes, Ready, NotReady, late leases now and in the step, the oldest renewal,
 * RSS and CPU of every process) and per step; at the end a table, the tools side by side, with
 * the ratio of their largest steps held.
 *
 * The JSON (./results.ts, bench "capacity") is rewritten after every sample, so a run cut short
 * keeps what it measured: timings per step (seconds from the step's start until every node was
 * Ready); series per tool over the seconds since its controller was up: nodes asked for, nodes
 * Ready and NotReady, late leases now, each process's RSS MiB and CPU %; at each step's verdict a
 * point of "step held" or "step failed" (value: the step's node count) and of "late node leases
 * in the hold" and "nodes gone NotReady in the hold" (of its growth, for a step that failed while
 * growing); notes with each step's verdict and figures.
 * SIGINT/SIGTERM end the run at once (the cluster is deleted; KWOKTS_BENCH_KEEP=1 keeps it). The
 * bench's own watches of every node and lease share the machine with the controller; their CPU is
 * in the lines as "bench". Needs `npm run build`. Never a test: nothing here passes or fails.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGoDurationMs } from '../../src/gocompat/go-duration.js';
import { buildConnection } from '../../src/kube/client/connection.js';
import { HttpKubeClient } from '../../src/kube/client/http-client.js';
import { Reflector } from '../../src/kube/client/reflector.js';
import { leasesResource, nodesResource } from '../../src/kube/client/resources.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig/load.js';
import { shardLabel } from '../../src/kwok/controllers/shard-membership.js';
import { silentLogger } from '../../src/util/log.js';
import { benchEnv, launchController, tearDown } from './bench-cluster.js';
import { capacityTable, judgeHold, largestHeldRatio, parseSteps, planStep, stepCell, summarize, type StepRecord, type ToolSteps } from './capacity-steps.js';
import { CapacityTally, type TallySample } from './capacity-watch.js';
import { clusterPaths, kwokts, waitHealthy } from './controller.js';
import { clock, fixed, sleep } from './lines.js';
import { startLongRun } from './long-run.js';
import { groupCpuSeconds, ProcessSampler, withChildren } from './process-sampler.js';
import { newResults, timing, writeResults, type BenchResults, type Series } from './results.js';
import { componentPids, numberOption, option, slim, slimNode } from './scale-out.js';
import { toolChoice, toolRuns, type ToolRun } from './tool-runs.js';

/** kwokctl's nodeLeaseDurationSeconds before its heartbeat factor, given to both controllers. */
const LEASE_DURATION_SECONDS = 40;
/** A line at least this often, whatever --every says. */
const MAX_EVERY_MS = 15_000;

interface CapacityOptions {
  steps: number[];
  holdMs: number;
  minutes: number;
  everyMs: number;
  concurrency: number;
  /** Our controller's shard processes (1: a single process). */
  shards: number;
}

const seconds = (ms: number): string => (ms / 1000).toFixed(0);
const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

/** One tool's run on a fresh cluster: its steps as far as they got, within `budgetMs`. */
async function capacityOne(run: ToolRun, options: CapacityOptions, budgetMs: number, results: BenchResults, save: () => void, logDir: string, stop: AbortSignal): Promise<StepRecord[]> {
  const label = run.controller.label;
  const cluster = `cap-${run.tool}`;
  const dir = mkdtempSync(join(tmpdir(), `kwokts-bench-${cluster}-`));
  const env = benchEnv(dir);
  const say = (line: string): void => void process.stdout.write(`[${clock()}] ${label} ${line}\n`);
  const note = (line: string): void => void results.notes.push(`${label}: ${line}`);
  const log = join(logDir, `${run.tool}.log`);
  const steps: StepRecord[] = options.steps.map((nodes) => ({ nodes, verdict: 'not reached' }));
  const started = performance.now();
  const deadline = started + budgetMs;
  // `end`: a signal came or the controller died; `budget`: that, or the budget is spent.
  const end = new AbortController();
  const onStop = (): void => end.abort();
  stop.addEventListener('abort', onStop, { once: true });
  // A timer of our own rather than AbortSignal.timeout inside AbortSignal.any: Node 20 can collect
  // that timeout signal before it fires, and a budget that never ends leaves the step growing forever.
  const budgetController = new AbortController();
  const onEnd = (): void => budgetController.abort();
  end.signal.addEventListener('abort', onEnd, { once: true });
  const budgetTimer = setTimeout(onEnd, budgetMs);
  const budget = budgetController.signal;
  const watches = new AbortController();
  let child: ChildProcess | undefined;
  let client: HttpKubeClient | undefined;
  let controllerExit: string | undefined;
  // Why a step ended early, in the words of its verdict.
  const interruption = (): string => controllerExit ?? (stop.aborted ? 'stopped by a signal' : 'the budget ran out');
  // A line every 10 s while something long and silent runs (the cluster's creation).
  const ticking = (what: string): (() => void) => {
    const since = performance.now();
    const timer = setInterval(() => say(`${what} (${seconds(performance.now() - since)} s)`), 10_000);
    return () => clearInterval(timer);
  };
  note(`stages ${run.stagesFrom}; node leases ${LEASE_DURATION_SECONDS} s; budget ${seconds(budgetMs)} s; controller log ${log}`);
  try {
    const untick = ticking(`creating cluster ${cluster}`);
    try {
      await kwokts(['create', 'cluster', '--disable', 'kwok-controller', '--disable', 'kube-scheduler', '--disable-qps-limits', '--heartbeat-factor', '1', '--etcd-quota-backend-size', '8Gi', '--wait', '5m'], env, cluster, budget);
    } finally {
      untick();
    }
    const clusterDir = join(env.KWOK_WORKDIR, 'clusters', cluster);
    const paths = clusterPaths(clusterDir);
    const launched = await launchController(run, paths, LEASE_DURATION_SECONDS, log, env);
    child = launched.child;
    const controllerChild = child;
    controllerChild.once('exit', (code, signal) => {
      if (end.signal.aborted) return;
      controllerExit = `the controller exited (${code ?? signal})`;
      say(`${controllerExit}; the run ends`);
      end.abort();
    });
    await waitHealthy(launched.port, controllerChild, 120);
    say(`cluster ${cluster} and controller up in ${((performance.now() - started) / 1000).toFixed(1)} s (${clusterDir})`);

    const { config } = loadKubeConfig({ kubeconfig: paths.kubeconfig, logger: silentLogger });
    client = new HttpKubeClient(await buildConnection(config), { maxSockets: 8 });
    const tally = new CapacityTally();
    const nodeWatch = new Reflector({ client, ref: nodesResource, logger: silentLogger, transform: slimNode, onEvent: (type, node) => tally.onNode(type, node) });
    // A sharded controller's membership leases live beside the node leases: not node leases.
    const leaseWatch = new Reflector({ client, ref: leasesResource, selectors: { namespace: 'kube-node-lease' }, logger: silentLogger, transform: slim, onEvent: (type, lease) => lease.metadata.labels?.[shardLabel] === undefined && tally.onLease(type, lease) });
    for (const watch of [nodeWatch, leaseWatch]) void watch.run(watches.signal);
    await Promise.all([nodeWatch.waitForSync(), leaseWatch.waitForSync()]);

    const t0 = performance.now();
    const since = (): number => (performance.now() - t0) / 1000;
    const top = options.steps.at(-1)!;
    // The series of this run, filled in place: every save writes what is there so far.
    const series = new Map<string, Series>();
    const point = (name: string, target: number, value: number, t = since()): void => {
      let s = series.get(name);
      if (!s) {
        s = { name, tool: label, target, points: [] };
        series.set(name, s);
        results.series.push(s);
      }
      s.points.push([Math.round(t * 10) / 10, Math.round(value * 10) / 10]);
    };
    const processes = new ProcessSampler();
    let durationsTold = false;
    /** A line and a point of every series; the controller's RSS is returned for the hold's figures. */
    const sample = (what: string, window: string): { tally: TallySample; controllerRss: number } => {
      const t = since();
      const pids: Record<string, number | number[]> = componentPids(clusterDir);
      if (controllerChild.pid !== undefined && controllerChild.exitCode === null) pids['controller'] = withChildren(controllerChild.pid);
      pids['bench'] = process.pid;
      const { rss, cpu, rssMiB: rssOf } = processes.sample(pids, t, (series, value) => point(series, 0, value, t));
      const controllerRss = rssOf['controller'] ?? NaN;
      const s = tally.sample(Date.now());
      point('nodes Ready', top, s.ready, t);
      point('nodes NotReady', 0, s.notReady, t);
      point('late node leases', 0, s.lateNow, t);
      if (!durationsTold && s.durations.some((d) => d !== LEASE_DURATION_SECONDS)) {
        durationsTold = true;
        note(`node leases of ${s.durations.join(', ')} s seen (${LEASE_DURATION_SECONDS} s asked for)`);
      }
      const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
      say(
        `${what}: nodes ${s.nodes} Ready ${s.ready} NotReady ${s.notReady} | late leases now ${s.lateNow}/${s.leases}, in this ${window} ${s.lateInWindow} (oldest renewal ${fixed(s.oldestRenewalS)} s ago; ` +
          `durations ${s.durations.join(', ') || '-'} s; nodes without a lease ${s.noLease}) | gone NotReady in this ${window} ${s.goneNotReadyInWindow} | ` +
          `RSS MiB ${rss.join(', ')} | CPU % ${cpu.join(', ') || '-'} | load ${load1}`,
      );
      save();
      return { tally: s, controllerRss };
    };
    sample('start', 'run');

    let nodesNow = 0;
    let msPerNode: number | undefined;
    // Why the steps after the last one started were not reached.
    let notReached: string | undefined;
    for (const step of steps) {
      if (budget.aborted) {
        notReached = interruption();
        break;
      }
      const remainingMs = deadline - performance.now();
      const plan = planStep({ target: step.nodes, nodesNow, remainingMs, holdMs: options.holdMs, everyMs: options.everyMs, ...(msPerNode === undefined ? {} : { msPerNode }) });
      if (!plan.start) {
        step.reason = `about ${seconds(plan.estimateMs)} s needed, ${seconds(remainingMs)} s of the budget left`;
        say(`${step.nodes} nodes: not started, ${step.reason}`);
        notReached = 'no budget left for it';
        break;
      }
      say(`${step.nodes} nodes: growing from ${nodesNow}${msPerNode === undefined ? '' : ` (about ${seconds(plan.estimateMs)} s with the hold)`}; ${seconds(remainingMs)} s of the budget left`);

      // Growth: the creator, and a sample every --every until every node is Ready.
      const stepStart = performance.now();
      point('nodes asked for', top, nodesNow);
      point('nodes asked for', top, step.nodes);
      tally.openWindow();
      let scaleError: string | undefined;
      // A node lease gone late, or a node gone from Ready, while the step grows: the controller
      // already does not keep what it has, and waiting for the rest to be Ready could outlast the budget.
      let lost: string | undefined;
      const scaleAbort = new AbortController();
      const stopScale = (): void => scaleAbort.abort();
      budget.addEventListener('abort', stopScale, { once: true });
      const scaling = kwokts(['scale', 'node', '--replicas', String(step.nodes), '--concurrency', String(options.concurrency)], env, cluster, scaleAbort.signal).then(
        () => say(`${step.nodes} nodes created in ${((performance.now() - stepStart) / 1000).toFixed(1)} s (kwokts scale node)`),
        (error: unknown) => {
          if (!scaleAbort.signal.aborted) scaleError = `kwokts scale node failed: ${firstLine(error)}`;
        },
      );
      let nextSample = stepStart + options.everyMs;
      while (tally.readyCount() < step.nodes && !budget.aborted && scaleError === undefined && lost === undefined) {
        if (performance.now() >= nextSample) {
          sample(`${step.nodes} nodes, growing ${seconds(performance.now() - stepStart)} s`, 'growth');
          nextSample += options.everyMs;
        }
        const now = tally.sample(Date.now());
        if (now.lateInWindow > 0 || now.goneNotReadyInWindow > 0) lost = `late leases ${now.lateInWindow}, gone NotReady ${now.goneNotReadyInWindow}`;
        else await sleep(Math.min(250, nextSample - performance.now()), budget);
      }
      if (lost !== undefined) scaleAbort.abort();
      await scaling;
      budget.removeEventListener('abort', stopScale);
      const grownMs = performance.now() - stepStart;
      const grown = tally.sample(Date.now());
      if (grown.ready < step.nodes) {
        step.verdict = lost !== undefined || scaleError !== undefined || controllerExit !== undefined ? 'failed' : 'cut';
        step.reason = `${lost ?? scaleError ?? interruption()} while growing (${grown.ready} of ${step.nodes} Ready)`;
        step.growLateLeases = grown.lateInWindow;
        if (step.verdict === 'failed') {
          // The report reads a step's verdict and counts from these points, whichever phase failed.
          point('step failed', top, step.nodes);
          point('late node leases in the hold', 0, grown.lateInWindow);
          point('nodes gone NotReady in the hold', 0, grown.goneNotReadyInWindow);
        }
        results.timings.push(timing(`${step.nodes} nodes all Ready (from the step's start)`, label, 's', [NaN]));
        say(`${step.nodes} nodes: ${stepCell(step)}`);
        note(`${step.nodes} nodes: ${stepCell(step)}`);
        save();
        notReached = step.verdict === 'cut' ? interruption() : 'an earlier step did not hold';
        break;
      }
      step.readySeconds = grownMs / 1000;
      step.growLateLeases = grown.lateInWindow;
      msPerNode = grownMs / (step.nodes - nodesNow);
      nodesNow = step.nodes;
      results.timings.push(timing(`${step.nodes} nodes all Ready (from the step's start)`, label, 's', [step.readySeconds]));
      say(`${step.nodes} nodes all Ready in ${step.readySeconds.toFixed(1)} s (late leases while growing ${grown.lateInWindow}); hold of ${seconds(options.holdMs)} s`);

      // The hold: samples at every --every and at its end; the verdict from the tally's window.
      const holdStart = performance.now();
      tally.openWindow();
      const pid = controllerChild.pid;
      const controllerCpu = (): number => (pid === undefined ? NaN : groupCpuSeconds(withChildren(pid)));
      const cpuStart = controllerCpu();
      const rss: number[] = [];
      let mostNotReady = 0;
      let samples = 0;
      let complete = false;
      for (let k = 1; !complete; k++) {
        const at = Math.min(holdStart + k * options.everyMs, holdStart + options.holdMs);
        await sleep(at - performance.now(), budget);
        if (budget.aborted) break;
        const s = sample(`${step.nodes} nodes, hold ${seconds(performance.now() - holdStart)}/${seconds(options.holdMs)} s`, 'hold');
        samples++;
        rss.push(s.controllerRss);
        mostNotReady = Math.max(mostNotReady, s.tally.notReady);
        complete = at >= holdStart + options.holdMs;
      }
      const holdSeconds = (performance.now() - holdStart) / 1000;
      const last = tally.sample(Date.now());
      const used = rss.filter(Number.isFinite);
      step.hold = {
        samples,
        complete,
        lateLeases: last.lateInWindow,
        goneNotReady: last.goneNotReadyInWindow,
        mostNotReady,
        seconds: holdSeconds,
        rssMiB: { mean: used.length > 0 ? used.reduce((a, b) => a + b, 0) / used.length : NaN, max: used.length > 0 ? Math.max(...used) : NaN },
        cpuPercent: (100 * (controllerCpu() - cpuStart)) / holdSeconds,
      };
      const judged = judgeHold(step.hold);
      step.verdict = controllerExit !== undefined ? 'failed' : judged.verdict;
      const reason = controllerExit ?? judged.reason;
      if (reason !== undefined) step.reason = judged.verdict === 'cut' && controllerExit === undefined ? `${interruption()}: ${reason}` : reason;
      if (step.verdict === 'held') point('step held', top, step.nodes);
      if (step.verdict === 'failed') point('step failed', top, step.nodes);
      point('late node leases in the hold', 0, step.hold.lateLeases);
      point('nodes gone NotReady in the hold', 0, step.hold.goneNotReady);
      say(`${step.nodes} nodes: ${stepCell(step)}`);
      note(`${step.nodes} nodes: ${stepCell(step)}`);
      save();
      if (step.verdict !== 'held') {
        notReached = step.verdict === 'cut' ? interruption() : 'an earlier step did not hold';
        break;
      }
    }
    for (const step of steps) if (step.verdict === 'not reached') step.reason ??= notReached;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    say(`failed: ${message}`);
    note(`failed: ${firstLine(error)}`);
    for (const step of steps) if (step.verdict === 'not reached') step.reason ??= stop.aborted ? 'stopped by a signal' : 'the run failed';
    process.exitCode = 1;
  } finally {
    clearTimeout(budgetTimer);
    end.abort();
    watches.abort();
    client?.close();
    stop.removeEventListener('abort', onStop);
    await tearDown(child, env, cluster, dir, say);
  }
  const sum = summarize(steps);
  note(`largest step held ${sum.largestHeld ?? 'none'}; first step failed ${sum.firstFailed ? `${sum.firstFailed.nodes} (${sum.firstFailed.reason ?? 'failed'})` : 'none'}; not reached ${steps.filter((s) => s.verdict === 'not reached').map((s) => `${s.nodes} (${s.reason ?? '-'})`).join(', ') || 'none'}`);
  save();
  return steps;
}

/** Our controller as `--kwok-controller-shards n` runs it, labelled with its shards; as it is for n = 1. */
function shardedRun(run: ToolRun, shards: number): ToolRun {
  if (shards === 1) return run;
  return { ...run, controller: { ...run.controller, label: `${run.controller.label}, ${shards} shards`, extra: [...run.controller.extra, `--shards=${shards}`] } };
}

export async function benchCapacity(args: string[]): Promise<void> {
  const duration = (name: string, fallback: string): number => {
    const text = option(args, name) ?? fallback;
    const ms = parseGoDurationMs(text);
    if (ms === undefined || ms <= 0) throw new Error(`--${name} ${text}: a duration such as 30s or 2m`);
    return ms;
  };
  const tool = toolChoice(option(args, 'tool'));
  const options: CapacityOptions = {
    steps: parseSteps(option(args, 'steps') ?? '1000,2000,4000,8000,16000'),
    holdMs: duration('hold', '2m'),
    minutes: numberOption(args, 'minutes', 30),
    everyMs: duration('every', '10s'),
    concurrency: numberOption(args, 'concurrency', 32),
    shards: numberOption(args, 'shards', 1),
  };
  if (!(options.minutes > 0)) throw new Error('--minutes must be positive');
  if (options.everyMs > MAX_EVERY_MS) throw new Error(`--every: at most ${MAX_EVERY_MS / 1000}s, so that a line comes at least that often`);
  if (!(Number.isInteger(options.concurrency) && options.concurrency > 0)) throw new Error('--concurrency must be a positive whole number');
  if (!(Number.isInteger(options.shards) && options.shards > 0)) throw new Error('--shards must be a positive whole number');
  const budgetMs = (options.minutes * 60_000) / (tool === 'both' ? 2 : 1);
  const notes: string[] = [];
  const runs = (await toolRuns(tool, 'cap', notes)).map((run) => (run.tool === 'ours' ? shardedRun(run, options.shards) : run));
  if (options.shards > 1 && runs.some((run) => run.tool === 'kwok')) notes.push(`Go kwok has no shards: it ran as one process (--shards ${options.shards} is ours only)`);
  const results = newResults('capacity', `capacity: the most nodes kept Ready with ${LEASE_DURATION_SECONDS} s node leases, steps ${options.steps.join(', ')}, holds of ${seconds(options.holdMs)} s`, new Date(), {
    steps: options.steps.join(','),
    holdSeconds: options.holdMs / 1000,
    minutes: options.minutes,
    tool,
    sampleEverySeconds: options.everyMs / 1000,
    leaseDurationSeconds: LEASE_DURATION_SECONDS,
    concurrency: options.concurrency,
    // Only when asked for: a run without it keeps the key of the runs made before the option.
    ...(options.shards > 1 ? { shards: options.shards } : {}),
  });
  results.notes.push(...notes);
  const { save, signal: stopSignal, logDir, close } = startLongRun(results);
  process.stdout.write(
    `capacity: ${runs.map((r) => r.controller.label).join(', ') || 'no controller'}; steps ${options.steps.join(', ')} nodes, holds of ${seconds(options.holdMs)} s, ` +
      `node leases ${LEASE_DURATION_SECONDS} s, a sample every ${seconds(options.everyMs)} s, ${seconds(budgetMs)} s per tool; logs in ${logDir}\n`,
  );
  save();
  const done: ToolSteps[] = [];
  try {
    for (const run of runs) {
      if (stopSignal.aborted) break;
      done.push({ label: run.controller.label, steps: await capacityOne(run, options, budgetMs, results, save, logDir, stopSignal) });
    }
  } finally {
    close();
    if (done.length === 2) {
      const r = largestHeldRatio(done[0]!.steps, done[1]!.steps);
      results.notes.push(`largest step held, ${done[0]!.label} ÷ ${done[1]!.label}: ${Number.isFinite(r) ? `${r.toFixed(2)}×` : '- (one of them held none)'}`);
    }
    save();
  }
  if (done.length > 0) process.stdout.write(`\n${capacityTable(done)}\n\n`);
  process.stdout.write(results.notes.map((n) => `note: ${n}\n`).join(''));
  writeResults(results);
}
