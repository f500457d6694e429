/**
 * `npm run bench -- report [--add <run>.json ...]`: docs/performance.md, generated from the runs
 * committed in docs/bench/ (one `<bench>-<time>.json` per run, as ./results.ts writes them to
 * bench-results/), so that every figure on the page comes from a file that says when, on what
 * machine and under what load it was measured, and a stale page fails a unit test
 * (test/unit/bench-report.test.ts) instead of drifting.
 *
 *   report                 rewrites docs/performance.md and the picture of each run
 *                          (docs/bench/<run>.svg, drawn by ./svg.ts from its JSON)
 *   report --add a.json …  first copies each run into docs/bench/, removing the committed run of
 *                          the same bench and parameters (runKey) when the new one is later
 *
 * The page: an intro, one table with a row per figure (kwokts, the peer, their ratio, the
 * command that measures it again, the run), a note on reading each bench's rows, the figures of
 * the earlier hand-written page that have no JSON yet (docs/bench/carried-over.json, kept apart
 * so that nothing is lost), and each run's details with its picture.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { heldStepLoads, projectionSection } from './capacity-projection.js';
import { RESULTS_SCHEMA, timing, type BenchResults, type Series, type Timing } from './results.js';
import { slopePerHour } from './soak.js';
import { renderSvg } from './svg.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
/** The generated page and where its runs live, relative to the repository. */
export const PAGE = 'docs/performance.md';
export const RUNS_DIR = 'docs/bench';
export const CARRIED_OVER_FILE = 'carried-over.json';

/** A committed run: its JSON's file name in RUNS_DIR and its figures. */
export interface Run {
  file: string;
  results: BenchResults;
}

/** A figure of the earlier page, kept as it was written until a run of its bench replaces it. */
export interface CarriedRow {
  measurement: string;
  kwokts: string;
  peer: string;
  how: string;
  date: string;
}

export interface CarriedOver {
  from: string;
  rows: CarriedRow[];
  notes: string[];
  pictures: Array<{ file: string; alt: string; caption: string }>;
}

/** One row of the table, every cell Markdown. */
export interface Row {
  measurement: string;
  ours: string;
  peer: string;
  ratio: string;
  command: string;
  run: string;
}

type Figure = Omit<Row, 'command' | 'run'>;

/** The cluster size the page calculates what it would take (./capacity-projection.ts). */
const PROJECTED_NODES = 50_000;

/** The order of the benches on the page: the CLI first, then the cluster, then the controller. */
const BENCH_ORDER = ['startup', 'create', 'restore', 'scale', 'controller', 'soak', 'capacity'];

/**
 * Params that say how many times, how long at most or whether profiled, rather than what was
 * measured: a run that differs only in them replaces the other (`create 7` after `create 5`)
 * instead of adding a row.
 */
const REPEAT_PARAMS = new Set(['rounds', 'timeout', 'profile']);

/**
 * Benches whose samples of different tools with the same index are one round of interleaved runs
 * (kwokts, the peer, kwokts, …): their ratio is taken pair by pair. soak runs each tool once, for
 * minutes, and its per-node samples are nodes, not rounds.
 */
const PAIRED_BENCHES = new Set(['startup', 'create', 'restore', 'controller', 'scale']);

/** A prefix that says which bench a case belongs to, where the case alone does not. */
const CASE_PREFIX: Record<string, string> = { startup: 'start-up: ', controller: 'controller: ', scale: 'scale: ', soak: 'soak: ', capacity: 'capacity: ' };

export const isOurs = (tool: string): boolean => tool === 'kwokts' || tool.startsWith('kwokts ');
export const isPeer = (tool: string): boolean => tool === 'kwokctl' || tool.startsWith('Go kwok');

/** Which runs replace each other: the bench and its params, less REPEAT_PARAMS. */
export function runKey(results: Pick<BenchResults, 'bench' | 'params'>): string {
  const params = Object.entries(results.params)
    .filter(([name]) => !REPEAT_PARAMS.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [results.bench, ...params.map(([name, value]) => `${name}=${String(value)}`)].join(' ');
}

/**
 * A run's JSON as ./results.ts wrote it, checked; null (a sample or phase that never finished)
 * back to NaN, as the bench had it, so that the figures below need no second case.
 */
export function parseRun(text: string, where: string): BenchResults {
  const data = JSON.parse(text) as BenchResults;
  if (data.schema !== RESULTS_SCHEMA) throw new Error(`${where}: schema ${String(data.schema)}, not ${RESULTS_SCHEMA}`);
  for (const field of ['bench', 'title', 'startedAt'] as const) if (typeof data[field] !== 'string') throw new Error(`${where}: no ${field}`);
  if (typeof data.machine?.cpus !== 'number' || !Array.isArray(data.machine.loadavg)) throw new Error(`${where}: no machine`);
  if (!Array.isArray(data.timings) || !Array.isArray(data.series) || !Array.isArray(data.notes) || typeof data.params !== 'object') throw new Error(`${where}: not a run of ${RESULTS_SCHEMA}`);
  const num = (v: number | null): number => v ?? NaN;
  for (const t of data.timings) {
    t.samples = t.samples.map(num);
    t.min = num(t.min);
    t.median = num(t.median);
    t.max = num(t.max);
  }
  for (const s of data.series) s.points = s.points.map(([t, v]) => [t, num(v)]);
  return data;
}

/** The runs in a directory: every .json but the carried-over figures. */
export function readRuns(dir: string): Run[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== CARRIED_OVER_FILE)
    .sort()
    .map((file) => ({ file, results: parseRun(readFileSync(join(dir, file), 'utf8'), join(dir, file)) }));
}

