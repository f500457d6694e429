/** The public contract: compile once, execute many, function overrides, errors and data handling. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  compileTemplate,
  decodeJsonData,
  kwokObjectFuncNames,
  prepareData,
  renderTemplate,
  TemplateError,
  typed,
} from '../../../../src/gocompat/gotpl/index.js';

describe('compileTemplate / execute', () => {
  it('compiles once and executes against different data', () => {
    const tpl = compileTemplate('{{ .metadata.name }}/{{ .spec.replicas }}');
    assert.equal(tpl.execute({ metadata: { name: 'a' }, spec: { replicas: 1 } }), 'a/1');
    assert.equal(tpl.execute({ metadata: { name: 'b' }, spec: { replicas: 2 } }), 'b/2');
  });

  it('rejects unknown functions at parse time, as Go does', () => {
    assert.throws(() => compileTemplate('{{ nosuch 1 }}'), {
      name: 'TemplateError',
      message: 'template: _:1: function "nosuch" not defined',
    });
  });

  it('declares functions passed at compile time, and execute-time functions override them by name', () => {
    const tpl = compileTemplate('{{ Greet "x" }}', { Greet: (s) => `hello ${String(s)}` });
    assert.equal(tpl.execute({}), 'hello x');
    assert.equal(tpl.execute({}, { Greet: (s) => `bye ${String(s)}` }), 'bye x');
  });

  it('execute-time functions also override builtins, sprig and kwok functions', () => {
    const tpl = compileTemplate('{{ Now }}|{{ upper "a" }}|{{ len "abc" }}');
    assert.equal(tpl.execute({}, { Now: () => 'T', upper: () => 'U', len: () => 42 }), 'T|U|42');
  });

  it('always declares kwok per-object functions so stage templates parse', () => {
    for (const name of kwokObjectFuncNames) {
      const tpl = compileTemplate(`{{ ${name} }}`);
      assert.equal(tpl.execute({}, { [name]: () => `${name}!` }), `${name}!`);
      assert.throws(() => tpl.execute({}), /error calling .*: .* provided by the kwok controller/);
    }
  });

  it('uses the declared Go signature of a function to check arguments', () => {
    const tpl = compileTemplate('{{ Port .n }}', { Port: typed(['int'], (n) => n) });
    assert.throws(() => tpl.execute({ n: 3 }), {
      message: 'template: _:1:8: executing "_" at <.n>: wrong type for value; expected int; got json.Number',
    });
    assert.equal(compileTemplate('{{ Port 8080 }}', { Port: typed(['int'], (n) => n) }).execute({}), '8080');
  });

  it('passes nil arguments to JS functions as null', () => {
    let seen: unknown[] = [];
    compileTemplate('{{ F .missing .nul "x" }}', {
      F: (...args) => {
        seen = args;
        return '';
      },
    }).execute({ nul: null });
    assert.deepEqual(seen, [null, null, 'x']);
  });

  it('names the template in errors (default "_", like kwok)', () => {
    assert.throws(() => compileTemplate('{{ .a.b }}', undefined, { name: 'status' }).execute({ a: 'x' }), {
      message: 'template: status:1:5: executing "status" at <.a.b>: can\'t evaluate field b in type interface {}',
    });
  });
});

describe('TemplateError', () => {
  it('carries phase, position, context and the partial output of an execution', () => {
    try {
      compileTemplate('ok\nline {{ index .l 3 }}').execute({ l: [1] });
      assert.fail('expected an error');
    } catch (e) {
      assert.ok(e instanceof TemplateError);
      assert.equal(e.phase, 'exec');
      assert.equal(e.line, 2);
      assert.equal(e.col, 8);
      assert.equal(e.context, 'index .l 3');
      assert.equal(e.output, 'ok\nline ');
      assert.equal(e.message, 'template: _:2:8: executing "_" at <index .l 3>: error calling index: index out of range: 3');
    }
  });

  it('keeps the function error as the cause', () => {
    const boom = new Error('boom');
    try {
      compileTemplate('{{ F }}', {
        F: () => {
          throw boom;
        },
      }).execute({});
      assert.fail('expected an error');
    } catch (e) {
      assert.ok(e instanceof TemplateError);
      assert.equal(e.cause, boom);
      assert.match(e.message, /error calling F: boom$/);
    }
  });

  it('reports parse errors by line only, like Go', () => {
    try {
      compileTemplate('a\n{{ if }}');
      assert.fail('expected an error');
    } catch (e) {
      assert.ok(e instanceof TemplateError);
      assert.equal(e.phase, 'parse');
      assert.equal(e.line, 2);
      assert.equal(e.message, 'template: _:2: missing value for if');
    }
  });
});

describe('renderTemplate', () => {
  it('renders with a cache keyed by text and still honours per-call functions', () => {
    const text = '{{ NodeIP }}-{{ .x }}';
    assert.equal(renderTemplate(text, { x: 1 }, { NodeIP: () => '10.0.0.1' }), '10.0.0.1-1');
    assert.equal(renderTemplate(text, { x: 2 }, { NodeIP: () => '10.0.0.2' }), '10.0.0.2-2');
  });

  it('does not cache templates that fail to parse', () => {
    const text = '{{ Custom }}';
    assert.throws(() => renderTemplate(text, {}));
    assert.equal(renderTemplate(text, {}, { Custom: () => 'ok' }), 'ok');
  });
});

describe('template data', () => {
  it('treats numbers in data as json.Number: exact text, string comparison, always truthy', () => {
    const tpl = compileTemplate('{{ .a }} {{ .b }} {{ eq .a "1.50" }} {{ if .zero }}truthy{{ end }} {{ typeOf .a }}');
    assert.equal(tpl.execute(decodeJsonData('{"a": 1.50, "b": 12345678901234567890123, "zero": 0}')), '1.50 12345678901234567890123 true truthy json.Number');
  });

  it('prints plain JS numbers as Go would print the decoded JSON', () => {
    assert.equal(compileTemplate('{{ .a }} {{ .b }} {{ .c }}').execute({ a: 3, b: 1.5, c: 1e21 }), '3 1.5 1e+21');
  });

  it('never mutates the caller\'s object (sprig set/unset work on a copy, as in kwok)', () => {
    const obj = { metadata: { labels: { a: '1' } } };
    const out = compileTemplate('{{ $_ := set .metadata.labels "b" "2" }}{{ $_ := unset .metadata.labels "a" }}{{ toJson .metadata.labels }}').execute(obj);
    assert.equal(out, '{"b":"2"}');
    assert.deepEqual(obj, { metadata: { labels: { a: '1' } } });
  });

  it('reuses prepared data without copying', () => {
    const data = prepareData({ n: 5 });
    const tpl = compileTemplate('{{ .n }}');
    assert.equal(tpl.execute(data), '5');
    assert.equal(tpl.execute(data), '5');
  });

  it('distinguishes JSON null (a nil interface) from a missing key, as Go does', () => {
    const tpl = compileTemplate('{{ .missing.x }}');
    assert.equal(tpl.execute({}), '<no value>');
    assert.throws(() => compileTemplate('{{ .nul.x }}').execute({ nul: null }), /nil pointer evaluating interface \{\}\.x/);
  });
});

describe('map keys that are special in JS', () => {
  it('keeps "__proto__" as an ordinary key, as in Go maps', () => {
    const data = decodeJsonData('{"__proto__": {"x": 1}, "a": 2}');
    assert.equal(compileTemplate('{{ len . }} {{ index . "__proto__" "x" }} {{ toJson . }}').execute(data), '2 1 {"__proto__":{"x":1},"a":2}');
    assert.equal(compileTemplate('{{ $d := dict "__proto__" "v" }}{{ $d }} {{ hasKey $d "__proto__" }}').execute({}), 'map[__proto__:v] true');
  });

  it('does not resolve keys through the JS prototype chain', () => {
    assert.equal(compileTemplate('{{ .constructor }}|{{ .toString }}|{{ hasKey . "constructor" }}').execute({}), '<no value>|<no value>|false');
  });
});

describe('non-plain data', () => {
  it('treats class instances and Dates as a JSON round trip would', () => {
    class Meta {
      name = 'x';
      created = new Date('2024-01-02T03:04:05.000Z');
      hidden = (): string => 'fn';
    }
    assert.equal(compileTemplate('{{ .meta.name }} {{ .meta.created }} {{ .meta.hidden }}').execute({ meta: new Meta() }), 'x 2024-01-02T03:04:05.000Z <no value>');
  });
});
