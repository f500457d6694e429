/** Weights, the choice among matches, and delays (kwok's lifecycle.go and value_*_from.go). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseStages, type Stage } from '../../../../src/kwok/api/index.js';
import { StageSet } from '../../../../src/kwok/engine/index.js';

const NOW = new Date('2006-01-02T15:04:05Z');
const S = 1_000_000_000n;

function stage(name: string, spec: Record<string, unknown>): Stage {
  const { stages, errors } = parseStages([{ kind: 'Stage', metadata: { name }, spec: { resourceRef: { kind: 'Pod' }, selector: {}, ...spec } }], 't');
  assert.deepEqual(errors, []);
  return stages[0]!;
}

function set(stages: Stage[], random: () => number = () => 0): StageSet {
  return new StageSet(stages, { now: () => NOW, random });
}

const obj = (annotations: Record<string, string> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ metadata: { name: 'p', annotations }, ...extra });

describe('weightFrom', () => {
  const weighted = stage('w', { weight: 5, weightFrom: { jq: { expression: '.metadata.annotations.w' } } });
  const weightOf = (o: unknown): [number, boolean] => {
    const m = set([weighted]).listAllPossible(o)[0]!;
    return [m.weight, m.weightUnset === true];
  };
  test('strings are parsed like strconv.ParseInt(s, 0, 64)', () => {
    assert.deepEqual(weightOf(obj({ w: '7' })), [7, false]);
    assert.deepEqual(weightOf(obj({ w: '0x10' })), [16, false]);
    assert.deepEqual(weightOf(obj({ w: '010' })), [8, false]);
  });
  test('empty or unparsable strings mean "no weight"', () => {
    assert.deepEqual(weightOf(obj({ w: '' })), [0, true]);
    assert.deepEqual(weightOf(obj({ w: 'ten' })), [0, true]);
    assert.deepEqual(weightOf(obj({ w: '1.5' })), [0, true]);
  });
  test('no output (or null) falls back to the static weight', () => {
    assert.deepEqual(weightOf(obj()), [5, false]);
  });
  test('numbers from the object are truncated; integers made by jq fall back to the static weight', () => {
    const fromObject = stage('o', { weight: 5, weightFrom: { jq: { expression: '.spec.w' } } });
    assert.equal(set([fromObject]).listAllPossible(obj({}, { spec: { w: 3.9 } }))[0]!.weight, 3);
    const literal = stage('l', { weight: 5, weightFrom: { jq: { expression: '42' } } });
    assert.equal(set([literal]).listAllPossible(obj())[0]!.weight, 5);
  });
  test('CEL weights are ints', () => {
    const cel = stage('c', { weightFrom: { cel: { expression: 'size(self.metadata.name) * 10' } } });
    assert.equal(set([cel]).listAllPossible(obj())[0]!.weight, 10);
  });
});

describe('choosing among matches', () => {
  const a = stage('a', { weight: 1 });
  const b = stage('b', { weight: 3 });
  const zero = stage('zero', {});
  const unset = stage('unset', { weightFrom: { jq: { expression: '""' } } });

  test('proportional to weight, in stage order', () => {
    // Int63n(4): [0,1) → a, [1,4) → b
    assert.equal(set([a, b], () => 0.2).match(obj())?.stage.name, 'a');
    assert.equal(set([a, b], () => 0.3).match(obj())?.stage.name, 'b');
    assert.equal(set([a, b], () => 0.99).match(obj())?.stage.name, 'b');
    assert.equal(set([zero, a, b], () => 0).match(obj())?.stage.name, 'a');
  });
  test('total weight 0 → uniform among those with a weight; none with a weight → uniform among all', () => {
    assert.equal(set([zero, unset], () => 0.99).match(obj())?.stage.name, 'zero');
    const zero2 = stage('zero2', {});
    assert.equal(set([zero, zero2], () => 0.6).match(obj())?.stage.name, 'zero2');
    const unset2 = stage('unset2', { weightFrom: { jq: { expression: '"x"' } } });
    assert.equal(set([unset, unset2], () => 0.6).match(obj())?.stage.name, 'unset2');
  });
  test('listAllPossible applies the same reduction without randomness', () => {
    const names = (stages: Stage[]): string[] => set(stages).listAllPossible(obj()).map((m) => m.stage.name);
    assert.deepEqual(names([zero, a, b]), ['a', 'b']);
    assert.deepEqual(names([zero, unset]), ['zero']);
    assert.deepEqual(names([zero, stage('zero2', {})]), ['zero', 'zero2']);
    assert.deepEqual(names([unset]), ['unset']);
    assert.deepEqual(names([]), []);
  });
});

describe('delay', () => {
  const range = (s: Stage, o: unknown = obj()): readonly bigint[] | undefined => set([s]).listAllPossible(o)[0]!.delayRangeNs;

  test('no spec.delay: no delay at all; spec.delay without a duration: 0', () => {
    assert.equal(range(stage('s', {})), undefined);
    assert.equal(set([stage('s', {})]).match(obj())?.delayMs, 0);
    assert.deepEqual(range(stage('s', { delay: {} })), [0n]);
  });
  test('durationMilliseconds; jitter ≤ duration gives exactly the jitter; otherwise [duration, jitter)', () => {
    assert.deepEqual(range(stage('s', { delay: { durationMilliseconds: 1000 } })), [S]);
    assert.deepEqual(range(stage('s', { delay: { durationMilliseconds: 5000, jitterDurationMilliseconds: 2000 } })), [2n * S]);
    assert.deepEqual(range(stage('s', { delay: { durationMilliseconds: 2000, jitterDurationMilliseconds: 2000 } })), [2n * S]);
    assert.deepEqual(range(stage('s', { delay: { durationMilliseconds: 1000, jitterDurationMilliseconds: 5000 } })), [S, 5n * S]);
  });
  test('the chosen delay is duration + random·(jitter − duration)', () => {
    const s = stage('s', { delay: { durationMilliseconds: 1000, jitterDurationMilliseconds: 5000 } });
    assert.equal(set([s], () => 0).match(obj())?.delayMs, 1000);
    assert.equal(set([s], () => 0.5).match(obj())?.delayMs, 3000);
    assert.equal(set([s], () => 0.999999).match(obj())?.delayMs, 4999);
  });
  test('durationFrom: Go durations, RFC3339 times relative to now, "" = no delay, junk = the milliseconds', () => {
    const s = stage('s', { delay: { durationMilliseconds: 1000, durationFrom: { jq: { expression: '.metadata.annotations.d' } } } });
    assert.deepEqual(range(s, obj({ d: '10s' })), [10n * S]);
    assert.deepEqual(range(s, obj({ d: '1m30s' })), [90n * S]);
    assert.deepEqual(range(s, obj({ d: '2006-01-02T15:05:05Z' })), [60n * S]);
    assert.deepEqual(range(s, obj({ d: '2006-01-02T15:04:04.5Z' })), [-S / 2n]);
    assert.equal(set([s]).match(obj({ d: '2006-01-02T15:04:04.5Z' }))?.delayMs, 0);
    assert.equal(range(s, obj({ d: '' })), undefined);
    assert.deepEqual(range(s, obj({ d: 'soon' })), [S]);
    assert.deepEqual(range(s, obj()), [S]);
  });
  test("kwok's general pod-delete: jitter from deletionTimestamp", () => {
    const s = stage('s', { delay: { durationMilliseconds: 1000, jitterDurationFrom: { jq: { expression: '.metadata.deletionTimestamp' } } } });
    const deleting = (ts: string): unknown => ({ metadata: { name: 'p', deletionTimestamp: ts } });
    assert.deepEqual(range(s, deleting('2006-01-02T15:04:05Z')), [0n]);
    assert.deepEqual(range(s, deleting('2006-01-02T15:04:35Z')), [S, 30n * S]);
    assert.deepEqual(range(s, deleting('2024-01-01T00:00:00Z')), [S, 567852955n * S]);
  });
  test('jitter without a value keeps the duration; a CEL-only jitterDurationFrom is ignored', () => {
    const s = stage('s', { delay: { durationMilliseconds: 1000, jitterDurationFrom: { jq: { expression: '.none' } } } });
    assert.deepEqual(range(s), [S]);
    const cel = stage('c', { delay: { durationMilliseconds: 1000, jitterDurationMilliseconds: 5000, jitterDurationFrom: { cel: { expression: 'duration("1ms")' } } } });
    assert.deepEqual(range(cel), [S, 5n * S]);
  });
  test('CEL durationFrom yields a duration (or a Go duration string)', () => {
    const d = stage('d', { delay: { durationFrom: { cel: { expression: 'duration("1m")' } } } });
    assert.deepEqual(range(d), [60n * S]);
    const str = stage('t', { delay: { durationFrom: { cel: { expression: '"250ms"' } } } });
    assert.deepEqual(range(str), [250_000_000n]);
  });
});
