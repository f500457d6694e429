import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatMicroUtc, parseTimestampNs, timesFromRelative, timesToRelative } from '../../../src/snapshot/relative-time.js';

const BASE = parseTimestampNs('2030-05-06T07:08:09Z')!;

test('timestamps become offsets from the start of recording, in nanoseconds', () => {
  const text = 'creationTimestamp: "2030-05-06T07:08:04Z"\nlastTransitionTime: "2030-05-06T07:08:10.25+00:00"\n';
  assert.equal(timesToRelative(text, BASE), 'creationTimestamp: "$(time-offset-nanosecond -5000000000)"\nlastTransitionTime: "$(time-offset-nanosecond 1250000000)"\n');
});

test('offsets become UTC timestamps with microseconds, relative to the start of replay', () => {
  const later = BASE + 3_600_000_000_000n;
  assert.equal(timesFromRelative('t: "$(time-offset-nanosecond -5000000000)" u: $(time-offset-nanosecond 1250000)', later), 't: "2030-05-06T08:08:04.000000Z" u: 2030-05-06T08:08:09.001250Z');
});

test('a round trip keeps the distances; text that only looks like a date is left alone', () => {
  const text = 'a: 2030-05-06T07:00:00.123456789Z\nb: 2030-05-06\nc: "$(time-offset-nanosecond x)"\n';
  const relative = timesToRelative(text, BASE);
  assert.match(relative, /a: \$\(time-offset-nanosecond -488876543211\)/);
  assert.match(relative, /b: 2030-05-06\n/);
  assert.equal(timesFromRelative(relative, BASE).split('\n')[0], 'a: 2030-05-06T07:00:00.123456Z');
  assert.equal(timesFromRelative('c: "$(time-offset-nanosecond x)"', BASE), 'c: "$(time-offset-nanosecond x)"');
});

test('offsets of zone-shifted times are the same instant', () => {
  assert.equal(parseTimestampNs('2030-05-06T09:08:09+02:00'), BASE);
  assert.equal(parseTimestampNs('not a time'), undefined);
  assert.equal(formatMicroUtc(BASE), '2030-05-06T07:08:09.000000Z');
});