export function readCarriedOver(dir: string): CarriedOver {
  const path = join(dir, CARRIED_OVER_FILE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as CarriedOver) : { from: '', rows: [], notes: [], pictures: [] };
}

/** The latest run of each key, in the page's order: bench, then key. */
export function latestRuns(runs: readonly Run[]): Run[] {
  const latest = new Map<string, Run>();
  for (const run of runs) {
    const key = runKey(run.results);
    const held = latest.get(key);
    if (!held || Date.parse(run.results.startedAt) > Date.parse(held.results.startedAt)) latest.set(key, run);
  }
  const rank = (bench: string): number => (BENCH_ORDER.includes(bench) ? BENCH_ORDER.indexOf(bench) : BENCH_ORDER.length);
  return [...latest.entries()]
    .sort(([ka, a], [kb, b]) => rank(a.results.bench) - rank(b.results.bench) || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .map(([, run]) => run);
}

// ---- numbers

/** Seconds as people read them: ms below a second, three significant digits or so above. */
export function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '–';
  const a = Math.abs(s);
  if (a < 1) return `${a * 1000 >= 10 ? (s * 1000).toFixed(0) : (s * 1000).toFixed(1)} ms`;
  if (a < 10) return `${s.toFixed(2)} s`;
  if (a < 100) return `${s.toFixed(1)} s`;
  return `${s.toFixed(0)} s`;
}

const inSeconds = (t: Timing, v: number): number => (t.unit === 'ms' ? v / 1000 : v);

/** "85–159 ms", or "850 ms–1.20 s" when the ends differ in unit; one figure when they are the same. */
function range(a: string, b: string): string {
  if (a === b) return a;
  const unit = /\s(\S+)$/.exec(a)?.[1];
  return unit && b.endsWith(` ${unit}`) ? `${a.slice(0, -unit.length - 1)}–${b}` : `${a}–${b}`;
}

/** A timing's cell: its median, and with more than one sample the fastest and slowest. */
export function timingCell(t: Timing): string {
  const done = t.samples.filter(Number.isFinite).length;
  const missing = t.samples.length - done;
  if (done === 0) return `not finished (${t.samples.length === 1 ? 'its one run' : `any of ${t.samples.length}`})`;
  const format = (v: number): string => (t.unit === 'MiB' ? `${v.toFixed(0)} MiB` : formatSeconds(inSeconds(t, v)));
  const median = format(t.median);
  const [min, max] = [format(t.min), format(t.max)];
  const spread = min !== max ? ` (${range(min, max)})` : '';
  return `${median}${spread}${missing > 0 ? `; not finished in ${missing} of ${t.samples.length}` : ''}`;
}

const times = (r: number): string => `${r.toFixed(2)}×`;

/** Each pair's ours ÷ peer, the pairs where either did not finish left out. */
export function pairRatios(ours: readonly number[], peer: readonly number[]): number[] {
  if (ours.length !== peer.length) throw new Error(`pairs of unequal length: ${ours.length} and ${peer.length}`);
  return ours.map((o, i) => o / peer[i]!).filter(Number.isFinite);
}

/**
 * kwokts ÷ the peer. Pair by pair (the median of each round's ratio, and their range) when the
 * bench interleaves rounds and both sides have one sample per round; else of the medians.
 */
export function ratioCell(ours: Timing, peer: Timing, paired: boolean): string {
  if (ours.samples.length === 1 && peer.samples.length === 1) {
    const r = ours.samples[0]! / peer.samples[0]!;
    return Number.isFinite(r) ? `${times(r)} (one run each)` : '';
  }
  if (paired && ours.samples.length === peer.samples.length) {
    const ratios = pairRatios(ours.samples, peer.samples);
    if (ratios.length === 0) return '';
    const t = timing('', '', 's', ratios);
    if (ratios.length === 1) return `${times(t.median)} (one pair)`;
    const spread = times(t.min) === times(t.max) ? '' : `${times(t.min)}–${times(t.max)}, `;
    return `${times(t.median)} pair by pair (${spread}${ratios.length} pairs)`;
  }
  const r = ours.median / peer.median;
  return Number.isFinite(r) ? `${times(r)} of medians` : '';
}

/** A phase's time over the floor the other processes set (./controller.ts), per round, as a cell. */
function overFloorCell(phase: Timing, floor: Timing): string {
  const ratios = phase.samples.length === floor.samples.length ? pairRatios(phase.samples, floor.samples) : [phase.median / floor.median].filter(Number.isFinite);
  if (ratios.length === 0) return '';
  const t = timing('', '', 's', ratios);
  return times(t.min) !== times(t.max) ? `${times(t.median)} (${times(t.min)}–${times(t.max)})` : times(t.median);
}

