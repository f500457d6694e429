import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatValue, sprint, sprintf, sprintln } from '../../../../src/gocompat/gotpl/fmt.js';
import { formatFloat } from '../../../../src/gocompat/gotpl/go-float.js';
import { GoFloat, JsonNumber, tagType } from '../../../../src/gocompat/gotpl/values.js';
import { FORMAT_FLOAT_CASES, SPRINTF_RESULTS } from './fmt-oracle-cases.js';

describe('formatFloat (strconv.FormatFloat)', () => {
  for (const [v, fmt, prec, want] of FORMAT_FLOAT_CASES) {
    it(`${v} '${fmt}' ${prec} -> ${want}`, () => {
      assert.equal(formatFloat(v, fmt, prec), want);
    });
  }
  it('negative zero keeps its sign', () => {
    assert.equal(formatFloat(-0, 'g', -1), '-0');
  });
});

/** The same argument lists the Go program formatted; Go float64 values that are integral use GoFloat. */
const f = (n: number): GoFloat => new GoFloat(n);
const SPRINTF_ARGS: readonly [string, unknown[]][] = [
  ['%v %v %v', [f(1), 2.5, f(1e6)]],
  ['%8.3f|%-8.3f|%08.3f|%+.1f|% .1f', [3.14159, 3.14159, -3.14159, f(2), f(2)]],
  ['%#v %#g %#.3x %#e', [f(1), f(1), f(1), f(1)]],
  ['%5.1e|%10.4g|%-10.4G|', [f(123456), 0.000123456, 1e-10]],
  ['%x|%X|%#x|%#X|% x|% X|%#o|%O|%b', [255, 255, 255, 255, 'ab', 'ab', 8, 8, -5]],
  ['%c|%q|%U|%#U|%+q', [0x1f600, 0x1f600, 0x1f600, 0x1f600, 0x1f600]],
  ['%10.3q|%-6q|%#q|%+q', ['hello', 'a', 'b`c', 'ü']],
  ['%3c|%-3c|%05s|%.0d|%.0d|%6.2d', [0x78, 0x79, 'ab', 0, 7, 5]],
  ['%*d|%-*d|%.*f|%*d', [4, 1, 4, 1, 2, 3.14159, 'x', 5]],
  ['%v|%d|%s', [[1, 'a', null, 2.5, true], [1, 'a'], { k: [1] }]],
  ['%#v', [{ a: [1, 'x', null, 1.5, {}] }]],
  ['%t|%t', [true, 'x']],
  ['%e|%f|%g', [1, 's', true]],
  ['%s|%v|%d', [null, null, null]],
  ['%6.2%|%-4d|', [3]],
];

describe('sprintf (fmt.Sprintf) against Go', () => {
  SPRINTF_ARGS.forEach(([format, args], i) => {
    it(format, () => {
      assert.equal(sprintf(format, args), SPRINTF_RESULTS[i]);
    });
  });
});

describe('fmt printing of template values', () => {
  const cases: [string, unknown, string][] = [
    ['json.Number keeps its text', new JsonNumber('1.50'), '1.50'],
    ['int', 42, '42'],
    ['int64', 9007199254740993n, '9007199254740993'],
    ['float64 integral', new GoFloat(3), '3'],
    ['float64 large', new GoFloat(1e21), '1e+21'],
    ['float64 small', 0.00001, '1e-05'],
    ['map sorted', { b: 1, a: [1, 'x', null] }, 'map[a:[1 x <nil>] b:1]'],
    ['nested empty', { e: {}, l: [] }, 'map[e:map[] l:[]]'],
    ['nil', null, '<nil>'],
    ['typed slice', tagType(['a', 'b'], '[]string'), '[a b]'],
  ];
  for (const [name, v, want] of cases) {
    it(name, () => assert.equal(formatValue(v), want));
  }

  it('Sprint adds spaces between operands when neither is a string', () => {
    // json.Number is a string kind, so it never gets a space (fmt.Sprint(1, 2, "a", 3, json.Number("4"), 5)).
    assert.equal(sprint([1, 2, 'a', 3, new JsonNumber('4'), 5]), '1 2a345');
  });

  it('Sprintln always separates and ends with a newline', () => {
    assert.equal(sprintln(['a', 1, null]), 'a 1 <nil>\n');
  });

  it('reports bad verbs, missing and extra arguments like Go', () => {
    assert.equal(sprintf('%d|%s', [new JsonNumber('3'), 7]), '%!d(json.Number=3)|%!s(int=7)');
    assert.equal(sprintf('%v %v', [1]), '1 %!v(MISSING)');
    assert.equal(sprintf('%v', [1, 'x']), '1%!(EXTRA string=x)');
    assert.equal(sprintf('%', []), '%!(NOVERB)');
    assert.equal(sprintf('%#v', [tagType(['a'], '[]string')]), '[]string{"a"}');
  });
});
