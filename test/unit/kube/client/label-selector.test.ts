import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseLabelSelector, SelectorSyntaxError } from '../../../../src/kube/client/label-selector.js';

describe('parseLabelSelector', () => {
  const cases: [string, Record<string, string> | undefined, boolean][] = [
    ['kwok.x-k8s.io/node=fake', { 'kwok.x-k8s.io/node': 'fake' }, true],
    ['kwok.x-k8s.io/node=fake', { 'kwok.x-k8s.io/node': 'real' }, false],
    ['kwok.x-k8s.io/node==fake', { 'kwok.x-k8s.io/node': 'fake' }, true],
    ['type!=kwok', { type: 'real' }, true],
    ['type!=kwok', {}, true],
    ['type in (a, b),zone', { type: 'b', zone: 'x' }, true],
    ['type in (a, b),zone', { type: 'b' }, false],
    ['type notin (a,b)', { type: 'c' }, true],
    ['!fake', { fake: '' }, false],
    ['!fake', undefined, true],
    ['', { any: 'thing' }, true],
    ['n>3', { n: '4' }, true],
    ['n<3', { n: '4' }, false],
  ];
  for (const [text, labels, expected] of cases) {
    it(`${JSON.stringify(text)} on ${JSON.stringify(labels)} is ${expected}`, () => {
      assert.equal(parseLabelSelector(text).matches(labels), expected);
    });
  }

  it('rejects garbage', () => {
    assert.throws(() => parseLabelSelector('a b c'));
    assert.throws(() => parseLabelSelector('n>x'));
  });

  it('refuses what apimachinery refuses: bad keys, bad values, unbalanced parentheses', () => {
    for (const text of ['!!bad=(', '!a=b', '!', 'a in (x', 'a in (x))', 'a)', '-a=b', 'a-=b', 'a=b c', 'a=-b', 'a in (ok,-bad)', 'a/b/c=d', 'Bad_Prefix/a=b', `${'k'.repeat(64)}=v`, `k=${'v'.repeat(64)}`]) {
      assert.throws(() => parseLabelSelector(text), SelectorSyntaxError, text);
    }
  });

  it('accepts every form the apiserver accepts', () => {
    for (const text of ['a=', 'a==b', 'kwok.x-k8s.io/node=fake', 'A_b.c-D=E_f.g-H', 'a in (),b notin (x)', '!a,b', `${'p'.repeat(253)}/${'k'.repeat(63)}=${'v'.repeat(63)}`]) {
      assert.doesNotThrow(() => parseLabelSelector(text), text);
    }
  });
});
