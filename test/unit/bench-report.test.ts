/**
 * docs/performance.md as test/bench/report.ts generates it: the committed page is what the
 * committed runs give, and the row arithmetic on small hand-made runs (no bench is run).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  addRuns,
  capacityFigures,
  CARRIED_OVER_FILE,
  commandOf,
  formatSeconds,
  latestRuns,
  PAGE,
  pairRatios,
  parseRun,
  ratioCell,
  readCarriedOver,
  readRuns,
  renderPage,
  rowsOf,
  runKey,
  RUNS_DIR,
  soakFigures,
  timingCell,
  timingFigures,
  type Run,
} from '../bench/report.js';
import { newResults, timing, type BenchResults } from '../bench/results.js';
import { renderSvg } from '../bench/svg.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** A run as a bench would leave it, on a 2-core machine with a known load. */
function run(bench: string, startedAt: string, params: BenchResults['params'], fill: (r: BenchResults) => void = () => {}): BenchResults {
  const results = newResults(bench, `${bench} test`, new Date(startedAt), params);
  results.machine = { cpus: 2, loadavg: [1.5, 2, 2.5], node: 'v20.0.0', os: 'linux test' };
  fill(results);
  return results;
}
/** Through JSON and back, as a committed file is read: NaN becomes null and null NaN again. */
const roundTrip = (results: BenchResults): BenchResults => parseRun(JSON.stringify(results, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v)), 'test');
const fileOf = (r: BenchResults): string => `${r.bench}-${r.startedAt.replace(/\.\d+Z$/, 'Z').replaceAll(':', '-')}.json`;

describe('the committed page', () => {
  test(`${PAGE} is what \`npm run bench -- report\` makes of ${RUNS_DIR}/`, () => {
    const dir = join(ROOT, RUNS_DIR);
    assert.equal(readFileSync(join(ROOT, PAGE), 'utf8'), renderPage(readRuns(dir), readCarriedOver(dir)), `${PAGE} is stale: run \`npm run bench -- report\``);
  });

  test(`each run in ${RUNS_DIR}/ has its picture, drawn from its JSON, and no picture is left without one`, () => {
    const dir = join(ROOT, RUNS_DIR);
    const runs = readRuns(dir);
    for (const r of runs) assert.equal(readFileSync(join(dir, r.file.replace(/\.json$/, '.svg')), 'utf8'), renderSvg(r.results), `${r.file}'s picture is stale: run \`npm run bench -- report\``);
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.svg')).sort(), runs.map((r) => r.file.replace(/\.json$/, '.svg')).sort());
  });

  test(`${RUNS_DIR}/ holds one run per bench and parameters (report --add replaces the earlier)`, () => {
    const runs = readRuns(join(ROOT, RUNS_DIR));
    assert.equal(latestRuns(runs).length, runs.length);
    for (const r of runs) assert.equal(r.file, fileOf(r.results), 'named as the bench wrote it');
  });
});

