/**
 * The capacity bench's steps, its tally of nodes and leases and its sampling of a group of
 * processes (test/bench/capacity-steps.ts, capacity-watch.ts, process-sampler.ts): no cluster,
 * nothing timed.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import type { KubeObject } from '../../src/kube/client/types.js';
import { capacityTable, judgeHold, largestHeldRatio, parseSteps, planStep, stepCell, summarize, type StepRecord } from '../bench/capacity-steps.js';
import { CapacityTally } from '../bench/capacity-watch.js';
import { fitLine, heldStepLoads, projectionSection, PROJECTED, renewalsPerSecond } from '../bench/capacity-projection.js';
import { groupCpuSeconds, ProcessSampler, withChildren } from '../bench/process-sampler.js';
import { newResults } from '../bench/results.js';

test('parseSteps: whole counts, each larger than the one before', () => {
  assert.deepEqual(parseSteps('1000,2000, 4000'), [1000, 2000, 4000]);
  assert.deepEqual(parseSteps('50'), [50]);
  for (const bad of ['', '0,10', '10,abc', '1.5', '100,50', '100,100']) assert.throws(() => parseSteps(bad), /--steps/, bad);
});

test('planStep: growth at the last step\'s pace, the hold and one sample must fit in what is left', () => {
  const base = { holdMs: 120_000, everyMs: 10_000 };
  // No pace yet: the first step starts when its hold (and a sample) fits.
  assert.deepEqual(planStep({ ...base, target: 1000, nodesNow: 0, remainingMs: 130_000 }), { start: true, estimateMs: 130_000 });
  assert.deepEqual(planStep({ ...base, target: 1000, nodesNow: 0, remainingMs: 129_999 }), { start: false, estimateMs: 130_000 });
  // 2000 more nodes at 20 ms each: 40 s of growth.
  assert.deepEqual(planStep({ ...base, target: 4000, nodesNow: 2000, remainingMs: 170_000, msPerNode: 20 }), { start: true, estimateMs: 170_000 });
  assert.equal(planStep({ ...base, target: 4000, nodesNow: 2000, remainingMs: 169_000, msPerNode: 20 }).start, false);
});

test('judgeHold: anything late or gone NotReady fails, even a hold cut short; else held only when whole', () => {
  const clean = { samples: 13, complete: true, lateLeases: 0, goneNotReady: 0, mostNotReady: 0 };
  assert.deepEqual(judgeHold(clean), { verdict: 'held' });
  assert.deepEqual(judgeHold({ ...clean, lateLeases: 12, goneNotReady: 3 }), { verdict: 'failed', reason: 'late leases 12, gone NotReady 3' });
  assert.equal(judgeHold({ ...clean, complete: false, goneNotReady: 1 }).verdict, 'failed');
  assert.deepEqual(judgeHold({ ...clean, mostNotReady: 2 }), { verdict: 'failed', reason: 'late leases 0, gone NotReady 0, most NotReady at a sample 2' });
  assert.deepEqual(judgeHold({ ...clean, complete: false, samples: 4 }), { verdict: 'cut', reason: 'hold cut short after 4 samples' });
  assert.equal(judgeHold({ ...clean, samples: 0 }).verdict, 'cut');
});

const use = { seconds: 120, rssMiB: { mean: 100, max: 110 }, cpuPercent: 12 };
const ours: StepRecord[] = [
  { nodes: 1000, verdict: 'held', readySeconds: 5, growLateLeases: 0, hold: { samples: 13, complete: true, lateLeases: 0, goneNotReady: 0, mostNotReady: 0, ...use } },
  { nodes: 2000, verdict: 'held', readySeconds: 11, growLateLeases: 0, hold: { samples: 13, complete: true, lateLeases: 0, goneNotReady: 0, mostNotReady: 0, ...use } },
  { nodes: 4000, verdict: 'failed', reason: 'late leases 12, gone NotReady 3', readySeconds: 30, growLateLeases: 5, hold: { samples: 13, complete: true, lateLeases: 12, goneNotReady: 3, mostNotReady: 1, ...use } },
  { nodes: 8000, verdict: 'not reached', reason: 'an earlier step did not hold' },
];
const peer: StepRecord[] = [
  { nodes: 1000, verdict: 'held', readySeconds: 6, hold: { samples: 13, complete: true, lateLeases: 0, goneNotReady: 0, mostNotReady: 0, ...use } },
  { nodes: 2000, verdict: 'held', readySeconds: 12, hold: { samples: 13, complete: true, lateLeases: 0, goneNotReady: 0, mostNotReady: 0, ...use } },
  { nodes: 4000, verdict: 'held', readySeconds: 25, hold: { samples: 13, complete: true, lateLeases: 0, goneNotReady: 0, mostNotReady: 0, ...use } },
  { nodes: 8000, verdict: 'cut', reason: 'the budget ran out while growing (6000 of 8000 Ready)' },
];

test('summarize and largestHeldRatio: the largest step held, the first failed, ours over the peer', () => {
  assert.deepEqual(summarize(ours), { largestHeld: 2000, firstFailed: ours[2] });
  assert.deepEqual(summarize(peer), { largestHeld: 4000 });
  assert.deepEqual(summarize([{ nodes: 10, verdict: 'cut', reason: 'stopped by a signal' }]), {});
  assert.equal(largestHeldRatio(ours, peer), 0.5);
  assert.ok(Number.isNaN(largestHeldRatio(ours, [{ nodes: 1000, verdict: 'failed' }])));
});

test('stepCell and capacityTable: a row per step, the tools side by side, their ratio', () => {
  assert.equal(stepCell(ours[0]!), 'held; all Ready in 5.0 s; controller RSS 100 MiB (max 110), CPU 12 %');
  assert.equal(stepCell(ours[2]!), 'failed: late leases 12, gone NotReady 3; all Ready in 30.0 s (late leases while growing 5); controller RSS 100 MiB (max 110), CPU 12 %');
  assert.equal(stepCell(ours[3]!), 'not reached: an earlier step did not hold');
  const lines = capacityTable([{ label: 'kwokts (TS)', steps: ours }, { label: 'Go kwok v0.8.0', steps: peer }]).split('\n');
  assert.equal(lines.length, 8);
  assert.match(lines[0]!, /^ +kwokts \(TS\) +Go kwok v0\.8\.0$/);
  assert.match(lines[3]!, /^4000 nodes +failed: late leases 12.* +held; all Ready in 25\.0 s/);
  assert.match(lines[4]!, /^8000 nodes +not reached: an earlier step did not hold +cut: the budget ran out while growing \(6000 of 8000 Ready\)$/);
  assert.match(lines[5]!, /^largest step held +2000 +4000$/);
  assert.match(lines[6]!, /^first step failed +4000 \(late leases 12, gone NotReady 3\) +none$/);
  assert.match(lines[7]!, /^largest held, kwokts \(TS\) ÷ Go kwok v0\.8\.0 +0\.50×$/);
});

const node = (name: string, ready: boolean): KubeObject => ({ metadata: { name }, status: { conditions: ready ? [{ type: 'Ready', status: 'True' }] : [] } }) as KubeObject;
const lease = (name: string, renewMs: number, durationS = 40): KubeObject => ({ metadata: { name, namespace: 'kube-node-lease' }, spec: { renewTime: new Date(renewMs).toISOString(), leaseDurationSeconds: durationS } }) as KubeObject;

test('CapacityTally: a node that leaves Ready and comes back between samples counts, once per window', () => {
  const tally = new CapacityTally();
  tally.onNode('ADDED', node('a', false));
  tally.onNode('MODIFIED', node('a', true));
  tally.onNode('ADDED', node('b', true));
  assert.equal(tally.readyCount(), 2);
  tally.openWindow();
  tally.onNode('MODIFIED', node('a', false));
  tally.onNode('MODIFIED', node('a', true));
  tally.onNode('MODIFIED', node('a', false));
  tally.onNode('MODIFIED', node('a', true));
  const s = tally.sample(0);
  assert.deepEqual([s.nodes, s.ready, s.notReady, s.goneNotReadyInWindow, s.noLease], [2, 2, 0, 1, 2]);
  tally.openWindow();
  assert.equal(tally.sample(0).goneNotReadyInWindow, 0);
  // Not Ready when first seen (a new node) is not "gone NotReady"; deleted nodes leave the counts.
  tally.onNode('ADDED', node('c', false));
  tally.onNode('DELETED', node('b', true));
  assert.deepEqual([tally.sample(0).nodes, tally.sample(0).notReady, tally.sample(0).goneNotReadyInWindow], [2, 1, 0]);
});

test('CapacityTally: a lease renewed after it expired, or expired at a sample, is late', () => {
  const t = Date.parse('2026-12-06T00:00:00Z');
  const tally = new CapacityTally();
  tally.onLease('ADDED', lease('a', t));
  tally.onLease('ADDED', lease('b', t));
  tally.openWindow();
  // a: renewed every 10 s, on time; b: 45 s after its last renewal, 5 s past its expiry.
  tally.onLease('MODIFIED', lease('a', t + 10_000));
  tally.onLease('MODIFIED', lease('a', t + 20_000));
  tally.onLease('MODIFIED', lease('b', t + 45_000));
  let s = tally.sample(t + 50_000);
  assert.deepEqual([s.leases, s.lateNow, s.lateInWindow, s.oldestRenewalS, s.durations], [2, 0, 1, 30, [40]]);
  // a, last renewed at 20 s, has expired at 61 s: late now and in the window; b, renewed at 45 s, has not.
  s = tally.sample(t + 61_000);
  assert.deepEqual([s.lateNow, s.lateInWindow], [1, 2]);
  // A renewal does not undo it within the window; a new window starts from nothing late.
  tally.onLease('MODIFIED', lease('a', t + 62_000));
  assert.deepEqual([tally.sample(t + 63_000).lateNow, tally.sample(t + 63_000).lateInWindow], [0, 2]);
  tally.openWindow();
  assert.equal(tally.sample(t + 63_000).lateInWindow, 0);
  // A relist's ADDED of an unchanged lease is no renewal, late or not; other durations are told.
  tally.onLease('ADDED', lease('a', t + 62_000));
  tally.onLease('ADDED', lease('c', t + 60_000, 200));
  s = tally.sample(t + 63_000);
  assert.deepEqual([s.lateInWindow, s.durations], [0, [40, 200]]);
});

describe('process groups (a sharded controller)', () => {
  test('withChildren lists the processes a process started; a group sums their RSS and CPU', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      await once(child, 'spawn');
      const group = withChildren(process.pid);
      assert.equal(group[0], process.pid);
      assert.ok(group.includes(child.pid!), `${child.pid} in ${group.join(',')}`);
      assert.deepEqual(withChildren(2 ** 22 + 1), [2 ** 22 + 1]);
      const points = new Map<string, number>();
      const sampler = new ProcessSampler();
      const one = sampler.sample({ me: process.pid, group: [process.pid, child.pid!] }, 1, (series, value) => points.set(series, value));
      assert.ok(one.rssMiB['group']! > one.rssMiB['me']!, JSON.stringify(one.rssMiB));
      assert.ok(groupCpuSeconds([process.pid, child.pid!]) >= groupCpuSeconds([process.pid]) - 0.05);
      // CPU from the second sample on, and only while the group's members stay the same.
      const two = sampler.sample({ me: process.pid, group: [process.pid, child.pid!] }, 2, (series, value) => points.set(series, value));
      assert.equal(two.cpu.length, 2);
      const three = sampler.sample({ me: process.pid, group: [process.pid] }, 3, () => undefined);
      assert.deepEqual(three.cpu.map((c) => c.split(' ')[0]), ['me']);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('what a larger cluster would take (capacity-projection)', () => {
  // Ours held 1000, 2000 and 4000 nodes (holds of 20 s ending at 20, 40, 60 s); RSS grows by
  // 100 MiB per 1000 nodes, the controller's CPU is 10 % per 1000 nodes.
  const results = newResults('capacity', 'capacity', new Date('2026-12-06T00:00:00Z'), { holdSeconds: 20, leaseDurationSeconds: 40, steps: '1000,2000,4000' });
  const tool = 'kwokts (TS)';
  const holds: Array<[number, number]> = [[20, 1000], [40, 2000], [60, 4000]];
  const points = (value: (nodes: number) => number): Array<[number, number]> => holds.flatMap(([at, nodes]) => [[at - 10, value(nodes)], [at, value(nodes)]] as Array<[number, number]>);
  for (const p of PROJECTED) {
    results.series.push({ name: `RSS MiB ${p}`, tool, target: 0, points: points((nodes) => 100 + nodes / 10) });
    results.series.push({ name: `CPU % ${p}`, tool, target: 0, points: points((nodes) => nodes / 100) });
  }
  results.series.push({ name: 'step held', tool, target: 4000, points: holds.map(([at, nodes]) => [at, nodes]) });

  test('heldStepLoads: the means over each held step\'s hold; fitLine: least squares', () => {
    const steps = heldStepLoads(results, tool);
    assert.deepEqual(steps.map((s) => [s.nodes, s.rssMiB['etcd'], s.cpuPercent['controller']]), [[1000, 200, 10], [2000, 300, 20], [4000, 500, 40]]);
    const line = fitLine(steps, (s) => s.rssMiB['etcd']!);
    assert.ok(Math.abs(line.perNode - 0.1) < 1e-9);
    assert.ok(Math.abs(line.at(50_000) - 5100) < 1e-6);
    assert.equal(renewalsPerSecond(8000, 40), 800);
  });

  test('projectionSection: the table, the check on the largest step, the shards needed', () => {
    const lines = projectionSection(results, tool, 50_000, '[run](x.json)', { sharded: { shards: 2, largestHeld: 4000, link: '[sharded](y.json)' } })!;
    const text = lines.join('\n');
    assert.match(text, /^## What 50,000 nodes would take/);
    // etcd: 500 MiB at 4000, the line from 1000 and 2000 predicts it exactly; 5,100 MiB at 50,000.
    assert.ok(lines.includes('| etcd | 1,000: 200 MiB, 2,000: 300 MiB, 4,000: 500 MiB | 100 MiB | 500 MiB (0 %) | 5.0 GiB | 1.00 ms | 5.0 |'), text);
    // The controller at 40 % for 400 renewals a second: 1,000 a second on one core, 5,000 needed.
    assert.match(text, /about\s+1,000 renewals a second/);
    assert.match(text, /need at least 5 shards/);
    assert.match(text, /With 2 controller shards on the same machine \(\[sharded\]\(y\.json\)\), the largest step held was 4,000 nodes, against 4,000 with one process/);
    assert.doesNotMatch(text, /does not fit/);
    // Two steps held: nothing to check a line on.
    const two = { ...results, series: results.series.map((s) => (s.name === 'step held' ? { ...s, points: s.points.slice(0, 2) } : s)) };
    assert.equal(projectionSection(two, tool, 50_000, '[run](x.json)'), undefined);
  });
});
