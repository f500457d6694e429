import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDurationFlag } from '../../../src/util/duration.js';

test('Go durations', () => {
  const cases: Array<[string, number | undefined]> = [
    ['0', 0], ['30s', 30_000], ['1m30s', 90_000], ['1.5h', 5_400_000], ['250ms', 250], ['-1s', -1000], ['10', 10_000],
    ['', undefined], ['1x', undefined], ['s', undefined], ['1m 2s', undefined],
  ];
  for (const [text, want] of cases) assert.equal(parseDurationFlag(text), want, text);
});
