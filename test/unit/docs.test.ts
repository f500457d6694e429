/**
 * The documentation, checked: docs/reference/cli.md is what scripts/gen-cli-reference.ts writes
 * from the command classes now, and every relative link in README.md and docs/ reaches a file
 * (and, with a #fragment into Markdown, a heading or anchor of that file).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { CLI_REFERENCE, renderCliReference } from '../../scripts/gen-cli-reference.js';

const ROOT = join(import.meta.dirname, '..', '..');

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...markdownFiles(path));
    else if (entry.name.endsWith('.md')) out.push(path);
  }
  return out;
}

/** The text without fenced code blocks and inline code, where a `[x](y)` is not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '').replace(/`+[^`\n]*`+/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutCode = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
  for (const [, text] of withoutCode.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const plain = text!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const slug = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const [, id] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

/** Relative link targets of a Markdown file: `[text](target)` and `![alt](target)`. */
export function relativeLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:
    links.push(target!);
  }
  return links;
}

describe('documentation', () => {
  test(`${CLI_REFERENCE} is generated from the command classes`, async () => {
    const current = readFileSync(join(ROOT, CLI_REFERENCE), 'utf8');
    assert.equal(current, await renderCliReference(), `${CLI_REFERENCE} is stale: run \`npm run docs:reference\``);
  });

  test('every relative link in README.md and docs/ resolves', () => {
    const files = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];
    const anchorsOf = new Map<string, Set<string>>();
    const anchors = (file: string): Set<string> => {
      let found = anchorsOf.get(file);
      if (!found) anchorsOf.set(file, (found = headingAnchors(readFileSync(file, 'utf8'))));
      return found;
    };
    const broken: string[] = [];
    for (const file of files) {
      for (const link of relativeLinks(readFileSync(file, 'utf8'))) {
        const [path = '', fragment] = link.split('#', 2);
        const target = path === '' ? file : join(dirname(file), decodeURIComponent(path));
        const where = `${relative(ROOT, file)}: ${link}`;
        if (!existsSync(target)) broken.push(`${where} (no such file)`);
        else if (fragment && target.endsWith('.md') && statSync(target).isFile() && !anchors(target).has(fragment)) broken.push(`${where} (no such heading)`);
      }
    }
    assert.deepEqual(broken, []);
  });

  test('headingAnchors follows GitHub', () => {
    const anchors = headingAnchors('# kwokts\n### `kubectl logs` on fake pods (Logs, ClusterLogs)\n## A\n## A\n<a id="x-y"></a>\n```\n# not a heading\n```\n');
    assert.deepEqual([...anchors].sort(), ['a', 'a-1', 'kubectl-logs-on-fake-pods-logs-clusterlogs', 'kwokts', 'x-y']);
  });

  test('relativeLinks skips URLs and code', () => {
    assert.deepEqual(relativeLinks('[a](docs/a.md) [b](https://x.y) ![c](c.svg "t") `[d](d.md)`\n```\n[e](e.md)\n```\n[f](#g)'), ['docs/a.md', 'c.svg', '#g']);
  });
});
