/** The jq and CEL front ends: compile errors, caching, number origins, CEL value conversions. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { celAsBool, celAsDurationNs, celAsInt, compileCel, parseQuantity } from '../../../../src/kwok/cel/cel.js';
import { CelCompileError, JqCompileError, compileJq } from '../../../../src/kwok/engine/index.js';
import { rewriteSource } from '../../../../src/gocompat/jq/jq-source.js';

const rt = { now: () => new Date('2006-01-02T15:04:05Z'), random: () => 0.25 };

describe('jq front end', () => {
  test('compile errors: syntax, missing operands, unknown functions', () => {
    for (const bad of ['.a[', '1 +', '|||', '()', 'nosuch(1)', '.a | nosuch']) assert.throws(() => compileJq(bad), JqCompileError, bad);
  });
  test('queries are cached by text', () => {
    assert.equal(compileJq('.status.phase'), compileJq('.status.phase'));
  });
  test('runtime errors are "no value" (earlier outputs are dropped too, as in kwok)', () => {
    assert.deepEqual(compileJq('.a, .a.b').run({ a: 'x' }), []);
    assert.deepEqual(compileJq('.a[]').run({ a: 1 }), []);
  });
  test('number origin: read from the object vs computed by jq', () => {
    const origin = (e: string): string => compileJq(e).numberOrigin;
    for (const e of ['.spec.replicas', '.a[0]', '.a[] | select(. > 1)', '.a // .b', 'first(.a[])', '.a as $x | .b', 'if .x then .a else .b end', '.a?']) assert.equal(origin(e), 'input', e);
    for (const e of ['length', '1', '.a | length', '.a + 1', '.a | tonumber', '.a, 1', 'if .x then .a else 1 end', '[.a] | .[0]']) assert.equal(origin(e), 'computed', e);
  });
  test('source rewriting leaves strings, interpolations and comments alone', () => {
    assert.equal(rewriteSource('."a-b".c'), '.["a-b"].c');
    assert.equal(rewriteSource('.x."a\\"b"'), '.x.["a\\"b"]');
    assert.equal(rewriteSource('"x.\\(."y")" | .[1:]'), '"x.\\(.["y"])" | .[1:null]');
    assert.equal(rewriteSource('.a # ."b" [1:]\n| .c'), '.a # ."b" [1:]\n| .c');
    assert.equal(rewriteSource('.."a"'), '.."a"');
  });
});

describe('CEL front end', () => {
  test('compile errors are CelCompileErrors', () => {
    assert.throws(() => compileCel('self.a =='), CelCompileError);
    assert.throws(() => compileCel('NoSuchFunction(self)'), CelCompileError);
  });
  test('JSON integers are CEL ints, other numbers doubles', () => {
    assert.equal(compileCel('self.n == 3 && type(self.n) == int').evaluate({ n: 3 }, rt), true);
    assert.equal(compileCel('type(self.f) == double').evaluate({ f: 1.5 }, rt), true);
  });
  test('kwok functions', () => {
    assert.equal(compileCel('Rand()').evaluate({}, rt), 0.25);
    assert.equal(compileCel('UnixSecond(self.t)').evaluate({ t: '1970-01-01T00:01:00Z' }, rt), 60);
    assert.equal(compileCel('UnixSecond(Now())').evaluate({}, rt), 1136214245);
    assert.equal(parseQuantity('1Ki'), 1024);
    assert.equal(parseQuantity('1.5e3'), 1500);
    assert.equal(parseQuantity('250m'), 0.25);
    assert.throws(() => parseQuantity('1 Gi'), /quantities must match/);
  });
  test('result conversions', () => {
    assert.equal(celAsBool(true), true);
    assert.throws(() => celAsBool(1n), /want bool/);
    assert.equal(celAsInt(7n), 7);
    assert.equal(celAsInt(7.9), 7);
    assert.throws(() => celAsInt('7'), /want int/);
    assert.equal(celAsDurationNs(compileCel('duration("1m30s")').evaluate({}, rt)), 90_000_000_000n);
    assert.equal(celAsDurationNs('10s'), 10_000_000_000n);
    assert.throws(() => celAsDurationNs('soon'), /want duration/);
  });
});
