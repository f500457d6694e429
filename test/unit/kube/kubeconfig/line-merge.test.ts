import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffLines, mergeLines } from '../../../../src/kube/kubeconfig/line-merge.js';

const L = (s: string): string[] => s.split(' ');

describe('mergeLines', () => {
  it('applies non-overlapping changes from both sides', () => {
    assert.deepEqual(mergeLines(L('a b c d e'), L('a B c d e'), L('a b c d x e')), L('a B c d x e'));
  });

  it('lets theirs win where both change the same lines', () => {
    assert.deepEqual(mergeLines(L('a b c'), L('a B c'), L('a T c')), L('a T c'));
  });

  it('keeps both insertions at one point, ours first', () => {
    assert.deepEqual(mergeLines(L('a c'), L('a o c'), L('a t c')), L('a o t c'));
  });

  it('applies an insertion right before a replaced line', () => {
    assert.deepEqual(mergeLines(L('a b c'), L('a B c'), L('a t b c')), L('a t B c'));
  });

  it('returns the other side when one side has no changes', () => {
    assert.deepEqual(mergeLines(L('a b'), L('a b'), L('x a b y')), L('x a b y'));
    assert.deepEqual(mergeLines(L('a b'), L('x a b y'), L('a b')), L('x a b y'));
  });

  it('describes a change as hunks over the base', () => {
    assert.deepEqual(diffLines(L('a b c'), L('a x c d')), [
      { start: 1, end: 2, lines: ['x'] },
      { start: 3, end: 3, lines: ['d'] },
    ]);
  });
});
