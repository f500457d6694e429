import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseLabelSelector } from '../../../../src/kube/client/label-selector.js';

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
});
