import assert from 'node:assert/strict';
import { test } from 'node:test';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDefaultConfig } from '../../../src/config/view.js';

test('tidy keeps a hand-written kwok.yaml as kwok.yaml.bak, and writes nothing when already tidy', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-tidy-'));
  const file = join(dir, 'kwok.yaml');
  const handWritten = '# my notes\nkind: KwokctlConfiguration\n';
  writeFileSync(file, handWritten);
  const first = await writeDefaultConfig(dir, 'kind: KwokctlConfiguration\n');
  assert.deepEqual(first, { file, backup: `${file}.bak`, changed: true });
  assert.equal(readFileSync(`${file}.bak`, 'utf8'), handWritten);
  assert.equal(readFileSync(file, 'utf8'), 'kind: KwokctlConfiguration\n');
  const again = await writeDefaultConfig(dir, 'kind: KwokctlConfiguration\n');
  assert.deepEqual(again, { file, backup: undefined, changed: false });
  assert.equal(readFileSync(`${file}.bak`, 'utf8'), handWritten, 'an unchanged tidy keeps the backup');
});

test('a first tidy (no file yet) makes no backup', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-tidy-'));
  const result = await writeDefaultConfig(dir, 'kind: KwokctlConfiguration\n');
  assert.equal(result.backup, undefined);
  assert.equal(existsSync(join(dir, 'kwok.yaml.bak')), false);
});
