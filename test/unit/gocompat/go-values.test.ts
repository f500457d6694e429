import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseGoDuration } from '../../../src/gocompat/go-duration.js';
import { parseGoInt, parseRFC3339Nano } from '../../../src/gocompat/go-values.js';

describe('time.ParseDuration', () => {
  const ok: [string, bigint][] = [
    ['0', 0n],
    ['+0', 0n],
    ['-0', 0n],
    ['5s', 5_000_000_000n],
    ['30s', 30_000_000_000n],
    ['1478s', 1_478_000_000_000n],
    ['-5s', -5_000_000_000n],
    ['+5s', 5_000_000_000n],
    ['5.0s', 5_000_000_000n],
    ['5.6s', 5_600_000_000n],
    ['5.s', 5_000_000_000n],
    ['.5s', 500_000_000n],
    ['1.004s', 1_004_000_000n],
    ['100.00100s', 100_001_000_000n],
    ['10ns', 10n],
    ['11us', 11_000n],
    ['12µs', 12_000n],
    ['12μs', 12_000n],
    ['13ms', 13_000_000n],
    ['14s', 14_000_000_000n],
    ['15m', 900_000_000_000n],
    ['16h', 57_600_000_000_000n],
    ['3h30m', 12_600_000_000_000n],
    ['1m30s', 90_000_000_000n],
    ['10.5s4m', 250_500_000_000n],
    ['-2m3.4s', -123_400_000_000n],
    ['1h2m3s4ms5us6ns', 3_723_004_005_006n],
    ['39h9m14.425s', 140_954_425_000_000n],
    ['52763797000ns', 52_763_797_000n],
    ['0.3333333333333333333h', 1_200_000_000_000n],
    ['9007199254740993ns', 9_007_199_254_740_993n],
    ['9223372036854775807ns', 9_223_372_036_854_775_807n],
    ['-9223372036854775808ns', -9_223_372_036_854_775_808n],
    ['0.100000000000000000000h', 360_000_000_000n],
  ];
  for (const [text, ns] of ok) test(JSON.stringify(text), () => assert.equal(parseGoDuration(text), ns));

  const bad = ['', '3', '-', 's', '.', '-.', '.s', '+.s', '1d', '1 s', '\x85\x85', '9223372036854775808ns', '9223372036854775.808us', '9223372036854ms775us808ns', '-9223372036854775809ns', '10', 'abc'];
  for (const text of bad) test(`rejects ${JSON.stringify(text)}`, () => assert.equal(parseGoDuration(text), undefined));
});

describe('time.Parse(RFC3339Nano)', () => {
  test('UTC, fractions and offsets', () => {
    assert.equal(parseRFC3339Nano('2006-01-02T15:04:05Z'), 1136214245_000_000_000n);
    assert.equal(parseRFC3339Nano('2006-01-02T15:04:05.123456789Z'), 1136214245_123_456_789n);
    assert.equal(parseRFC3339Nano('2006-01-02T15:04:05.5Z'), 1136214245_500_000_000n);
    assert.equal(parseRFC3339Nano('2006-01-02T08:04:05-07:00'), 1136214245_000_000_000n);
    assert.equal(parseRFC3339Nano('0001-01-01T00:00:00Z'), -62135596800_000_000_000n);
  });
  test('rejects what Go rejects', () => {
    for (const s of ['2006-01-02', '2006-01-02 15:04:05Z', '2006-01-02T15:04:05', '2006-13-02T15:04:05Z', '2006-02-30T15:04:05Z', '2006-01-02T24:00:00Z', '2006-01-02t15:04:05z', '10s', '']) {
      assert.equal(parseRFC3339Nano(s), undefined, s);
    }
    assert.notEqual(parseRFC3339Nano('2004-02-29T00:00:00Z'), undefined);
  });
});

describe('strconv.ParseInt(s, 0, 64)', () => {
  const table: [string, bigint | undefined][] = [
    ['7', 7n],
    ['-7', -7n],
    ['+7', 7n],
    ['0x1F', 31n],
    ['0b101', 5n],
    ['0o17', 15n],
    ['017', 15n],
    ['0', 0n],
    ['1_000', 1000n],
    ['0x_1f', 31n],
    ['1__0', undefined],
    ['_1', undefined],
    ['1_', undefined],
    ['08', undefined],
    ['1.5', undefined],
    ['', undefined],
    [' 1', undefined],
    ['9223372036854775807', 9223372036854775807n],
    ['9223372036854775808', undefined],
    ['-9223372036854775808', -9223372036854775808n],
  ];
  for (const [s, want] of table) test(JSON.stringify(s), () => assert.equal(parseGoInt(s), want));
});
