import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ceilings, cpuBreakdown, floorParts, ourEntry, overFloor, speedups, strayComponents, summaryRows, type Outcome } from '../bench/controller.js';
import { cpuSeconds, mainThreadCpuSeconds, type PhaseResult } from '../bench/controller-load.js';
import { CONTROLLER_NODE_OPTIONS } from '../../src/components/kwok-controller.js';

const phase = (seconds: number): PhaseResult => ({ seconds, requestSeconds: 0, done: 1, series: [] });

/**
 * An outcome whose other processes used `others[i]` CPU seconds per core in phase i (nodes, pods,
 * delete), so that its floors are exactly those numbers whatever the machine's core count; the
 * controller's own CPU (large here) must not count.
 */
function outcome(label: string, times: [number, number, number], others: [number, number, number]): Outcome {
  const cores = availableParallelism();
  let apiserver = 0;
  let controller = 0;
  const cpuSamples = ['nodes', 'pods', 'delete', 'end'].map((name, i) => {
    const sample = { phase: name, seconds: { 'kube-apiserver': apiserver, controller } };
    apiserver += (others[i] ?? 0) * cores;
    controller += 100;
    return sample;
  });
  return {
    label,
    apiserverSamples: [],
    cpuSamples,
    cpu: NaN,
    rssMiB: NaN,
    log: '',
    load: { nodesReady: phase(times[0]), podsRunning: phase(times[1]), podsDeleted: phase(times[2]) },
  };
}

test("the bench's floor ratios: time over floor, the peer's time over ours, and the ceiling (peer time over our floor)", () => {
  const ours = outcome('kwokts', [22, 46, 30], [20, 40, 25]);
  const peer = outcome('Go kwok', [50, 52, 33], [20, 41, 26]);
  assert.deepEqual(overFloor(ours), ['1.10×', '1.15×', '1.20×']);
  assert.deepEqual(overFloor(peer), ['2.50×', '1.27×', '1.27×']);
  assert.deepEqual(speedups(ours, peer), ['2.27×', '1.13×', '1.10×']);
  // However little CPU our controller used, the others needed 40 s of the pods phase here.
  assert.deepEqual(ceilings(ours, peer), ['2.50×', '1.30×', '1.32×']);
});

test('a phase that timed out or was never sampled has no ratio', () => {
  const ours = outcome('kwokts', [22, NaN, 30], [20, 40, 25]);
  ours.cpuSamples = ours.cpuSamples.slice(0, 3);
  const peer = outcome('Go kwok', [50, 52, 33], [20, 41, 26]);
  delete peer.load!.podsDeleted;
  assert.deepEqual(overFloor(ours), ['1.10×', '-', '-']);
  assert.deepEqual(speedups(ours, peer), ['2.27×', '-', '-']);
  assert.deepEqual(ceilings(ours, peer), ['2.50×', '1.30×', '-']);
});

test('several rounds: medians with their range, median time over floor, and the peer over ours pair by pair', () => {
  const runs = [
    [outcome('kwokts', [20, 40, 30], [18, 36, 27]), outcome('Go kwok', [40, 60, 60], [30, 45, 50])],
    [outcome('kwokts', [30, 44, 33], [25, 40, 30]), outcome('Go kwok', [45, 88, 50], [35, 60, 40])],
    [outcome('kwokts', [24, NaN, 36], [20, 39, 30]), outcome('Go kwok', [60, 70, 54], [40, 50, 45])],
  ];
  assert.deepEqual(summaryRows(runs, { nodes: 5, pods: 10 }), [
    ['median of rounds (min–max)', '5 nodes Ready', '10 pods Running', '10 pods deleted'],
    ['kwokts', '24.0 s (20.0–30.0)', 'not done in 1 of 3', '33.0 s (30.0–36.0)'],
    ['kwokts: time / floor', '1.20×', '1.11×', '1.11×'],
    ['Go kwok', '45.0 s (40.0–60.0)', '70.0 s (60.0–88.0)', '54.0 s (50.0–60.0)'],
    ['Go kwok: time / floor', '1.33×', '1.40×', '1.20×'],
    // Ratios within each round (45/30 = 1.50, not the ratio of the medians, 45/24).
    ['Go kwok time / kwokts time, each round', '2.00× 1.50× 2.50×', '1.50× 2.00× -', '2.00× 1.52× 1.50×'],
    ['  median of those', '2.00×', '1.75×', '1.52×'],
  ]);
});

