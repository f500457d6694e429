import { test } from 'node:test';
import assert from 'node:assert/strict';
import { peerBinary, peerCandidates } from '../peers.js';

test('a variable naming the peer wins: the tests\' name, then the benchmarks\'', () => {
  assert.deepEqual(peerCandidates('kwokctl', { KWOKCTL_BINARY: '/a/kwokctl', KWOKCTL: '/b/kwokctl', GOBIN: '/g' }, '/home/u'), ['/a/kwokctl']);
  assert.deepEqual(peerCandidates('kwok', { KWOK: '/b/kwok', GOBIN: '/g' }, '/home/u'), ['/b/kwok']);
});

test('otherwise where go install puts it: $GOBIN, the first $GOPATH entry\'s bin, ~/go/bin', () => {
  assert.deepEqual(peerCandidates('kwok', { GOBIN: '/g', GOPATH: '/p1:/p2' }, '/home/u'), ['/g/kwok', '/p1/bin/kwok']);
  assert.deepEqual(peerCandidates('kwokctl', {}, '/home/u'), ['/home/u/go/bin/kwokctl']);
  assert.deepEqual(peerCandidates('kwokctl', { GOBIN: '/home/u/go/bin' }, '/home/u'), ['/home/u/go/bin/kwokctl'], 'one path once');
});

test('peerBinary: the first candidate that exists, else the first (for the message)', () => {
  const env = { GOBIN: '/g', GOPATH: '/p' };
  assert.equal(peerBinary('kwok', env, (p) => p === '/p/bin/kwok'), '/p/bin/kwok');
  assert.equal(peerBinary('kwok', env, () => false), '/g/kwok');
});