// ---- rows

const FLOOR = ': floor';

/**
 * A row per case: kwokts, the peer (with any reference the bench ran beside them, such as
 * `node -e 0` or kubectl itself), their ratio. A case with neither (create by runtime: every tool
 * is kwokts on one runtime) gets a row per tool. A controller phase's floor goes in a row of its own,
 * as each controller's time over it.
 */
export function timingFigures(results: BenchResults, skip: (caseName: string) => boolean = () => false): Figure[] {
  const prefix = CASE_PREFIX[results.bench] ?? '';
  const paired = PAIRED_BENCHES.has(results.bench);
  const cases = [...new Set(results.timings.map((t) => t.case))].filter((c) => !skip(c));
  const figures: Figure[] = [];
  for (const caseName of cases) {
    if (caseName.endsWith(FLOOR) && cases.includes(caseName.slice(0, -FLOOR.length))) continue;
    const of = results.timings.filter((t) => t.case === caseName);
    const ours = of.find((t) => isOurs(t.tool));
    const peer = of.find((t) => isPeer(t.tool));
    if (!ours && !peer) {
      for (const t of of) figures.push({ measurement: `${prefix}${caseName} (${t.tool})`, ours: timingCell(t), peer: '', ratio: '' });
      continue;
    }
    const others = of.filter((t) => t !== ours && t !== peer);
    figures.push({
      measurement: `${prefix}${caseName}`,
      ours: ours ? timingCell(ours) : '',
      peer: [peer, ...others].filter((t): t is Timing => t !== undefined).map((t) => `${t.tool} ${timingCell(t)}`).join('; '),
      ratio: ours && peer ? ratioCell(ours, peer, paired) : '',
    });
    const floors = results.timings.filter((t) => t.case === `${caseName}${FLOOR}`);
    if (floors.length > 0) {
      const overFloor = (t: Timing | undefined): string => {
        const floor = t && floors.find((f) => f.tool === t.tool);
        return t && floor ? overFloorCell(t, floor) : '';
      };
      const peerOver = overFloor(peer);
      figures.push({ measurement: `${prefix}${caseName}: time over floor`, ours: overFloor(ours), peer: peerOver && `${peer!.tool} ${peerOver}`, ratio: '' });
    }
  }
  return figures;
}

const HEARTBEAT_CASE = 'seconds from node-initialize to the first heartbeat, per node';

