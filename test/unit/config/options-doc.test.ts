import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeSection, renderOptionsTable } from '../../tools/options-table.js';
import { OPTION_SPECS } from '../../../src/config/options.js';

test("README's option table is the one rendered from src/config/options.ts", () => {
  const readme = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');
  assert.equal(readmeSection(readme), renderOptionsTable(), 'run `node --import tsx test/tools/options-table.ts` to update README.md');
});

test("README's count of options above the table is the table's", () => {
  const readme = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');
  assert.match(readme, new RegExp(`<summary>All ${OPTION_SPECS.length} options</summary>`));
});