describe('figures', () => {
  test('formatSeconds: ms below a second, about three digits above', () => {
    assert.deepEqual([0.0353, 0.119, 0.0042, 2.0428, 47.53, 615, NaN].map(formatSeconds), ['35 ms', '119 ms', '4.2 ms', '2.04 s', '47.5 s', '615 s', '–']);
  });

  test('timingCell: the median, the range with more samples, the rounds that did not finish', () => {
    assert.equal(timingCell(timing('c', 'kwokts', 's', [2.28, 1.97, 2.04])), '2.04 s (1.97–2.28 s)');
    assert.equal(timingCell(timing('c', 'kwokts', 's', [0.085, 0.159, 0.119])), '119 ms (85–159 ms)');
    assert.equal(timingCell(timing('c', 'kwokts', 's', [0.95, 1.2])), '1.07 s (950 ms–1.20 s)');
    assert.equal(timingCell(timing('c', 'kwokts', 'ms', [36.2])), '36 ms');
    assert.equal(timingCell(timing('c', 'kwokts', 's', [10, NaN, 12])), '11.0 s (10.0–12.0 s); not finished in 1 of 3');
    assert.equal(timingCell(timing('c', 'kwokts', 's', [NaN])), 'not finished (its one run)');
  });

  test('pairRatios: each pair ours ÷ peer, unfinished pairs left out', () => {
    assert.deepEqual(pairRatios([1, 2, NaN], [2, 4, 1]), [0.5, 0.5]);
    assert.throws(() => pairRatios([1], [1, 2]), /unequal length/);
  });

  test('ratioCell: pair by pair where rounds interleave, else of the medians', () => {
    // Pairs 0.25, 0.9 and 1.0: their median is 0.9, where the medians' ratio is 2/3.
    const ours = timing('c', 'kwokts', 's', [1, 2, 3]);
    const peer = timing('c', 'kwokctl', 's', [4, 2.2222222222222223, 3]);
    assert.equal(ratioCell(ours, peer, true), '0.90× pair by pair (0.25×–1.00×, 3 pairs)');
    assert.equal(ratioCell(ours, peer, false), '0.67× of medians');
    assert.equal(ratioCell(ours, timing('c', 'kwokctl', 's', [4, 5]), true), '0.44× of medians', 'unequal rounds cannot pair');
    assert.equal(ratioCell(timing('c', 'a', 's', [1]), timing('c', 'b', 's', [4]), false), '0.25× (one run each)');
    assert.equal(ratioCell(timing('c', 'a', 's', [1, NaN]), timing('c', 'b', 's', [2, 3]), true), '0.50× (one pair)');
    assert.equal(ratioCell(timing('c', 'a', 's', [NaN]), timing('c', 'b', 's', [3]), true), '');
  });

  test('timingFigures: kwokts, the peer and references per case; every tool of a case without either', () => {
    const create = run('create', '2026-12-06T06:07:09.226Z', { rounds: 2, runtime: 'binary' }, (r) => {
      r.timings.push(timing('create → ready', 'kwokts', 's', [2, 2.2]), timing('create → ready', 'kwokctl', 's', [3, 2.75]), timing('create → ready', 'baseline', 's', [2.5, 2.5]));
      r.timings.push(timing('delete: stop components (kill, wait for exits)', 'kwokts', 's', [0.03, 0.04]));
    });
    assert.deepEqual(timingFigures(create), [
      { measurement: 'create → ready', ours: '2.10 s (2.00–2.20 s)', peer: 'kwokctl 2.88 s (2.75–3.00 s); baseline 2.50 s', ratio: '0.73× pair by pair (0.67×–0.80×, 2 pairs)' },
      { measurement: 'delete: stop components (kill, wait for exits)', ours: '35 ms (30–40 ms)', peer: '', ratio: '' },
    ]);
    const runtimes = run('create', '2026-12-06T06:00:00Z', { rounds: 1, runtimes: 'binary,docker' }, (r) => r.timings.push(timing('create → ready', 'binary', 's', [4.1]), timing('create → ready', 'docker', 's', [5.5])));
    assert.deepEqual(timingFigures(runtimes).map((f) => [f.measurement, f.ours]), [['create → ready (binary)', '4.10 s'], ['create → ready (docker)', '5.50 s']]);
  });

  test('timingFigures: a controller phase with its floor gets a time-over-floor row per round', () => {
    const controller = run('controller', '2026-11-29T10:00:00Z', { nodes: 50, pods: 100, concurrency: 32, timeout: 300, scheduler: false, rounds: 2 }, (r) => {
      r.timings.push(timing('50 nodes Ready', 'kwokts (TS)', 's', [10, 12]), timing('50 nodes Ready: floor', 'kwokts (TS)', 's', [9, 10]));
      r.timings.push(timing('50 nodes Ready', 'Go kwok v0.8.0', 's', [20, 30]), timing('50 nodes Ready: floor', 'Go kwok v0.8.0', 's', [16, 20]));
    });
    assert.deepEqual(timingFigures(controller), [
      { measurement: 'controller: 50 nodes Ready', ours: '11.0 s (10.0–12.0 s)', peer: 'Go kwok v0.8.0 25.0 s (20.0–30.0 s)', ratio: '0.45× pair by pair (0.40×–0.50×, 2 pairs)' },
      { measurement: 'controller: 50 nodes Ready: time over floor', ours: '1.16× (1.11×–1.20×)', peer: 'Go kwok v0.8.0 1.38× (1.25×–1.50×)', ratio: '' },
    ]);
    assert.equal(commandOf(controller), 'npm run bench -- controller --nodes 50 --pods 100 --concurrency 32 --timeout 300 --rounds 2');
  });

  test('soakFigures: heartbeats, RSS and CPU after warm-up, what went stale, refused writes', () => {
    const soak = roundTrip(
      run('soak', '2026-12-06T06:23:50.180Z', { nodes: 3, pods: 0, minutes: 4, tool: 'both', heartbeat: '30s', warmupMinutes: 2, sampleEverySeconds: 60, leaseDurationSeconds: 200, concurrency: 32 }, (r) => {
        for (const [tool, ready, beats, rss, cpu, notReady, refused] of [
          ['kwokts (TS)', 1.5, [31, 30, 32], [50, 90, 100, 102, 104], [1, 0.8, 0.6, 0.7], [3, 1, 0, 0, 0], 4],
          ['Go kwok v0.8.0', 2.5, [NaN, NaN, NaN], [40, 60, 50, 50, 50], [0.5, 0.3, 0.2, 0.4], [3, 0, 0, 2, 0], 30],
        ] as const) {
          r.timings.push(timing('3 nodes Ready (from t = 0)', tool, 's', [ready]), timing('seconds from node-initialize to the first heartbeat, per node', tool, 's', beats));
          const at = (values: readonly number[], from: number): Array<[number, number]> => values.map((v, i) => [(i + from) * 60, v]);
          r.series.push({ name: 'RSS MiB controller', tool, target: 0, points: at(rss, 0) }, { name: 'CPU % controller', tool, target: 0, points: at(cpu, 1) });
          r.series.push({ name: 'nodes NotReady', tool, target: 0, points: at(notReady, 0) }, { name: 'late node leases', tool, target: 0, points: at([0, 0, 0, 0, 0], 0) });
          r.series.push({ name: 'node status writes refused', tool, target: 0, points: at([0, 0, 0, 0, refused], 0) });
          r.series.push({ name: 'nodes still dual-stack', tool, target: 3, points: at([3, 3, 3, 3, refused > 10 ? 1 : 3], 0) });
        }
      }),
    );
    const figures = soakFigures(soak);
    const row = (m: string): [string, string, string] => {
      const f = figures.find((x) => x.measurement === `soak: ${m}`);
      assert.ok(f, `no row ${m}: ${figures.map((x) => x.measurement).join(', ')}`);
      return [f.ours, f.peer, f.ratio];
    };
    assert.deepEqual(row('3 nodes Ready (from t = 0)'), ['1.50 s', 'Go kwok v0.8.0 2.50 s', '0.60× (one run each)']);
    assert.deepEqual(row('nodes whose heartbeat advanced'), ['3 of 3 (first 30.0–32.0 s after node-initialize, median 31.0 s)', 'Go kwok v0.8.0 0 of 3', '']);
    assert.deepEqual(row('nodes still dual-stack at the end'), ['3 of 3', 'Go kwok v0.8.0 1 of 3', '']);
    // From t = 120 s (warm-up 2 min, later than the load): 100, 102, 104 and 50, 50, 50.
    assert.deepEqual(row('controller RSS after warm-up (mean)'), ['102 MiB (3 samples)', 'Go kwok v0.8.0 50 MiB (3 samples)', '2.04× of means']);
    assert.deepEqual(row('controller RSS slope after warm-up (least squares)'), ['+120 MiB/h (+117.6 % of its mean an hour, 3 samples)', 'Go kwok v0.8.0 +0 MiB/h (+0.0 % of its mean an hour, 3 samples)', '']);
    assert.deepEqual(row('controller CPU after warm-up (mean, % of one core)'), ['0.7 %', 'Go kwok v0.8.0 0.3 %', '2.33× of means']);
    // Once Ready (t ≥ 1.5 s and 2.5 s): the samples from 60 s on.
    assert.deepEqual(row('most NotReady nodes, most late node leases once all were Ready'), ['1, 0', 'Go kwok v0.8.0 2, 0', '']);
    assert.deepEqual(row('node status writes refused by the apiserver'), ['4', 'Go kwok v0.8.0 30', '']);
    assert.equal(commandOf(soak), 'npm run bench -- soak --nodes 3 --pods 0 --minutes 4 --tool both --heartbeat 30s --warmup 2m --every 1m --concurrency 32');
    const ownDelay = { ...soak, params: { ...soak.params, heartbeat: "the stage's own delay", warmupMinutes: 2.5, sampleEverySeconds: 30 } };
    assert.equal(commandOf(ownDelay), 'npm run bench -- soak --nodes 3 --pods 0 --minutes 4 --tool both --warmup 150s --every 30s --concurrency 32');
  });

  test('capacityFigures: the largest step held, the first not held, RSS and CPU in that hold, each step\'s time', () => {
    const capacity = roundTrip(
      run('capacity', '2026-12-06T08:00:00Z', { steps: '100,200,400', holdSeconds: 60, minutes: 10, tool: 'both', sampleEverySeconds: 10, leaseDurationSeconds: 40, concurrency: 32 }, (r) => {
        // Ours: 100 held (hold ending at 70 s), 200 failed at 150 s. The peer: 100 and 200 held, 400 cut.
        r.timings.push(timing('100 nodes all Ready (from the step\'s start)', 'kwokts (TS)', 's', [2]), timing('200 nodes all Ready (from the step\'s start)', 'kwokts (TS)', 's', [4]));
        r.timings.push(timing('100 nodes all Ready (from the step\'s start)', 'Go kwok v0.8.0', 's', [4]), timing('200 nodes all Ready (from the step\'s start)', 'Go kwok v0.8.0', 's', [8]), timing('400 nodes all Ready (from the step\'s start)', 'Go kwok v0.8.0', 's', [NaN]));
        const every10 = (from: number, to: number, value: (t: number) => number): Array<[number, number]> => Array.from({ length: (to - from) / 10 + 1 }, (_, i) => [from + 10 * i, value(from + 10 * i)]);
        r.series.push(
          { name: 'RSS MiB controller', tool: 'kwokts (TS)', target: 0, points: every10(0, 150, (t) => (t <= 70 ? 100 : 200)) },
          { name: 'CPU % controller', tool: 'kwokts (TS)', target: 0, points: every10(10, 150, (t) => (t <= 70 ? 4 : 40)) },
          { name: 'step held', tool: 'kwokts (TS)', target: 400, points: [[70, 100]] },
          { name: 'step failed', tool: 'kwokts (TS)', target: 400, points: [[150, 200]] },
          { name: 'late node leases in the hold', tool: 'kwokts (TS)', target: 0, points: [[70, 0], [150, 12]] },
          { name: 'nodes gone NotReady in the hold', tool: 'kwokts (TS)', target: 0, points: [[70, 0], [150, 3]] },
          { name: 'RSS MiB controller', tool: 'Go kwok v0.8.0', target: 0, points: every10(0, 160, () => 50) },
          { name: 'CPU % controller', tool: 'Go kwok v0.8.0', target: 0, points: every10(10, 160, () => 2) },
          { name: 'step held', tool: 'Go kwok v0.8.0', target: 400, points: [[70, 100], [150, 200]] },
          { name: 'late node leases in the hold', tool: 'Go kwok v0.8.0', target: 0, points: [[70, 0], [150, 0]] },
          { name: 'nodes gone NotReady in the hold', tool: 'Go kwok v0.8.0', target: 0, points: [[70, 0], [150, 0]] },
        );
      }),
    );
    const figures = capacityFigures(capacity);
    const row = (m: string): [string, string, string] => {
      const f = figures.find((x) => x.measurement === `capacity: ${m}`);
      assert.ok(f, `no row ${m}: ${figures.map((x) => x.measurement).join(', ')}`);
      return [f.ours, f.peer, f.ratio];
    };
    assert.deepEqual(row('largest step held (40 s node leases, holds of 60 s, steps 100, 200, 400)'), ['100 nodes', 'Go kwok v0.8.0 200 nodes', '0.50× (one run each)']);
    assert.deepEqual(row('first step not held'), ['200 nodes: late leases 12, gone NotReady 3', 'Go kwok v0.8.0 none failed; the run ended after 200 nodes (its budget, or a signal: see the notes)', '']);
    // The hold of ours's 100 ran from 10 s to 70 s (the samples after 10 s); the peer's 200 to 150 s. Not the same step: no ratio.
    assert.deepEqual(row('controller RSS in the hold of the largest step held (mean)'), ['100 MiB at 100 nodes', 'Go kwok v0.8.0 50 MiB at 200 nodes', '']);
    assert.deepEqual(row('controller CPU in the hold of the largest step held (mean, % of one core)'), ['4.0 % at 100 nodes', 'Go kwok v0.8.0 2.0 % at 200 nodes', '']);
    assert.deepEqual(row('200 nodes all Ready (from the step\'s start)'), ['4.00 s', 'Go kwok v0.8.0 8.00 s', '0.50× (one run each)']);
    assert.deepEqual(row('400 nodes all Ready (from the step\'s start)'), ['', 'Go kwok v0.8.0 not finished (its one run)', '']);
    assert.equal(commandOf(capacity), 'npm run bench -- capacity --steps 100,200,400 --hold 1m --minutes 10 --tool both --every 10s --concurrency 32');
    // A sharded run: its rows say so, and its command asks for the shards.
    const sharded = { ...capacity, params: { ...capacity.params, shards: 2 } };
    const measurements = capacityFigures(sharded).map((f) => f.measurement);
    assert.ok(measurements.length > 0 && measurements.every((m) => m.startsWith('capacity, 2 controller shards: ')), measurements.join(', '));
    assert.equal(commandOf(sharded), 'npm run bench -- capacity --steps 100,200,400 --hold 1m --minutes 10 --tool both --shards 2 --every 10s --concurrency 32');
  });

  test('commandOf: the bench and every setting its params record', () => {
    assert.equal(commandOf(run('create', '2026-12-06T00:00:00Z', { rounds: 5, runtime: 'binary' })), 'npm run bench -- create 5');
    assert.equal(commandOf(run('create', '2026-12-06T00:00:00Z', { rounds: 3, runtimes: 'binary,docker,podman' })), 'npm run bench -- create 3 --runtime binary,docker,podman');
    assert.equal(commandOf(run('restore', '2026-12-06T00:00:00Z', { rounds: 3, objects: 200 })), 'npm run bench -- restore 3 --objects 200');
    assert.equal(commandOf(run('startup', '2026-12-06T00:00:00Z', { rounds: 10 })), 'npm run bench -- startup 10');
    assert.equal(commandOf(run('scale', '2026-12-06T00:00:00Z', { nodes: 10, pods: 10000 })), 'npm run bench -- scale --nodes 10 --pods 10000');
    assert.throws(() => commandOf(run('restore', '2026-12-06T00:00:00Z', { rounds: 3 })), /restore run of 2026-12-06T00:00:00.000Z: no param objects/);
  });

  test('timingFigures: a timing in MiB reads as MiB, its ratio as any other', () => {
    const results = run('controller', '2026-12-06T00:00:00Z', { nodes: 10, pods: 20, concurrency: 32, timeout: 300, rounds: 2 }, (r) =>
      r.timings.push(timing('controller peak RSS', 'kwokts (TS)', 'MiB', [400.4, 410]), timing('controller peak RSS', 'Go kwok v0.8.0', 'MiB', [380, 390])),
    );
    const [f] = timingFigures(results);
    assert.deepEqual([f!.measurement, f!.ours, f!.peer], ['controller: controller peak RSS', '405 MiB (400–410 MiB)', 'Go kwok v0.8.0 385 MiB (380–390 MiB)']);
    assert.match(f!.ratio, /^1\.05× pair by pair/);
  });

  test('runKey: the bench and its params, not how many rounds', () => {
    assert.equal(runKey({ bench: 'create', params: { runtime: 'binary', rounds: 5 } }), runKey({ bench: 'create', params: { rounds: 7, runtime: 'binary' } }));
    assert.notEqual(runKey({ bench: 'soak', params: { nodes: 200, minutes: 6 } }), runKey({ bench: 'soak', params: { nodes: 1000, minutes: 6 } }));
    // A profiled controller run replaces the unprofiled one; its command asks for the profile.
    const controller = { nodes: 10, pods: 20, concurrency: 32, timeout: 300, rounds: 1, pace: true };
    assert.equal(runKey({ bench: 'controller', params: { ...controller, profile: true } }), runKey({ bench: 'controller', params: controller }));
    assert.equal(commandOf(run('controller', '2026-12-06T00:00:00Z', { ...controller, profile: true })), 'npm run bench -- controller --nodes 10 --pods 20 --concurrency 32 --timeout 300 --rounds 1 --pace --profile');
    // Node options of the bench's make another controller: another key, said in the command and the rows.
    const semi = run('controller', '2026-12-06T00:00:00Z', { ...controller, nodeOptions: '--max-semi-space-size=16' }, (r) => r.timings.push(timing('controller peak RSS', 'kwokts (TS)', 'MiB', [300])));
    assert.notEqual(runKey(semi), runKey({ bench: 'controller', params: controller }));
    assert.equal(commandOf(semi), "KWOKTS_BENCH_NODE_OPTIONS='--max-semi-space-size=16' npm run bench -- controller --nodes 10 --pods 20 --concurrency 32 --timeout 300 --rounds 1 --pace");
    assert.equal(rowsOf({ file: fileOf(semi), results: semi })[0]!.measurement, 'controller: controller peak RSS (ours with --max-semi-space-size=16)');
  });

  test('rowsOf: every row carries the command and the run (date linked to its JSON, cores, load)', () => {
    const results = run('startup', '2026-11-29T09:05:00.000Z', { rounds: 10 }, (r) => r.timings.push(timing('--version', 'kwokts', 'ms', [36, 40]), timing('--version', 'node -e 0 (floor)', 'ms', [20, 22])));
    const rows = rowsOf({ file: fileOf(results), results });
    assert.deepEqual(rows, [
      { measurement: 'start-up: --version', ours: '38 ms (36–40 ms)', peer: 'node -e 0 (floor) 21 ms (20–22 ms)', ratio: '', command: '`npm run bench -- startup 10`', run: '[2026-11-29 09:05 UTC](bench/startup-2026-11-29T09-05-00Z.json), 2 cores, load 1.5 2 2.5' },
    ]);
  });
});

