/** Go reference-time layouts, parsing and durations, checked against Go's own results. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGoDuration } from '../../../../src/gocompat/go-duration.js';
import { dateOf, formatDuration, parseTime, UTC, type GoLocation } from '../../../../src/gocompat/gotpl/go-time.js';
import { DURATION_STRINGS, FORMAT_CASES, PARSE_CASES, PARSE_DURATION_CASES } from './go-time-cases.js';

const T_UTC = dateOf(2024, 3, 5, 7, 8, 9, 120_000_000, UTC);
const MINUS_0330: GoLocation = { kind: 'fixed', name: '', offset: -(3 * 3600 + 30 * 60) };
const T_FIXED = dateOf(2009, 11, 10, 23, 4, 5, 6007, MINUS_0330);

describe('Time.Format', () => {
  for (const [layout, utc, fixed] of FORMAT_CASES) {
    it(layout, () => {
      assert.equal(T_UTC.format(layout), utc);
      assert.equal(T_FIXED.format(layout), fixed);
    });
  }
});

describe('time.Parse', () => {
  for (const [layout, value, result] of PARSE_CASES) {
    it(`${layout} <- ${value}`, () => {
      let got: string;
      try {
        got = parseTime(layout, value, UTC).String();
      } catch (e) {
        got = `ERR ${(e as Error).message}`;
      }
      assert.equal(got, result);
    });
  }
});

describe('Duration', () => {
  const values = [0n, 1n, 999n, 1000n, 1500n, 1_000_000n, 1_500_000n, 1_000_000_000n, 1_500_000_000n, 90_000_000_000n, 3_723_004_000_000n, -300_000_000_000n, (1n << 63n) - 1n];
  values.forEach((d, i) => {
    it(`String(${d})`, () => assert.equal(formatDuration(d), DURATION_STRINGS[i]));
  });
  for (const [input, want] of PARSE_DURATION_CASES) {
    it(`ParseDuration(${JSON.stringify(input)})`, () => {
      const d = parseGoDuration(input);
      assert.equal(d === undefined ? 'ERR' : formatDuration(d), want);
    });
  }
});
