import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { loadYaml11, resolveNumber } from '../../../../src/gocompat/yaml/yaml11-schema.js';
import { parseK8sYaml, parseK8sYamlDocuments, YamlSyntaxError } from '../../../../src/gocompat/yaml/k8s-yaml.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
// The reader parseK8sYaml used before: the `yaml` package in YAML 1.1 mode, timestamps as strings.
const reference = (text: string): unknown =>
  parse(text, { version: '1.1', merge: true, customTags: (tags) => tags.filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:timestamp') }) ?? null;

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.yaml'))
    .map((e) => join(e.parentPath, e.name));
}

test('agrees with the yaml package on every shipped and fixture YAML document', () => {
  const files = [...yamlFiles(join(ROOT, 'templates')), ...yamlFiles(join(ROOT, 'test', 'unit'))];
  assert.ok(files.length > 20, `expected a corpus, found ${files.length} files`);
  let docs = 0;
  for (const file of files) {
    for (const text of readFileSync(file, 'utf8').split(/^---\s*$/m)) {
      if (!text.trim()) continue;
      assert.deepStrictEqual(loadYaml11(text) ?? null, reference(text), file);
      docs++;
    }
  }
  assert.ok(docs > 40);
});

test('plain scalars resolve as go-yaml v2 resolves them', () => {
  const cases: Array<[string, unknown]> = [
    ['yes', true], ['No', false], ['ON', true], ['off', false], ['y', true], ['N', false], ['true', true], ['False', false],
    ['~', null], ['null', null], ['', null], ['NULL', null],
    ['12', 12], ['-7', -7], ['+3', 3], ['1_000', 1000], ['0x1F', 31], ['0755', 493], ['0b101', 5], ['-0x10', -16], ['0', 0],
    ['1.5', 1.5], ['-.5', -0.5], ['.5', 0.5], ['1e3', 1000], ['6.02e+23', 6.02e23], ['1.', 1],
    ['.inf', Infinity], ['-.Inf', -Infinity],
    ['"yes"', 'yes'], ["'12'", '12'], ['1.2.3', '1.2.3'], ['10.0.0.1', '10.0.0.1'], ['2026-11-22T18:00:00Z', '2026-11-22T18:00:00Z'],
    ['Running', 'Running'], ['0x', '0x'], ['+', '+'], ['-x', '-x'], ['1Gi', '1Gi'], ['100m', '100m'], ['Infinity', 'Infinity'],
  ];
  for (const [scalar, want] of cases) assert.deepStrictEqual(loadYaml11(`v: ${scalar}`), { v: want }, scalar);
  const nan = loadYaml11('v: .nan') as { v: number };
  assert.ok(Number.isNaN(nan.v));
});

test('where go-yaml v2 and the yaml package differ, go-yaml wins', () => {
  // Go's strconv base 0 reads 0o octal; "08" is not octal but is a float; YAML 1.1 sexagesimal is not in go-yaml.
  assert.equal(resolveNumber('0o17'), 15);
  assert.equal(resolveNumber('08'), 8);
  assert.equal(resolveNumber('12:30'), undefined);
  assert.deepStrictEqual(loadYaml11('t: 12:30'), { t: '12:30' });
});

test('merge keys, nesting and empty documents', () => {
  assert.deepStrictEqual(loadYaml11('a: &x {k: 1}\nb:\n  <<: *x\n  j: 2'), { a: { k: 1 }, b: { k: 1, j: 2 } });
  assert.equal(parseK8sYaml(''), null);
  assert.equal(parseK8sYaml('# only a comment\n'), null);
});

test('syntax errors surface as YamlSyntaxError', () => {
  assert.throws(() => parseK8sYaml('a: [1, 2'), YamlSyntaxError);
  assert.throws(() => parseK8sYaml('a: b: c'), YamlSyntaxError);
});

test('a repeated key replaces the earlier value (go-yaml v2 outside strict mode)', () => {
  assert.deepEqual(parseK8sYaml('a: 1\nb: {c: 2}\na: 3\nb: {d: 4}'), { a: 3, b: { d: 4 } });
  assert.deepEqual(parseK8sYamlDocuments('a: 1\na: 2\n'), [{ a: 2 }]);
});
