import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { newResults, percentile, RESULTS_SCHEMA, timing, writeResults, type BenchResults } from '../bench/results.js';
import { renderSvg } from '../bench/svg.js';

function sample(): BenchResults {
  const results = newResults('startup', 'CLI start-up <test> & more', new Date('2026-11-24T09:00:00.123Z'), { rounds: 3 });
  results.timings.push(timing('--version', 'kwokts', 'ms', [60, 40, 50]), timing('--version', 'kwokctl', 'ms', [20, 10, 30, 40]));
  results.series.push({ name: 'nodes Ready', tool: 'kwokts', target: 10, points: [[0, 0], [1.5, 4], [3, 10]] });
  results.series.push({ name: 'nodes Ready', tool: 'Go kwok', target: 10, points: [[0, 0], [2, 10]] });
  results.notes.push('a note');
  return results;
}

test('timing gives min, median (middle or mean of the two middle) and max', () => {
  assert.deepEqual(timing('c', 't', 'ms', [60, 40, 50]), { case: 'c', tool: 't', unit: 'ms', samples: [60, 40, 50], min: 40, median: 50, max: 60 });
  assert.equal(timing('c', 't', 'ms', [20, 10, 30, 40]).median, 25);
});

test('a sample that did not finish (NaN) stays in samples but not in min, median or max', () => {
  // Sorted with NaN among them, [30, NaN, 10, 20] stays in that order: the median would be NaN.
  assert.deepEqual(timing('c', 't', 's', [30, NaN, 10, 20]), { case: 'c', tool: 't', unit: 's', samples: [30, NaN, 10, 20], min: 10, median: 20, max: 30 });
  const none = timing('c', 't', 's', [NaN, NaN]);
  assert.deepEqual([none.min, none.median, none.max], [NaN, NaN, NaN]);
});

test('writeResults writes <bench>-<time>.json in the documented schema and the SVG beside it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-bench-results-'));
  const write = process.stdout.write;
  let printed = '';
  process.stdout.write = ((chunk: string) => ((printed += chunk), true)) as typeof process.stdout.write;
  try {
    const results = sample();
    results.timings.push(timing('never', 'kwokts', 's', [NaN]));
    const { json, svg } = writeResults(results, dir);
    assert.equal(basename(json), 'startup-2026-11-24T09-00-00Z.json');
    assert.equal(basename(svg), 'startup-2026-11-24T09-00-00Z.svg');
    assert.match(printed, new RegExp(`results: ${json.replaceAll('.', '\\.')}\npicture: ${svg.replaceAll('.', '\\.')}\n`));
    const read = JSON.parse(readFileSync(json, 'utf8')) as BenchResults;
    assert.equal(read.schema, RESULTS_SCHEMA);
    assert.deepEqual(Object.keys(read).sort(), ['bench', 'machine', 'notes', 'params', 'schema', 'series', 'startedAt', 'timings', 'title']);
    assert.deepEqual(Object.keys(read.machine).sort(), ['cpus', 'loadavg', 'node', 'os']);
    assert.equal(read.machine.loadavg.length, 3);
    assert.deepEqual(read.timings[0], { case: '--version', tool: 'kwokts', unit: 'ms', samples: [60, 40, 50], min: 40, median: 50, max: 60 });
    // A phase that never finished is null in JSON, not a string or a missing key.
    assert.equal(read.timings.at(-1)!.median, null);
    assert.deepEqual(read.series[0]!.points, [[0, 0], [1.5, 4], [3, 10]]);
    assert.match(readFileSync(svg, 'utf8'), /^<svg /);
  } finally {
    process.stdout.write = write;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the SVG has a bar per case and tool, a line per series, text escaped', () => {
  const svg = renderSvg(sample());
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="\d+"/);
  assert.ok(svg.trimEnd().endsWith('</svg>'));
  assert.ok(svg.includes('CLI start-up &lt;test&gt; &amp; more'));
  assert.ok(!svg.includes('<test>'));
  // Two bars (medians), each with a min tick; medians are drawn to one scale within the case.
  const bars = [...svg.matchAll(/<rect x="[\d.]+" y="[\d.]+" width="([\d.]+)" height="12" fill="(#[0-9a-f]+)" fill-opacity/g)];
  assert.equal(bars.length, 2);
  assert.ok(Number(bars[0]![1]) > Number(bars[1]![1]), 'kwokts median 50 draws longer than kwokctl median 25');
  assert.notEqual(bars[0]![2], bars[1]![2], 'each tool its own colour');
  assert.ok(svg.includes('median 50 ms · min 40 ms'));
  assert.ok(svg.includes('median 25 ms · min 10 ms'));
  assert.equal([...svg.matchAll(/<polyline /g)].length, 2);
  assert.ok(svg.includes('nodes Ready over time'));
  assert.ok(svg.includes('note: a note'));
  // Well-formed enough for a parser: every element closed.
  assert.equal([...svg.matchAll(/<text /g)].length, [...svg.matchAll(/<\/text>/g)].length);
});

test('percentile is the nearest rank of ascending samples', () => {
  const samples = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(percentile(samples, 50), 50);
  assert.equal(percentile(samples, 99), 99);
  assert.equal(percentile(samples, 100), 100);
  assert.equal(percentile([7], 99), 7);
  assert.ok(Number.isNaN(percentile([], 50)));
});
