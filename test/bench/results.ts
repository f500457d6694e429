/**
 * What every `npm run bench -- <name>` run leaves behind: its figures as JSON and a picture of
 * them as SVG, side by side in bench-results/ (or $KWOKTS_BENCH_RESULTS), both paths printed.
 *
 * The JSON (schema "kwokts-bench/v1"):
 *   schema     "kwokts-bench/v1"
 *   bench      the benchmark's name: startup, create, restore, controller, scale, soak, capacity
 *              (scale-out only prints)
 *   title      one line saying what was measured
 *   startedAt  ISO 8601 UTC time the run started
 *   machine    { cpus, loadavg: [1, 5, 15 min] at the end of the run, node: Node's version, os }
 *   params     the run's settings (rounds, nodes, pods, ...)
 *   timings    repeated timings, one entry per case and tool:
 *              { case, tool, unit: "ms" | "s", samples: [...], min, median, max }; a sample
 *              that did not finish (a round that timed out) is null and left out of min,
 *              median and max, which are null only when no sample finished
 *   series     counts over time, one entry per quantity and tool:
 *              { name: e.g. "nodes Ready", tool, target: the count aimed at, points: [[seconds, count], ...] };
 *              a quantity with no count to aim at (a process's RSS in MiB) has target 0
 *   notes      anything a reader must know (a peer not found, a failed round)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, platform, release } from 'node:os';
import { join, resolve } from 'node:path';
import { renderSvg } from './svg.js';

export const RESULTS_SCHEMA = 'kwokts-bench/v1';

export interface Timing {
  case: string;
  tool: string;
  unit: 'ms' | 's' | 'MiB';
  samples: number[];
  min: number;
  median: number;
  max: number;
}

export interface Series {
  name: string;
  tool: string;
  target: number;
  points: Array<[number, number]>;
}

export interface BenchResults {
  schema: typeof RESULTS_SCHEMA;
  bench: string;
  title: string;
  startedAt: string;
  machine: { cpus: number; loadavg: number[]; node: string; os: string };
  params: Record<string, string | number | boolean>;
  timings: Timing[];
  series: Series[];
  notes: string[];
}

/**
 * A timing entry with its min/median/max computed from the samples (median: the middle one, or the
 * mean of the two). NaN samples (not finished) are kept in place but left out of the figures: a
 * comparator given NaN makes sort's order arbitrary, so one timed-out round would move the median.
 */
export function timing(caseName: string, tool: string, unit: Timing['unit'], samples: readonly number[]): Timing {
  const sorted = samples.filter((s) => !Number.isNaN(s)).sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length === 0 ? NaN : sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { case: caseName, tool, unit, samples: [...samples], min: sorted[0] ?? NaN, median, max: sorted.at(-1) ?? NaN };
}

/** The p-th percentile (nearest rank) of ascending samples; NaN when there are none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A results object for a run that started at `startedAt`; the machine is described as it is now. */
export function newResults(bench: string, title: string, startedAt: Date, params: BenchResults['params'] = {}): BenchResults {
  return {
    schema: RESULTS_SCHEMA,
    bench,
    title,
    startedAt: startedAt.toISOString(),
    machine: { cpus: availableParallelism(), loadavg: loadavg().map((l) => Math.round(l * 100) / 100), node: process.version, os: `${platform()} ${release()}` },
    params,
    timings: [],
    series: [],
    notes: [],
  };
}

/**
 * Writes `<dir>/<bench>-<time>.json` and the `.svg` beside it; returns both paths. The load
 * average is taken now, at the end of the run. NaN (a phase that never finished) becomes null.
 * A run that writes as it goes (the same two files each time) passes announce = false to print
 * the paths only once.
 */
export function writeResults(results: BenchResults, dir: string = process.env.KWOKTS_BENCH_RESULTS ?? 'bench-results', announce = true): { json: string; svg: string } {
  const finished: BenchResults = { ...results, machine: { ...results.machine, loadavg: loadavg().map((l) => Math.round(l * 100) / 100) } };
  const out = resolve(dir);
  mkdirSync(out, { recursive: true });
  const stamp = finished.startedAt.replace(/\.\d+Z$/, 'Z').replaceAll(':', '-');
  const base = join(out, `${finished.bench}-${stamp}`);
  const json = `${base}.json`;
  const svg = `${base}.svg`;
  writeFileSync(json, JSON.stringify(finished, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? null : value), 2) + '\n');
  writeFileSync(svg, renderSvg(finished));
  if (announce) process.stdout.write(`results: ${json}\npicture: ${svg}\n`);
  return { json, svg };
}