test("time over floor taken apart: the controller's CPU and the unused CPU, each over the others'", () => {
  const cores = availableParallelism();
  // Two stretches of 10 s and 20 s: the others used 8 and 16 CPU seconds per core, the controller
  // 1 and 3 CPU seconds per core; the rest of cores × time went unused (1 and 1 per core).
  const o = outcome('kwokts', [10, 20, 0], [0, 0, 0]);
  o.cpuSamples = [
    { phase: 'nodes', at: 100, seconds: { 'kube-apiserver': 0, controller: 0 } },
    { phase: 'pods', at: 110, seconds: { 'kube-apiserver': 8 * cores, controller: 1 * cores } },
    { phase: 'end', at: 130, seconds: { 'kube-apiserver': 24 * cores, controller: 4 * cores } },
  ];
  const parts = floorParts(o);
  assert.equal(parts.length, 2);
  assert.ok(Math.abs(parts[0]!.controller - 1 / 8) < 1e-9);
  assert.ok(Math.abs(parts[0]!.idle! - 1 / 8) < 1e-9);
  assert.ok(Math.abs(parts[1]!.controller - 3 / 16) < 1e-9);
  assert.ok(Math.abs(parts[1]!.idle! - 1 / 16) < 1e-9);
  // Time over floor is 1 + both shares: 10 / 8 and 20 / 16.
  assert.ok(Math.abs(1 + parts[0]!.controller + parts[0]!.idle! - 10 / 8) < 1e-9);
  assert.ok(Math.abs(1 + parts[1]!.controller + parts[1]!.idle! - 20 / 16) < 1e-9);
  // Samples made without times have no idle figure.
  assert.equal(floorParts(outcome('kwokts', [1, 1, 1], [1, 1, 1]))[0]!.idle, undefined);
});

test("a Node controller's CPU is shown with its main thread's part beneath it; without that figure, no such row", () => {
  const o = outcome('kwokts', [10, 20, 0], [0, 0, 0]);
  o.cpuSamples = [
    { phase: 'nodes', at: 100, seconds: { 'kube-apiserver': 0, controller: 0 }, controllerMainThread: 0 },
    { phase: 'pods', at: 110, seconds: { 'kube-apiserver': 8, controller: 5 }, controllerMainThread: 4 },
    { phase: 'end', at: 130, seconds: { 'kube-apiserver': 24, controller: 12 }, controllerMainThread: 9.5 },
  ];
  const lines = cpuBreakdown(o).split('\n');
  const controllerAt = lines.findIndex((l) => l.startsWith('controller '));
  assert.deepEqual(lines[controllerAt]!.split(/\s{2,}/), ['controller', '5.0', '7.0']);
  assert.deepEqual(lines[controllerAt + 1]!.trim().split(/\s{2,}/), ['of which its main thread', '4.0', '5.5']);
  // A Go controller's samples carry no main-thread figure.
  for (const sample of o.cpuSamples) delete sample.controllerMainThread;
  assert.ok(!cpuBreakdown(o).includes('main thread'));
});

test("a process's main-thread CPU is read from /proc and is part of its whole CPU", { skip: process.platform !== 'linux' }, () => {
  const main = mainThreadCpuSeconds(process.pid);
  const whole = cpuSeconds(process.pid);
  assert.ok(Number.isFinite(main) && main > 0, `main thread ${main}`);
  assert.ok(main <= whole, `main thread ${main} > process ${whole}`);
  assert.ok(Number.isNaN(mainThreadCpuSeconds(2 ** 22 + 1)), 'a pid that does not exist reads as NaN');
});

test('control-plane processes already running are named before the bench starts', (t) => {
  // A /proc of its own: etcd and kube-apiserver left running, a shell, a kernel thread, a process
  // that ended between the listing and the read (no comm file), files that are not processes, and
  // the zombies of a cluster just deleted (killed, not yet reaped: not counted).
  const proc = mkdtempSync(join(tmpdir(), 'kwokts-proc-'));
  t.after(() => rmSync(proc, { recursive: true, force: true }));
  const processes: Record<string, string | undefined> = { '12190': 'etcd', '12191': 'kube-apiserver', '12205': 'kube-controller', '300': 'bash', '14': 'ksoftirqd/0', '999': undefined, '9162': 'etcd', '9163': 'kube-apiserver' };
  const zombies = new Set(['9162', '9163']);
  for (const [pid, comm] of Object.entries(processes)) {
    mkdirSync(join(proc, pid));
    if (comm !== undefined) writeFileSync(join(proc, pid, 'comm'), `${comm}\n`);
    if (comm !== undefined) writeFileSync(join(proc, pid, 'stat'), `${pid} (${comm}) ${zombies.has(pid) ? 'Z' : 'S'} 1 ${pid} ${pid} 0 -1 4194560 1 0 0 0 5 3 0 0 20 0 1 0 100\n`);
  }
  writeFileSync(join(proc, 'loadavg'), '0.1 0.2 0.3 1/100 5\n');
  assert.deepEqual(strayComponents(proc).sort(), ['etcd (12190)', 'kube-apiserver (12191)', 'kube-controller (12205)']);
  assert.deepEqual(strayComponents(join(proc, 'missing')), []);
});

test("our controller runs with a cluster's Node options, then KWOKTS_BENCH_NODE_OPTIONS (later, so they win), then its entry", () => {
  assert.deepEqual(ourEntry('/k.js', undefined), [...CONTROLLER_NODE_OPTIONS, '/k.js']);
  assert.deepEqual(ourEntry('/k.js', ' --cpu-prof  --max-semi-space-size=16 '), [...CONTROLLER_NODE_OPTIONS, '--cpu-prof', '--max-semi-space-size=16', '/k.js']);
});
