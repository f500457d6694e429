import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYamlDocuments, parseYamlDocumentsStrictly, renderYamlDocuments } from '../../../../src/gocompat/yaml/yaml.js';

test('rendered YAML reads back as the same values with our (YAML 1.1) reader', () => {
  const doc = { yes: 'yes', on: 'on', n: 'n', time: '1:20', date: '2024-01-01', octal: '0755', truth: true, count: 12, nothing: null, list: ['off', 'y'] };
  const text = renderYamlDocuments([doc, { second: 'NO' }]);
  assert.deepEqual(parseYamlDocuments(text), [doc, { second: 'NO' }]);
  assert.match(text, /^"yes": "yes"$/m, "keys too: `on:` is true in YAML 1.1");
  assert.match(text, /^time: "1:20"$/m);
});

test('documents read as go-yaml v2 reads them, also where the yaml package reads YAML 1.1 otherwise', () => {
  const text = '---\n---\nsexagesimal: 1:20\nocto: 0o17\nold: 017\nyes: on\nwhen: 2024-01-02T03:04:05Z\nlist: [~, .inf]\n...\n---\nb: &a {x: 1}\nc: {<<: *a, z: 2}\n';
  assert.deepEqual(parseYamlDocuments(text), [
    { sexagesimal: '1:20', octo: 15, old: 15, true: true, when: '2024-01-02T03:04:05Z', list: [null, Infinity] },
    { b: { x: 1 }, c: { x: 1, z: 2 } },
  ]);
  // The yaml package's YAML 1.1 has base 60 and no 0o; Go's strconv (base 0) is the other way round.
  assert.deepEqual(parseYamlDocumentsStrictly('a: 1:20\nb: 0o17\n'), [{ a: 80, b: '0o17' }]);
});

test('a repeated key replaces the earlier value, as go-yaml v2 outside strict mode (kwokctl v0.8.0 takes the last)', () => {
  const text = 'a: 1\nb: {c: 2}\na: 3\nb: {d: 4}\n---\nkind: X\nkind: Z\n';
  assert.deepEqual(parseYamlDocuments(text), [{ a: 3, b: { d: 4 } }, { kind: 'Z' }]);
  assert.deepEqual(parseYamlDocumentsStrictly(text), [{ a: 3, b: { d: 4 } }, { kind: 'Z' }]);
});

test('what js-yaml refuses, the yaml package decides, with its message', () => {
  assert.throws(() => parseYamlDocuments('a: b: c\n'), /^Error: line 1: /);
  assert.throws(() => parseYamlDocuments('a: [\n'), (error: Error) => {
    assert.throws(() => parseYamlDocumentsStrictly('a: [\n'), { message: error.message });
    return true;
  });
});
