import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseYamlDocuments, renderYamlDocuments } from '../../../../src/gocompat/yaml/yaml.js';

test('rendered YAML reads back as the same values with our (YAML 1.1) reader', () => {
  const doc = { yes: 'yes', on: 'on', n: 'n', time: '1:20', date: '2024-01-01', octal: '0755', truth: true, count: 12, nothing: null, list: ['off', 'y'] };
  const text = renderYamlDocuments([doc, { second: 'NO' }]);
  assert.deepEqual(parseYamlDocuments(text), [doc, { second: 'NO' }]);
  assert.match(text, /^"yes": "yes"$/m, "keys too: `on:` is true in YAML 1.1");
  assert.match(text, /^time: "1:20"$/m);
});