/** The params a bench cannot do without, or an error naming the run. */
function param(results: BenchResults, name: string): string | number | boolean {
  const value = results.params[name];
  if (value === undefined) throw new Error(`${results.bench} run of ${results.startedAt}: no param ${name}`);
  return value;
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
const oneDecimal = (v: number): string => (Number.isFinite(v) ? v.toFixed(1) : '–');
const signed = (v: number, digits: number): string => `${v < 0 ? '−' : '+'}${Math.abs(v).toFixed(digits)}`;

/**
 * A soak's rows: the load's times (generic), then per controller the heartbeats, its RSS and CPU
 * after warm-up, what went stale once the nodes were Ready and the writes the apiserver refused.
 * "After warm-up" is as the bench fits its slopes (./soak.ts): the samples from --warmup or the
 * end of the load, whichever is later.
 */
export function soakFigures(results: BenchResults): Figure[] {
  const figures = timingFigures(results, (c) => c === HEARTBEAT_CASE);
  const tools = [...new Set([...results.timings.map((t) => t.tool), ...results.series.map((s) => s.tool)])];
  const ours = tools.find(isOurs);
  const peer = tools.find(isPeer);
  const warmupS = Number(param(results, 'warmupMinutes')) * 60;
  const nodes = Number(param(results, 'nodes'));
  const seriesOf = (tool: string, name: string): Series | undefined => results.series.find((s) => s.tool === tool && s.name === name);
  const loadTime = (tool: string, what: 'nodes Ready' | 'pods Running'): number => results.timings.find((t) => t.tool === tool && t.case.endsWith(` ${what} (from t = 0)`))?.median ?? NaN;
  const fitFrom = (tool: string): number => Math.max(warmupS, ...[loadTime(tool, 'pods Running'), loadTime(tool, 'nodes Ready')].filter(Number.isFinite));
  const after = (tool: string, name: string, from: number): number[] => (seriesOf(tool, name)?.points ?? []).filter(([t, v]) => t >= from && Number.isFinite(v)).map(([, v]) => v);

  const perTool: Array<{ measurement: string; cell: (tool: string) => { text: string; value?: number } }> = [
    {
      measurement: 'nodes whose heartbeat advanced',
      cell: (tool) => {
        const t = results.timings.find((x) => x.tool === tool && x.case === HEARTBEAT_CASE);
        if (!t) return { text: '' };
        const done = t.samples.filter(Number.isFinite).length;
        const when = done > 0 ? ` (first ${range(formatSeconds(t.min), formatSeconds(t.max))} after node-initialize, median ${formatSeconds(t.median)})` : '';
        return { text: `${done} of ${t.samples.length}${when}` };
      },
    },
    {
      // The bench counts a heartbeat by a node's Ready condition; a controller that drops a node's
      // second InternalIP has rewritten its status otherwise too, and the count above means less.
      measurement: 'nodes still dual-stack at the end',
      cell: (tool) => {
        const s = seriesOf(tool, 'nodes still dual-stack');
        const last = s?.points.at(-1);
        return { text: s && last ? `${last[1]} of ${s.target}` : '' };
      },
    },
    {
      measurement: 'controller RSS after warm-up (mean)',
      cell: (tool) => {
        const values = after(tool, 'RSS MiB controller', fitFrom(tool));
        if (values.length === 0) return { text: '' };
        const m = mean(values);
        return { text: `${m.toFixed(0)} MiB (${values.length} samples)`, value: m };
      },
    },
    {
      measurement: 'controller RSS slope after warm-up (least squares)',
      cell: (tool) => {
        const s = seriesOf(tool, 'RSS MiB controller');
        if (!s) return { text: '' };
        const fit = slopePerHour(s.points, fitFrom(tool));
        return { text: Number.isFinite(fit.perHour) ? `${signed(fit.perHour, 0)} MiB/h (${signed(fit.percentPerHour, 1)} % of its mean an hour, ${fit.n} samples)` : `too few samples (${fit.n})` };
      },
    },
    {
      measurement: 'controller CPU after warm-up (mean, % of one core)',
      cell: (tool) => {
        const values = after(tool, 'CPU % controller', fitFrom(tool));
        if (values.length === 0) return { text: '' };
        const m = mean(values);
        return { text: `${oneDecimal(m)} %`, value: m };
      },
    },
    {
      measurement: 'most NotReady nodes, most late node leases once all were Ready',
      cell: (tool) => {
        const ready = loadTime(tool, 'nodes Ready');
        if (!Number.isFinite(ready)) return { text: seriesOf(tool, 'nodes Ready') ? `the ${nodes} nodes were never all Ready` : '' };
        const worst = (name: string): number => Math.max(0, ...after(tool, name, ready));
        return { text: `${worst('nodes NotReady')}, ${worst('late node leases')}` };
      },
    },
    {
      measurement: 'node status writes refused by the apiserver',
      cell: (tool) => {
        const last = seriesOf(tool, 'node status writes refused')?.points.at(-1);
        return { text: last ? String(last[1]) : '' };
      },
    },
  ];
  for (const { measurement, cell } of perTool) {
    const o = ours === undefined ? { text: '' } : cell(ours);
    const p = peer === undefined ? { text: '' } : cell(peer);
    if (!o.text && !p.text) continue;
    const r = o.value !== undefined && p.value !== undefined ? o.value / p.value : NaN;
    figures.push({ measurement: `soak: ${measurement}`, ours: o.text, peer: p.text && `${peer} ${p.text}`, ratio: Number.isFinite(r) ? `${times(r)} of means` : '' });
  }
  return figures;
}

/**
 * A capacity run's rows: per controller, the largest step held and the first step that did not
 * hold (./capacity.ts marks each verdict with a point of "step held" or "step failed", and at the
 * same time the late leases and the nodes gone NotReady of that hold), the controller's RSS and CPU
 * over the hold of its largest step held; then each step's time to all Ready (generic). RSS and CPU
 * get a ratio only when both largest steps are the same count.
 */
export function capacityFigures(results: BenchResults): Figure[] {
  const tools = [...new Set([...results.timings.map((t) => t.tool), ...results.series.map((s) => s.tool)])];
  const ours = tools.find(isOurs);
  const peer = tools.find(isPeer);
  const holdS = Number(param(results, 'holdSeconds'));
  const seriesOf = (tool: string, name: string): Series | undefined => results.series.find((s) => s.tool === tool && s.name === name);
  const valueAt = (tool: string, name: string, t: number): number => seriesOf(tool, name)?.points.find(([at]) => at === t)?.[1] ?? NaN;
  /** The largest step held and when its hold ended; undefined when the tool did not run. */
  const largest = (tool: string): { nodes: number; at: number } | null | undefined => {
    if (!results.series.some((s) => s.tool === tool)) return undefined;
    const held = seriesOf(tool, 'step held')?.points ?? [];
    return held.reduce<{ nodes: number; at: number } | null>((best, [at, nodes]) => (best === null || nodes > best.nodes ? { nodes, at } : best), null);
  };
  const inHold = (tool: string, name: string): number[] => {
    const l = largest(tool);
    if (!l) return [];
    return (seriesOf(tool, name)?.points ?? []).filter(([t, v]) => t > l.at - holdS && t <= l.at && Number.isFinite(v)).map(([, v]) => v);
  };
  const perTool: Array<{ measurement: string; cell: (tool: string) => { text: string; value?: number } }> = [
    {
      measurement: `largest step held (${String(param(results, 'leaseDurationSeconds'))} s node leases, holds of ${holdS} s, steps ${String(param(results, 'steps')).replaceAll(',', ', ')})`,
      cell: (tool) => {
        const l = largest(tool);
        if (l === undefined) return { text: '' };
        return l === null ? { text: 'none' } : { text: `${l.nodes} nodes`, value: l.nodes };
      },
    },
    {
      measurement: 'first step not held',
      cell: (tool) => {
        const l = largest(tool);
        if (l === undefined) return { text: '' };
        const failed = seriesOf(tool, 'step failed')?.points[0];
        if (!failed) {
          const last = Number(String(param(results, 'steps')).split(',').at(-1));
          if (l?.nodes === last) return { text: 'none: every step held' };
          return { text: `none failed; the run ended ${l ? `after ${l.nodes} nodes` : 'before any step held'} (its budget, or a signal: see the notes)` };
        }
        const [at, nodes] = failed;
        return { text: `${nodes} nodes: late leases ${valueAt(tool, 'late node leases in the hold', at)}, gone NotReady ${valueAt(tool, 'nodes gone NotReady in the hold', at)}` };
      },
    },
    {
      measurement: 'controller RSS in the hold of the largest step held (mean)',
      cell: (tool) => {
        const values = inHold(tool, 'RSS MiB controller');
        if (values.length === 0) return { text: '' };
        const m = mean(values);
        return { text: `${m.toFixed(0)} MiB at ${largest(tool)!.nodes} nodes`, value: m };
      },
    },
    {
      measurement: 'controller CPU in the hold of the largest step held (mean, % of one core)',
      cell: (tool) => {
        const values = inHold(tool, 'CPU % controller');
        if (values.length === 0) return { text: '' };
        const m = mean(values);
        return { text: `${oneDecimal(m)} % at ${largest(tool)!.nodes} nodes`, value: m };
      },
    },
  ];
  const sameStep = ours !== undefined && peer !== undefined && largest(ours)?.nodes !== undefined && largest(ours)?.nodes === largest(peer)?.nodes;
  const figures: Figure[] = [];
  for (const [i, { measurement, cell }] of perTool.entries()) {
    const o = ours === undefined ? { text: '' } : cell(ours);
    const p = peer === undefined ? { text: '' } : cell(peer);
    if (!o.text && !p.text) continue;
    const r = o.value !== undefined && p.value !== undefined && (i === 0 || sameStep) ? o.value / p.value : NaN;
    figures.push({ measurement: `capacity: ${measurement}`, ours: o.text, peer: p.text && `${peer} ${p.text}`, ratio: Number.isFinite(r) ? `${times(r)} (one run each)` : '' });
  }
  const all = [...figures, ...timingFigures(results)];
  // A sharded run's rows say so: the same measurement with one process is another run's row.
  const shards = results.params['shards'];
  if (shards === undefined) return all;
  return all.map((f) => ({ ...f, measurement: f.measurement.replace(/^capacity: /, `capacity, ${String(shards)} controller shards: `) }));
}

/** A duration flag from seconds: 3m, 90s. */
const durationFlag = (seconds: number): string => (seconds % 60 === 0 ? `${seconds / 60}m` : `${seconds}s`);

/**
 * The command that measures a run again, from its bench and params: every setting the params
 * record is spelled out, so the command stays right when a bench's defaults change.
 */
export function commandOf(results: BenchResults): string {
  const p = (name: string): string => String(param(results, name));
  const flags = (...names: string[]): string => names.map((n) => `--${n} ${p(n)}`).join(' ');
  let args: string;
  switch (results.bench) {
    case 'startup':
      args = `startup ${p('rounds')}`;
      break;
    case 'create':
      args = results.params['runtimes'] !== undefined ? `create ${p('rounds')} --runtime ${p('runtimes')}` : `create ${p('rounds')}`;
      break;
    case 'restore':
      args = `restore ${p('rounds')} ${flags('objects')}`;
      break;
    case 'controller':
      args = `controller ${flags('nodes', 'pods', 'concurrency', 'timeout', 'rounds')}${['scheduler', 'pace', 'profile'].map((name) => (results.params[name] === true ? ` --${name}` : '')).join('')}`;
      break;
    case 'scale':
      args = `scale ${flags('nodes', 'pods')}`;
      break;
    case 'soak': {
      // The bench records "the stage's own delay" when no --heartbeat was given.
      const heartbeat = p('heartbeat');
      args =
        `soak ${flags('nodes', 'pods', 'minutes', 'tool')}${/^\d/.test(heartbeat) ? ` --heartbeat ${heartbeat}` : ''}` +
        ` --warmup ${durationFlag(Number(p('warmupMinutes')) * 60)} --every ${durationFlag(Number(p('sampleEverySeconds')))} ${flags('concurrency')}`;
      break;
    }
    case 'capacity':
      args =
        `capacity --steps ${p('steps')} --hold ${durationFlag(Number(p('holdSeconds')))} ${flags('minutes', 'tool')}` +
        `${results.params['shards'] === undefined ? '' : ` ${flags('shards')}`} --every ${durationFlag(Number(p('sampleEverySeconds')))} ${flags('concurrency')}`;
      break;
    default:
      args = [results.bench, ...Object.entries(results.params).map(([name, value]) => (value === true ? `--${name}` : `--${name} ${String(value)}`))].join(' ');
  }
  const nodeOptions = results.params['nodeOptions'];
  return `${typeof nodeOptions === 'string' ? `KWOKTS_BENCH_NODE_OPTIONS='${nodeOptions}' ` : ''}npm run bench -- ${args}`;
}

/** "2026-12-06 06:07 UTC". */
const when = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** The run cell: its date (a link to its JSON), the machine's cores and load average at the end. */
export function runCell(run: Run): string {
  const { machine, startedAt } = run.results;
  return `[${when(startedAt)}](bench/${run.file}), ${machine.cpus} cores, load ${machine.loadavg.join(' ')}`;
}

export function rowsOf(run: Run): Row[] {
  const figures = run.results.bench === 'soak' ? soakFigures(run.results) : run.results.bench === 'capacity' ? capacityFigures(run.results) : timingFigures(run.results);
  const command = `\`${commandOf(run.results)}\``;
  const cell = runCell(run);
  // A run whose controller had Node options of the bench's says so in every row.
  const nodeOptions = run.results.params['nodeOptions'];
  const suffix = typeof nodeOptions === 'string' ? ` (ours with ${nodeOptions})` : '';
  return figures.map((f) => ({ ...f, measurement: `${f.measurement}${suffix}`, command, run: cell }));
}

// ---- the page

/** A table cell: no pipe or line break may end it early. */
const cell = (text: string): string => text.replaceAll('|', '\\|').replace(/\s*\n\s*/g, ' ');
const table = (header: string[], rows: string[][]): string =>
  [header, header.map(() => '---'), ...rows].map((r) => `|${r.map((c) => (c ? ` ${cell(c)} ` : ' ')).join('|')}|`).join('\n');

/** How to read each bench's rows: what the bench does that the numbers alone do not say. */
const READING: Record<string, string> = {
  startup:
    'Start-up rows are whole-process times, from spawn to exit, of commands that do little else; ' +
    '`node -e 0` is the floor under any command Node runs. Where kwokctl\'s whole run takes about ' +
    "that floor or less, twice kwokctl's time leaves a Node command at most as long again for all of its own work: " +
    'the hot commands (`--version`, `get clusters`, `delete cluster`) load a few small files for it; ' +
    'a command through oclif also loads the CLI bundle from its code cache, runs its top level ' +
    "(oclif's own modules among it) and oclif's config before the command starts.",
  create:
    'create → ready is `create cluster --wait` until every component is ready (what that means: ' +
    '[Clusters](user/clusters.md#ready)), binaries cached, binary runtime. The two `create:` rows split ' +
    "it where kube-apiserver's process started: before, the tool's own work; after, kube-apiserver's " +
    'start-up and post-start hooks (the same binary for both tools) and the wait. Delete waits until ' +
    'every component has exited, so that a create right after it on the same pinned ports finds them ' +
    'free (`delete: stop components`); kwokctl signals and returns. The rest of the difference is ' +
    "Node's start and delete's own steps: reading the record, the sweep for processes the record does " +
    'not list, the kubeconfig edit.',
  restore:
    'restore → served is from the `snapshot restore` command until the cluster serves the restored ' +
    'objects and `/readyz`; restore returns is the command alone.',
  scale:
    'scale rows are `kwokts scale` (kwokctl\'s `scale`) on a cluster with QPS limits lifted, one run each; `kwokts` is paced (created-but-not-Ready copies kept to about a second of the cluster\'s pace), `kwokts --no-pace` is not. "all Ready" and "all Running" wait until every copy is; creation→Ready is each copy\'s delay as a watch sees it, and the run\'s notes give the most copies waiting at a one-second sample and the seconds in which that was more than the copies created in the second before.',
  controller:
    'A controller phase is timed from its first request until every object is in the state asked for. ' +
    "Its floor is the other processes' CPU over the cores: the soonest any controller could have " +
    'finished on that machine; time over floor is each round\'s phase time over it. With --pace the ' +
    'creator is paced as `kwokts scale` is, and "p99 after the request" is each object\'s delay from its ' +
    'create request to the state asked for. While a phase keeps every core busy, its time over floor is ' +
    "about 1 + the controller's CPU over the others' CPU: a controller within 1.05× of the floor spends " +
    'less than a twentieth of what kube-apiserver, etcd and kube-controller-manager spend on the same ' +
    'objects, and any controller must at least read its watches and write its updates. With --profile ' +
    "the run's notes say where our controller's CPU went. Rows marked \"ours with --max-semi-space-size=16\" " +
    "ran our controller with Node's default young generation instead of the 64 MiB semi-spaces a cluster " +
    'gives it (src/components/kwok-controller.ts), to set the peak RSS and CPU that young generation costs ' +
    'beside the other run\'s.',
  soak:
    'A soak runs each controller in turn on a fresh cluster for the minutes asked, with a sample a ' +
    'minute; Go kwok runs with kwok\'s own stages. "After warm-up" means the samples from the warm-up ' +
    '(`--warmup`) or the end of the load, whichever is later; over a short run the slope rests on a ' +
    'few samples, read it with their number. A heartbeat counts when a node\'s lastHeartbeatTime moves ' +
    'at least half the heartbeat stage\'s delay past node-initialize\'s.',
  capacity:
    'A capacity run grows the nodes of a fresh cluster per controller in steps, each made by ' +
    '`kwokts scale node` until every node is Ready and then held; a step holds when through its hold ' +
    'no node lease was renewed after it expired and no node left Ready, as the watch events show ' +
    'between the samples too. The leases are kwokctl\'s 40 s before its heartbeat factor (the cluster ' +
    'runs with the factor at 1, so kube-controller-manager gives a node 40 s too). Each controller ' +
    'stops at its first step that does not hold or when its share of the minutes (half, with both) is spent; a step that ' +
    'would not fit in what is left is not started, so "largest step held" is a floor of what the ' +
    'controller can keep, not its ceiling.',
};

function runSection(run: Run): string {
  const r = run.results;
  const svg = run.file.replace(/\.json$/, '.svg');
  const lines = [
    `### ${r.bench}, ${when(r.startedAt)}`,
    '',
    `${r.title}: \`${commandOf(r)}\`. ${r.machine.cpus} cores, ${r.machine.os}, Node ${r.machine.node}, ` +
      `load average at the end ${r.machine.loadavg.join(' ')} (1, 5, 15 min). Figures: [${run.file}](bench/${run.file}).`,
  ];
  if (r.notes.length > 0) lines.push('', ...r.notes.map((n) => `- ${n}`));
  lines.push('', `![${r.title}](bench/${svg})`);
  return lines.join('\n');
}

/**
 * The page's calculation of what PROJECTED_NODES would take, from the latest capacity run of our
 * single-process controller, with the latest sharded run beside it and the measured run of that
 * size where the carried-over figures still have it; undefined without such a run.
 */
function projectionOf(shown: readonly Run[], carried: CarriedOver): string[] | undefined {
  const latest = (sharded: boolean): { run: Run; ours: string } | undefined => {
    const runs = shown.filter((r) => r.results.bench === 'capacity' && (r.results.params['shards'] !== undefined) === sharded);
    const run = runs.sort((a, b) => Date.parse(b.results.startedAt) - Date.parse(a.results.startedAt))[0];
    const ours = run && [...new Set(run.results.series.map((s) => s.tool))].find(isOurs);
    return run && ours !== undefined ? { run, ours } : undefined;
  };
  const link = (run: Run): string => `[${when(run.results.startedAt)}](bench/${run.file})`;
  const single = latest(false);
  if (!single) return undefined;
  const many = latest(true);
  const at = carried.rows.findIndex((r) => r.measurement.startsWith(`${PROJECTED_NODES.toLocaleString('en-US')} nodes`));
  const peak = at >= 0 ? carried.rows[at + 1] : undefined;
  const measured = at >= 0 ? `${carried.rows[at]!.measurement} (${carried.rows[at]!.date})${peak?.measurement.startsWith('peak RSS') ? `, peak RSS ${peak.kwokts}` : ''}` : undefined;
  const sharded = many && { shards: Number(many.run.results.params['shards']), largestHeld: heldStepLoads(many.run.results, many.ours).at(-1)?.nodes, link: link(many.run) };
  return projectionSection(single.run.results, single.ours, PROJECTED_NODES, link(single.run), { ...(measured === undefined ? {} : { measured }), ...(sharded ? { sharded } : {}) });
}

/** docs/performance.md for these runs (the latest of each key is shown) and the carried-over figures. */
export function renderPage(runs: readonly Run[], carried: CarriedOver): string {
  const shown = latestRuns(runs);
  const cores = [...new Set(shown.map((r) => r.results.machine.cpus))].sort((a, b) => a - b);
  const benches = [...new Set(shown.map((r) => r.results.bench))];
  const out: string[] = [
    '# Performance',
    '',
    `<!-- Generated by \`npm run bench -- report\` (test/bench/report.ts) from ${RUNS_DIR}/: edit those, not this page. -->`,
    '',
    'What kwokts takes, beside the same measurement of its peer on the same binaries and machine:',
    'kwokctl v0.8.0 for the CLI and the cluster, Go kwok v0.8.0 for the controller. Every figure in the',
    'first table comes from a run of a benchmark described in [Development](development.md#benchmarks),',
    'kept as JSON in [bench/](bench/) with the date, the machine and its load; this page is generated',
    'from those files by `npm run bench -- report`.',
    '',
    '- A time is the median of the run\'s samples, with the fastest and the slowest in parentheses.',
    '- The ratio is kwokts ÷ the peer: below 1, kwokts took less. Where the bench alternates the tools',
    '  round by round (kwokts, peer, kwokts, …) it is taken pair by pair: the median of each round\'s',
    '  ratio, with their range, so that a change in the machine\'s load hits both sides of a pair alike.',
    '  Otherwise it is the ratio of the medians (or of the means, said so).',
    `- The runs were made on machines of ${cores.join(' or ') || 'no'} cores shared with other jobs (the run column gives`,
    '  the cores and the 1-, 5- and 15-minute load averages at the end of the run). On such machines',
    '  absolute times move by tens of percent from one run to the next: compare the tools by the ratio',
    '  within a run, and runs with each other only at a like load.',
    '- The command measures a row again; the peers come from `KWOKCTL`, `KWOK` or `~/go/bin`.',
    '',
    '## Current figures',
    '',
    table(['measurement', 'kwokts', 'peer', 'ratio', 'command', 'run'], shown.flatMap(rowsOf).map((r) => [r.measurement, r.ours, r.peer, r.ratio, r.command, r.run])),
  ];
  const reading = benches.filter((b) => READING[b]).map((b) => `- ${READING[b]}`);
  if (reading.length > 0) out.push('', 'Reading the rows:', '', ...reading);
  const projection = projectionOf(shown, carried);
  if (projection) out.push('', ...projection);
  if (carried.rows.length > 0) {
    out.push(
      '',
      '## Not yet regenerated',
      '',
      `Figures carried over as written from ${carried.from}. No JSON of their runs is committed, so they`,
      'are not in the table above, and each ratio reads as its cell says (some are the peer over kwokts).',
      'A row leaves this table when a run of its bench is added (`npm run bench -- report --add …`) and',
      `the row is taken out of [${CARRIED_OVER_FILE}](bench/${CARRIED_OVER_FILE}).`,
      '',
      table(['measurement', 'kwokts', 'peer', 'how it was measured', 'date'], carried.rows.map((r) => [r.measurement, r.kwokts, r.peer, r.how, r.date])),
    );
    if (carried.notes.length > 0) out.push('', 'Notes of that page:', '', ...carried.notes.map((n) => `- ${n}`));
  }
  out.push('', '## Runs', '', `Each run the first table quotes, with its notes and its picture (drawn from its JSON by \`test/bench/svg.ts\`).`);
  for (const run of shown) out.push('', runSection(run));
  if (carried.pictures.length > 0) {
    out.push('', '### Pictures of earlier runs');
    for (const p of carried.pictures) out.push('', p.caption, '', `![${p.alt}](${p.file})`);
  }
  return out.join('\n') + '\n';
}

// ---- the command

/**
 * Copies runs into `dir`, each replacing a committed run of the same key that started earlier;
 * a run older than the committed one of its key is left out. Returns what it did, a line each.
 */
export function addRuns(files: readonly string[], dir: string): string[] {
  const done: string[] = [];
  for (const file of files) {
    const results = parseRun(readFileSync(file, 'utf8'), file);
    const key = runKey(results);
    const held = readRuns(dir).filter((r) => runKey(r.results) === key);
    const newer = held.find((r) => Date.parse(r.results.startedAt) >= Date.parse(results.startedAt));
    if (newer) {
      done.push(`${file}: not added, ${newer.file} is the same bench and parameters and not older`);
      continue;
    }
    for (const old of held) {
      rmSync(join(dir, old.file));
      rmSync(join(dir, old.file.replace(/\.json$/, '.svg')), { force: true });
      done.push(`removed ${old.file} (same bench and parameters, earlier)`);
    }
    copyFileSync(file, join(dir, basename(file)));
    done.push(`added ${basename(file)}`);
  }
  return done;
}

/** Writes each run's picture and the page; removes pictures whose JSON is gone. */
export function writeReport(root: string = ROOT): void {
  const dir = join(root, RUNS_DIR);
  const runs = readRuns(dir);
  const svgs = new Set(runs.map((r) => r.file.replace(/\.json$/, '.svg')));
  for (const f of readdirSync(dir)) if (f.endsWith('.svg') && !svgs.has(f)) rmSync(join(dir, f));
  for (const run of runs) writeFileSync(join(dir, run.file.replace(/\.json$/, '.svg')), renderSvg(run.results));
  writeFileSync(join(root, PAGE), renderPage(runs, readCarriedOver(dir)));
}

export async function benchReport(args: string[]): Promise<void> {
  const at = args.indexOf('--add');
  // Anything but `--add <files>` is a mistake worth stopping for: the page is rewritten either way.
  const stray = at < 0 ? args : [...args.slice(0, at), ...args.slice(at + 1).filter((a) => a.startsWith('--'))];
  if (stray.length > 0) throw new Error(`report: unexpected ${stray.join(' ')}; usage: report [--add <run>.json ...]`);
  if (at >= 0) {
    const files = args.slice(at + 1);
    if (files.length === 0) throw new Error('report --add: which run? e.g. --add bench-results/create-<time>.json');
    for (const line of addRuns(files, join(ROOT, RUNS_DIR))) process.stdout.write(`${line}\n`);
  }
  writeReport();
  process.stdout.write(`wrote ${PAGE} from ${readRuns(join(ROOT, RUNS_DIR)).length} runs in ${RUNS_DIR}/\n`);
}
