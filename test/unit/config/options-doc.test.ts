import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeSection, renderOptionsTable } from '../../tools/options-table.js';

test("README's option table is the one rendered from src/config/options.ts", () => {
  const readme = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');
  assert.equal(readmeSection(readme), renderOptionsTable(), 'run `node --import tsx test/tools/options-table.ts` to update README.md');
});