describe('the page and --add', () => {
  const older = run('create', '2026-12-01T08:00:00Z', { rounds: 5, runtime: 'binary' }, (r) => r.timings.push(timing('create → ready', 'kwokts', 's', [3]), timing('create → ready', 'kwokctl', 's', [4])));
  const newer = run('create', '2026-12-06T06:07:09.226Z', { rounds: 3, runtime: 'binary' }, (r) => r.timings.push(timing('create → ready', 'kwokts', 's', [2, 2, 2]), timing('create → ready', 'kwokctl', 's', [3, 3, 3])));
  const soak = run('soak', '2026-12-06T07:00:00Z', { nodes: 1, pods: 0, minutes: 1, tool: 'ours', heartbeat: '30s', warmupMinutes: 0.5, sampleEverySeconds: 60, leaseDurationSeconds: 200, concurrency: 32 });
  const runs: Run[] = [older, soak, newer].map((results) => ({ file: fileOf(results), results }));

  test('renderPage: the latest run of each key, the carried-over rows apart, a section per run', () => {
    const page = renderPage(runs, { from: 'the earlier page', rows: [{ measurement: 'm', kwokts: '1 s', peer: '', how: '`x`', date: '2026-11-01' }], notes: ['a note'], pictures: [{ file: 'old.svg', alt: 'old', caption: 'An old picture:' }] });
    assert.match(page, /^# Performance\n/);
    assert.ok(page.includes('| create → ready | 2.00 s | kwokctl 3.00 s | 0.67× pair by pair (3 pairs) | `npm run bench -- create 3` | [2026-12-06 06:07 UTC](bench/create-2026-12-06T06-07-09Z.json), 2 cores, load 1.5 2 2.5 |'));
    assert.ok(!page.includes('create-2026-12-01'), 'the earlier create run is not shown');
    assert.ok(page.indexOf('### create,') < page.indexOf('### soak,'), 'benches in their order');
    assert.match(page, /## Not yet regenerated\n[\s\S]*\| m \| 1 s \| \| `x` \| 2026-11-01 \|\n\nNotes of that page:\n\n- a note\n/);
    assert.ok(page.includes('![create test](bench/create-2026-12-06T06-07-09Z.svg)'));
    assert.ok(page.includes('An old picture:\n\n![old](old.svg)\n'));
    assert.ok(page.includes('machines of 2 cores'));
  });

  test('a pipe in a cell is escaped, so the row keeps its columns', () => {
    const piped = run('scale', '2026-12-06T00:00:00Z', { nodes: 1, pods: 1 }, (r) => r.timings.push(timing('a | b', 'kwokts', 's', [1])));
    assert.ok(renderPage([{ file: fileOf(piped), results: piped }], { from: '', rows: [], notes: [], pictures: [] }).includes('| scale: a \\| b | 1.00 s |'));
  });

  test('addRuns replaces the earlier run of the same key and keeps a later one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kwokts-bench-report-'));
    const from = mkdtempSync(join(tmpdir(), 'kwokts-bench-report-from-'));
    try {
      const write = (at: string, r: BenchResults): string => {
        const path = join(at, fileOf(r));
        writeFileSync(path, JSON.stringify(r));
        return path;
      };
      write(dir, older);
      writeFileSync(join(dir, older.bench + '-2026-12-01T08-00-00Z.svg'), '<svg/>');
      writeFileSync(join(dir, CARRIED_OVER_FILE), JSON.stringify({ from: '', rows: [], notes: [], pictures: [] }));
      assert.deepEqual(addRuns([write(from, newer), write(from, soak)], dir), ['removed create-2026-12-01T08-00-00Z.json (same bench and parameters, earlier)', 'added create-2026-12-06T06-07-09Z.json', 'added soak-2026-12-06T07-00-00Z.json']);
      assert.deepEqual(readdirSync(dir).sort(), [CARRIED_OVER_FILE, 'create-2026-12-06T06-07-09Z.json', 'soak-2026-12-06T07-00-00Z.json']);
      assert.deepEqual(addRuns([write(from, older)], dir), [`${join(from, 'create-2026-12-01T08-00-00Z.json')}: not added, create-2026-12-06T06-07-09Z.json is the same bench and parameters and not older`]);
      assert.throws(() => addRuns([join(dir, CARRIED_OVER_FILE)], dir), /schema undefined/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(from, { recursive: true, force: true });
    }
  });
});
