import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { ceilings, overFloor, speedups, type Outcome } from '../bench/controller.js';
import type { PhaseResult } from '../bench/controller-load.js';

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
