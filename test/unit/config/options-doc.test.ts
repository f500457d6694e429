import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPTIONS_PAGE, renderOptionsTable, tableSection } from '../../tools/options-table.js';
import { OPTION_SPECS } from '../../../src/config/options.js';

const page = (): string => readFileSync(join(import.meta.dirname, '..', '..', '..', OPTIONS_PAGE), 'utf8');

test(`${OPTIONS_PAGE}'s option table is the one rendered from src/config/options.ts`, () => {
  assert.equal(tableSection(page()), renderOptionsTable(), `run \`node --import tsx test/tools/options-table.ts\` to update ${OPTIONS_PAGE}`);
});

test(`${OPTIONS_PAGE}'s count of options above the table is the table's`, () => {
  assert.match(page(), new RegExp(`<summary>All ${OPTION_SPECS.length} options</summary>`));
});
