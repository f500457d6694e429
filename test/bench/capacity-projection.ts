/**
 * What a cluster of many more nodes than this machine holds would take, calculated from a capacity
 * run (./capacity.ts) and checked on it: each process's mean RSS and CPU in the hold of every step
 * ours held, a least-squares line through every held step's RSS taken on to the target, and the
 * same line fitted without the largest step, to say how far it misses the largest as measured. CPU is counted per node lease renewal: the load that grows with the nodes
 * when nothing else changes (no pods), a renewal every quarter of the lease's duration, as
 * src/kwok/controllers/node-leases.ts renews them.
 */
import type { BenchResults, Series } from './results.js';

/** The processes the calculation is about (the bench's own watches are left out). */
export const PROJECTED = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'controller'] as const;

/** One held step: its nodes and each process's mean RSS (MiB) and CPU (% of one core) over its hold. */
export interface StepLoad {
  nodes: number;
  rssMiB: Record<string, number>;
  cpuPercent: Record<string, number>;
}

const mean = (values: readonly number[]): number => (values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0) / values.length);

/** Every step `tool` held, smallest first, with the means of its hold's samples. */
export function heldStepLoads(results: BenchResults, tool: string): StepLoad[] {
  const holdS = Number(results.params['holdSeconds']);
  const series = (name: string): Series | undefined => results.series.find((s) => s.tool === tool && s.name === name);
  const inHold = (name: string, at: number): number => mean((series(name)?.points ?? []).filter(([t, v]) => t > at - holdS && t <= at && Number.isFinite(v)).map(([, v]) => v));
  return (series('step held')?.points ?? [])
    .map(([at, nodes]) => ({
      nodes,
      rssMiB: Object.fromEntries(PROJECTED.map((p) => [p, inHold(`RSS MiB ${p}`, at)])),
      cpuPercent: Object.fromEntries(PROJECTED.map((p) => [p, inHold(`CPU % ${p}`, at)])),
    }))
    .sort((a, b) => a.nodes - b.nodes);
}

/** The least-squares line through the steps' (nodes, of(step)): its slope per node and its value at `nodes`. */
export function fitLine(steps: readonly StepLoad[], of: (s: StepLoad) => number): { perNode: number; at: (nodes: number) => number } {
  const xs = steps.map((s) => s.nodes);
  const ys = steps.map(of);
  const mx = mean(xs);
  const my = mean(ys);
  const sxx = xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
  const perNode = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i]! - my), 0) / sxx;
  return { perNode, at: (nodes) => my + perNode * (nodes - mx) };
}

/** Node lease renewals a second for `nodes` nodes whose leases last `leaseSeconds`. */
export const renewalsPerSecond = (nodes: number, leaseSeconds: number): number => (nodes * 4) / leaseSeconds;

const gib = (mib: number): string => (mib >= 1024 ? `${(mib / 1024).toFixed(1)} GiB` : `${mib.toFixed(0)} MiB`);
const percentOff = (predicted: number, measured: number): string => {
  const off = Math.round((100 * (predicted - measured)) / measured);
  return off === 0 ? '0 %' : `${off < 0 ? '−' : '+'}${Math.abs(off)} %`;
};
/** How far off a check may be before the page says the line does not fit. */
const FIT_TOLERANCE = 0.2;

/** A sharded capacity run beside the single-process one: its shards, its largest step held, the link to it. */
export interface ShardedRun {
  shards: number;
  largestHeld: number | undefined;
  link: string;
}

/**
 * The page's section for `target` nodes from a capacity run, or undefined when ours held fewer
 * than three steps (two for the line, one more to check it on).
 */
