/**
 * The option table of docs/user/configuration.md, rendered from src/config/options.ts (the one table):
 *
 *   node --import tsx test/tools/options-table.ts          # rewrite the page between the markers
 *
 * test/unit/config/options-doc.test.ts fails when the page and the table disagree.
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

/** The page the table is kept in, relative to the repository. */
export const OPTIONS_PAGE = 'docs/user/configuration.md';

export function tableSection(page: string): string | undefined {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  return start < 0 || end < 0 ? undefined : page.slice(start, end + END.length);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const path = join(import.meta.dirname, '..', '..', OPTIONS_PAGE);
  const page = readFileSync(path, 'utf8');
  const current = tableSection(page);
  if (!current) throw new Error(`${OPTIONS_PAGE} has no ${START} ... ${END} section`);
  writeFileSync(path, page.replace(current, renderOptionsTable()));
}
