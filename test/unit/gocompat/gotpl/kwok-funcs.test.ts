/** kwok's own template functions (pkg/utils/gotpl/funcs.go). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import {
  compileTemplate,
  decodeJsonData,
  defaultFuncs,
  DEFAULT_KWOK_VERSION,
  kwokFuncs,
  kwokQuote,
  kwokYaml,
  marshalYaml,
} from '../../../../src/gocompat/gotpl/index.js';
import { YAML_ORACLE_CASES } from './yaml-oracle-cases.js';

function render(template: string, data: unknown = {}, options: Parameters<typeof defaultFuncs>[0] = {}): string {
  return compileTemplate(template, undefined, { baseFuncs: defaultFuncs(options) }).execute(data);
}

describe('Quote', () => {
  // Expected strings verified with kwok's Quote implementation under Go 1.26.
  const cases: [string, unknown, string][] = [
    ['a data number becomes a quoted string', { v: 3 }, '"3"'],
    ['a string stays a JSON string', { v: 'str' }, '"str"'],
    ['null', { v: null }, '"null"'],
    ['a missing value', {}, '"null"'],
    ['an object is JSON text in quotes', { v: { a: 'x', b: 2, c: [1, { d: null }] } }, '"{\\"a\\":\\"x\\",\\"b\\":2,\\"c\\":[1,{\\"d\\":null}]}"'],
    ['HTML characters are escaped as JSON does', { v: '<&>' }, '"\\u003c\\u0026\\u003e"'],
    ['a bool', { v: true }, '"true"'],
  ];
  for (const [name, data, want] of cases) {
    it(name, () => assert.equal(render('{{ .v | Quote }}', data), want));
  }

  it('quotes template literals by their Go type', () => {
    assert.equal(render('{{ Quote 1.5 }} {{ Quote 7 }}'), '"1.5" "7"');
  });

  it('is exported for direct use', () => {
    assert.equal(kwokQuote(['a']), '"[\\"a\\"]"');
  });
});

describe('Now and StartTime', () => {
  it('formats as RFC3339Nano with trailing zeros trimmed and Z for UTC', () => {
    const at = (iso: string): string => render('{{ Now }}', {}, { now: () => new Date(iso), timeZone: 'UTC' });
    assert.equal(at('2024-03-05T07:08:09.120Z'), '2024-03-05T07:08:09.12Z');
    assert.equal(at('2024-03-05T07:08:09.000Z'), '2024-03-05T07:08:09Z');
  });

  it('uses the system clock by default, with sub-millisecond digits', () => {
    const before = Date.now();
    const now = render('{{ Now }}', {}, { timeZone: 'UTC' });
    assert.match(now, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/);
    assert.ok(Math.abs(Date.parse(now) - before) < 5000);
  });

  it('StartTime is fixed', () => {
    const start = new Date('2020-01-01T00:00:00.5Z');
    assert.equal(render('{{ StartTime }}|{{ StartTime }}', {}, { startTime: start, timeZone: 'UTC' }), '2020-01-01T00:00:00.5Z|2020-01-01T00:00:00.5Z');
  });

  it('Now is a string, usable with Quote and sprig', () => {
    const out = render('{{ $now := Now }}{{ $now | Quote }} {{ typeOf $now }}', {}, { now: () => new Date('2024-01-01T00:00:00Z'), timeZone: 'UTC' });
    assert.equal(out, '"2024-01-01T00:00:00Z" string');
  });
});

describe('Version', () => {
  it(`defaults to ${DEFAULT_KWOK_VERSION}`, () => {
    assert.equal(render('kwok-{{ Version }}'), 'kwok-0.8.0');
    assert.equal(render('{{ printf "kwok-%s" Version }}', {}, { version: '1.2.3' }), 'kwok-1.2.3');
  });
});

describe('NodeConditions', () => {
  it('returns the five kubelet conditions', () => {
    const out = render('{{ range NodeConditions }}{{ .type }}/{{ .status }}/{{ .reason }}/{{ .message }}\n{{ end }}');
    assert.equal(
      out,
      [
        'Ready/True/KubeletReady/kubelet is posting ready status',
        'MemoryPressure/False/KubeletHasSufficientMemory/kubelet has sufficient memory available',
        'DiskPressure/False/KubeletHasNoDiskPressure/kubelet has no disk pressure',
        'PIDPressure/False/KubeletHasSufficientPID/kubelet has sufficient PID available',
        'NetworkUnavailable/False/RouteCreated/RouteController created a route',
        '',
      ].join('\n'),
    );
  });

  it('carries the unset timestamps of corev1.NodeCondition as null, like kwok', () => {
    assert.equal(
      render('{{ index NodeConditions 0 | toJson }}'),
      '{"lastHeartbeatTime":null,"lastTransitionTime":null,"message":"kubelet is posting ready status","reason":"KubeletReady","status":"True","type":"Ready"}',
    );
  });

  it('returns a fresh list each call', () => {
    assert.equal(render('{{ $c := NodeConditions }}{{ $_ := set (index $c 0) "type" "X" }}{{ (index NodeConditions 0).type }}'), 'Ready');
  });
});

describe('YAML', () => {
  describe('matches sigs.k8s.io/yaml.Marshal', () => {
    for (const [json, yaml] of YAML_ORACLE_CASES) {
      it(json.length > 60 ? `${json.slice(0, 60)}...` : json, () => assert.equal(marshalYaml(decodeJsonData(json)), yaml));
    }
  });

  it('indents by 2n spaces after a leading newline', () => {
    const data = { status: { addresses: [{ address: '10.0.0.1', type: 'InternalIP' }] } };
    assert.equal(render('addresses:{{ YAML .status.addresses 1 }}', data), 'addresses:\n  - address: 10.0.0.1\n    type: InternalIP\n  ');
    assert.equal(kwokYaml({ a: 1 }, 2), '\n    a: 1\n    ');
    assert.equal(kwokYaml({ a: 1 }), 'a: 1\n');
    assert.equal(kwokYaml({ a: 1 }, 0), 'a: 1\n');
  });

  it('round-trips through a YAML parser', () => {
    const obj = { cpu: '1k', n: 3, flag: 'true', list: ['a', 'b: c', '- d'], nested: { empty: {}, none: null } };
    assert.deepEqual(parseYaml(marshalYaml(obj)), obj);
  });

  it('rejects a non-integer indent like Go (the parameter is ...int)', () => {
    assert.throws(() => render('{{ YAML . "1" }}'), /expected integer; found "1"/);
  });
});

describe('kwokFuncs', () => {
  it('exposes exactly kwok\'s default functions', () => {
    assert.deepEqual(Object.keys(kwokFuncs()).sort(), ['NodeConditions', 'Now', 'Quote', 'StartTime', 'Version', 'YAML']);
  });
});
