import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseYamlStream, parseYamlStreamStrictly } from '../../../../src/kwok/app/config-file.js';

const root = join(import.meta.dirname, '../../../..');

/** The kwok.yaml `create cluster` writes for the binary runtime (from the dry-run golden). */
function goldenKwokYaml(): string {
  const lines = readFileSync(join(root, 'test/fixtures/dry-run/binary.txt'), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.startsWith('cat <<') && line.endsWith('/kwok.yaml'));
  const end = lines.indexOf('EOF', start);
  return lines.slice(start + 1, end).join('\n');
}

describe('config file YAML', () => {
  it('reads the kwok.yaml create writes, and every stage template, as the yaml package does', () => {
    const texts = [goldenKwokYaml(), ...readdirSync(join(root, 'templates/stages')).map((f) => readFileSync(join(root, 'templates/stages', f), 'utf8'))];
    assert.ok(texts[0]!.includes('kind: KwokctlConfiguration'));
    for (const text of texts) assert.deepEqual(parseYamlStream(text, 'x'), parseYamlStreamStrictly(text, 'x'));
  });

  it('keeps YAML 1.1 scalars, merge keys, timestamps as strings and empty documents as yaml does', () => {
    const text = [
      '---',
      '',
      '---',
      'kind: KwokConfiguration',
      'base: &b {a: yes, b: off, mode: 0755, hex: 0x1F, f: 1.5e3, n: ~, t: 2024-01-02T03:04:05Z}',
      'merged:',
      '  <<: *b',
      '  a: "yes"',
      'list: [1, -2, .inf, "x", y]',
      'block: |',
      '  line one',
      '  line two',
      '...',
      '---',
      'kind: Stage',
      '',
    ].join('\n');
    const fast = parseYamlStream(text, 'x');
    assert.deepEqual(fast, parseYamlStreamStrictly(text, 'x'));
    assert.equal(fast.length, 2);
    // Where YAML 1.1 readers differ, Go's kwok (go-yaml v2) is followed: no base 60, 0o octal.
    assert.deepEqual(parseYamlStream('a: 1:20\nb: 0o17\n', 'x'), [{ a: '1:20', b: 15 }]);
  });

  it('leaves what js-yaml refuses to the yaml package, with its message and line', () => {
    for (const text of ['a: b: c\n', 'a: [\n', 'kind: x\n---\nb: !!binary aGk=\n']) {
      let strict: unknown;
      try {
        strict = parseYamlStreamStrictly(text, 'f.yaml');
      } catch (error) {
        assert.throws(() => parseYamlStream(text, 'f.yaml'), { message: (error as Error).message });
        continue;
      }
      assert.deepEqual(parseYamlStream(text, 'f.yaml'), strict);
    }
    assert.throws(() => parseYamlStream('a: 1\nb: c: d\n', 'f.yaml'), /^Error: f\.yaml:2: /);
    // A repeated key is no error: the last value wins, as in go-yaml v2 outside strict mode.
    assert.deepEqual(parseYamlStream('a: 1\na: 2\n', 'f.yaml'), [{ a: 2 }]);
  });
});