export function projectionSection(results: BenchResults, tool: string, target: number, runLink: string, extra: { measured?: string; sharded?: ShardedRun } = {}): string[] | undefined {
  const steps = heldStepLoads(results, tool);
  if (steps.length < 3) return undefined;
  const b = steps.at(-1)!;
  const before = steps.slice(0, -1);
  const lease = Number(results.params['leaseDurationSeconds']);
  const n = (x: number): string => x.toLocaleString('en-US');
  const rows = PROJECTED.map((p) => {
    const rss = (s: StepLoad): number => s.rssMiB[p] ?? NaN;
    const msPerRenewal = (s: StepLoad): number => ((s.cpuPercent[p] ?? NaN) * 10) / renewalsPerSecond(s.nodes, lease);
    const line = fitLine(steps, rss);
    const checked = fitLine(before, rss).at(b.nodes);
    const cores = (msPerRenewal(b) * renewalsPerSecond(target, lease)) / 1000;
    return [
      p,
      steps.map((s) => `${n(s.nodes)}: ${gib(rss(s))}`).join(', '),
      `${(line.perNode * 1000).toFixed(0)} MiB`,
      `${gib(checked)} (${percentOff(checked, rss(b))})`,
      gib(line.at(target)),
      `${msPerRenewal(b).toFixed(2)} ms`,
      cores.toFixed(1),
    ];
  });
  const sum = (of: (p: string) => number): number => PROJECTED.reduce((total, p) => total + of(p), 0);
  const totalRss = sum((p) => fitLine(steps, (s) => s.rssMiB[p] ?? NaN).at(target));
  const totalCores = sum((p) => ((b.cpuPercent[p] ?? NaN) / 100) * (target / b.nodes));
  const busy = sum((p) => b.cpuPercent[p] ?? NaN);
  const unfit = PROJECTED.filter((p) => {
    const rss = (s: StepLoad): number => s.rssMiB[p] ?? NaN;
    return Math.abs(fitLine(before, rss).at(b.nodes) / rss(b) - 1) > FIT_TOLERANCE;
  });
  const { measured, sharded } = extra;
  const shardsNeeded = Math.ceil(((b.cpuPercent['controller'] ?? NaN) / 100) * (target / b.nodes));
  return [
    `## What ${n(target)} nodes would take`,
    '',
    `A calculation from the capacity run of ${runLink} (kwokts's controller, ${lease} s node leases, no pods), not a measurement:`,
    `each process's mean RSS and CPU over the hold of each step it held (${steps.map((s) => n(s.nodes)).join(', ')} nodes), a least-squares`,
    `line through the RSS of those steps taken on to ${n(target)}, and the same line fitted without the ${n(b.nodes)}-node step`,
    `to check it on the ${n(b.nodes)} measured. CPU grows with the node lease renewals,`,
    `one per node every quarter of the lease: ${n(renewalsPerSecond(b.nodes, lease))} a second at ${n(b.nodes)} nodes,`,
    `${n(renewalsPerSecond(target, lease))} at ${n(target)}; the CPU per renewal is that of the ${n(b.nodes)}-node hold.`,
    '',
    `| process | RSS in the holds | RSS per 1,000 more nodes | ${n(b.nodes)} from the steps before (off by) | RSS at ${n(target)} | CPU per renewal | cores at ${n(target)} |`,
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    `- In all: about ${gib(totalRss)} and ${totalCores.toFixed(0)} cores for ${n(target)} nodes with ${lease} s leases. At ${n(b.nodes)} nodes`,
    `  these processes already used ${busy.toFixed(0)} % of one core between them on a machine of ${results.machine.cpus} cores,`,
    `  the controller ${(b.cpuPercent['controller'] ?? NaN).toFixed(0)} % of it.`,
    ...(unfit.length === 0 ? [] : [`- A check more than ${FIT_TOLERANCE * 100} % off says the line does not fit that process's RSS (${unfit.join(', ')}): read its figure at ${n(target)} as rough.`]),
    ...(sharded === undefined
      ? []
      : [`- With ${sharded.shards} controller shards on the same machine (${sharded.link}), the largest step held was ${sharded.largestHeld === undefined ? 'none' : `${n(sharded.largestHeld)} nodes`}, against ${n(b.nodes)} with one process.`]),
    `- The controller's share is what sharding spreads: one Node process keeps up with about`,
    `  ${n(Math.round(1000 / (((b.cpuPercent['controller'] ?? NaN) * 10) / renewalsPerSecond(b.nodes, lease)) / 100) * 100)} renewals a second on one core at this cost per renewal,`,
    shardsNeeded <= 1
      ? `  so one process keeps up with ${n(target)} nodes with ${lease} s leases, on a machine with the cores for the rest;`
      : `  so ${n(target)} nodes with ${lease} s leases need at least ${shardsNeeded} shards (\`--kwok-controller-shards\`) on a machine with the cores for the rest;`,
    '  more shards only help where one core is what the controller lacks. Longer leases divide the renewals (kwokctl\'s default heartbeat factor makes them 200 s).',
    ...(measured === undefined ? [] : [`- The one ${n(target)}-node run measured so far, in another configuration (carried over below): ${measured}.`]),
  ];
}
