import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pacer } from '../../../src/scale/pacer.js';

function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = 1_000_000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

test('at first the window is the minimum: that many copies start, the next waits', () => {
  const c = clock();
  const pacer = new Pacer({ minWindow: 4, now: c.now });
  for (let i = 0; i < 4; i++) {
    assert.equal(pacer.mayStart(), true);
    pacer.started(`n${i}`);
  }
  assert.equal(pacer.mayStart(), false);
  assert.equal(pacer.backlog, 4);
  pacer.ready('n0');
  assert.equal(pacer.backlog, 3);
  assert.equal(pacer.mayStart(), true);
});

test('the window grows with what became Ready in the last second, and shrinks when that second passes', () => {
  const c = clock();
  const pacer = new Pacer({ minWindow: 2, fraction: 0.5, now: c.now });
  for (let i = 0; i < 20; i++) pacer.started(`n${i}`);
  for (let i = 0; i < 20; i++) pacer.ready(`n${i}`);
  assert.equal(pacer.readyLastSecond(), 20);
  assert.equal(pacer.window(), 10);
  c.advance(1001);
  assert.equal(pacer.readyLastSecond(), 0);
  assert.equal(pacer.window(), 2);
});

test('copies the scale did not start, or saw Ready twice, do not count', () => {
  const c = clock();
  const pacer = new Pacer({ minWindow: 1, now: c.now });
  pacer.ready('someone-else');
  pacer.started('a');
  pacer.ready('a');
  pacer.ready('a');
  assert.equal(pacer.readyLastSecond(), 1);
  assert.equal(pacer.backlog, 0);
});

test('a failed create leaves the backlog', () => {
  const pacer = new Pacer({ minWindow: 1, now: clock().now });
  pacer.started('a');
  assert.equal(pacer.mayStart(), false);
  pacer.abandoned('a');
  assert.equal(pacer.mayStart(), true);
});

test('nothing Ready for the stall time with the window full: unpaced until a copy is Ready', () => {
  const c = clock();
  const pacer = new Pacer({ minWindow: 1, stallMs: 3000, now: c.now });
  pacer.started('a');
  c.advance(2999);
  assert.equal(pacer.mayStart(), false);
  assert.equal(pacer.unpaced, false);
  c.advance(1);
  assert.equal(pacer.mayStart(), true);
  assert.equal(pacer.unpaced, true);
  pacer.started('b');
  assert.equal(pacer.mayStart(), true, 'still unpaced');
  pacer.ready('a');
  assert.equal(pacer.unpaced, false);
  assert.equal(pacer.mayStart(), false, 'paced again: b is in flight and the window is 1');
});

test('the stall clock starts when the first copy of a burst starts, not when the pacer was made', () => {
  const c = clock();
  const pacer = new Pacer({ minWindow: 1, stallMs: 3000, now: c.now });
  c.advance(10_000);
  pacer.started('a');
  assert.equal(pacer.mayStart(), false);
});
