/**
 * The README's option table, rendered from src/config/options.ts (the one table):
 *
 *   node --import tsx test/tools/options-table.ts          # rewrite README.md between the markers
 *
 * test/unit/config/options-doc.test.ts fails when README.md and the table disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { OPTION_SPECS, type OptionSpec } from '../../src/config/options.js';

export const START = '<!-- options-table:start (rendered by test/tools/options-table.ts) -->';
export const END = '<!-- options-table:end -->';

const HONOUR = { applied: 'as kwokctl', differs: 'differs', unsupported: 'warned, ignored' } as const;

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function defaultOf(spec: OptionSpec): string {
  const d = spec.default;
  if (Array.isArray(d)) return d.length > 0 ? `\`${d.join(',')}\`` : '';
  if (d === '') return '';
  return `\`${String(d)}\``;
}

export function renderOptionsTable(): string {
  const rows = (OPTION_SPECS as readonly OptionSpec[]).map((s) => {
    const added = (what: 'flag' | 'env'): string => (s.kwoktsOnly || s.additions?.includes(what) ? ' (kwokts)' : '');
    const flag = s.flag ? `\`--${s.flag}\`${s.deprecated ? ' (deprecated)' : ''}${added('flag')}` : '';
    const env = s.env ? `\`${s.env}\`${added('env')}` : '';
    const how = `${s.kwoktsOnly ? 'kwokts only' : HONOUR[s.honour]}${s.note ? `: ${s.note}` : ''}`;
    return `| \`${s.key}\` | ${flag} | ${env} | ${cell(s.type)} | ${defaultOf(s)} | ${cell(s.description)} | ${cell(how)} |`;
  });
  return [START, '| `options.` field | flag | variable | type | default | meaning | kwokts |', '|---|---|---|---|---|---|---|', ...rows, END].join('\n');
}

export function readmeSection(readme: string): string | undefined {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  return start < 0 || end < 0 ? undefined : readme.slice(start, end + END.length);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const path = join(import.meta.dirname, '..', '..', 'README.md');
  const readme = readFileSync(path, 'utf8');
  const current = readmeSection(readme);
  if (!current) throw new Error(`README.md has no ${START} ... ${END} section`);
  writeFileSync(path, readme.replace(current, renderOptionsTable()));
}
