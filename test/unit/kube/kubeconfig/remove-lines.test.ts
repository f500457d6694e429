import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { parse } from 'yaml';
import { mergeContext } from '../../../../src/kube/index.js';
import { removeEntryLines } from '../../../../src/kube/kubeconfig/remove-lines.js';
import { editKubeconfig, removeEntry } from '../../../../src/kube/kubeconfig/yaml-edit.js';
import { KUBECTL_WRITTEN, kwokEntry, scratchDir } from './helpers.js';

/** What the YAML editor makes of the same removal: the reference the line edit must agree with. */
function yamlEdit(text: string, name: string): string {
  return editKubeconfig(text, 'config', (doc) => removeEntry(doc, name, 'config'));
}

describe('removeEntryLines (delete cluster without the yaml package)', () => {
  let scratch: ReturnType<typeof scratchDir>;
  let path: string;
  beforeEach(() => {
    scratch = scratchDir();
    path = join(scratch.dir, 'config');
  });
  afterEach(() => scratch.cleanup());

  it('writes what the YAML editor writes for files kwokts and kubectl wrote, whichever cluster goes', async () => {
    writeFileSync(path, KUBECTL_WRITTEN);
    for (const cluster of ['a', 'b', 'c']) await mergeContext(path, kwokEntry(cluster, 30000 + cluster.charCodeAt(0)));
    const merged = readFileSync(path, 'utf8');
    for (const name of ['kwok-a', 'kwok-b', 'kwok-c', 'kind-kind']) {
      const quick = removeEntryLines(merged, name);
      assert.equal(quick, yamlEdit(merged, name), name);
      assert.ok(!quick!.includes(`name: ${name}\n`), name);
    }
    // The last one (kwok-c) is current: removing it clears current-context as kubectl does.
    assert.match(removeEntryLines(merged, 'kwok-c')!, /^current-context: ""$/m);
  });

  it('writes an emptied list as [] and answers a file without the name with its own text', async () => {
    await mergeContext(path, kwokEntry('only'));
    const alone = readFileSync(path, 'utf8');
    const quick = removeEntryLines(alone, 'kwok-only');
    assert.equal(quick, yamlEdit(alone, 'kwok-only'));
    assert.match(quick!, /^clusters: \[\]$/m);
    assert.equal(removeEntryLines(alone, 'kwok-other'), alone);
    writeFileSync(path, '');
    assert.equal(removeEntryLines('', 'kwok-only'), '');
    assert.equal(removeEntryLines('# nothing here\n', 'kwok-only'), '# nothing here\n');
  });

  it('keeps comments between items and the lines of every other entry byte for byte', () => {
    const text = `apiVersion: v1
clusters:
  # production first
  - cluster:
      server: https://prod:6443   # keep this spacing
    name: prod
  - cluster:
      # ours
      server: https://127.0.0.1:1
    name: kwok-demo
  # staging below
  - cluster:
      server: https://staging:6443
    name: staging
contexts:
  - context: {cluster: kwok-demo, user: kwok-demo}
    name: kwok-demo
current-context: prod   # mine
kind: Config
users: []
`;
    const quick = removeEntryLines(text, 'kwok-demo');
    assert.equal(
      quick,
      text
        .replace('  - cluster:\n      # ours\n      server: https://127.0.0.1:1\n    name: kwok-demo\n', '')
        .replace('contexts:\n  - context: {cluster: kwok-demo, user: kwok-demo}\n    name: kwok-demo\n', 'contexts: []\n'),
    );
    assert.deepEqual(parse(quick!), parse(yamlEdit(text, 'kwok-demo')));
  });

  it('declines what it cannot edit by lines, so the YAML editor does it', () => {
    const declined: Record<string, string> = {
      'CRLF line ends': KUBECTL_WRITTEN.replace(/\n/g, '\r\n'),
      'a document marker': `---\n${KUBECTL_WRITTEN}`,
      'a flow list holding the entry': KUBECTL_WRITTEN.replace(/^clusters:\n- cluster:\n.*\n.*\n  name: kind-kind\n/m, 'clusters: [{cluster: {server: "https://x"}, name: kind-kind}]\n'),
      'a comment on current-context': KUBECTL_WRITTEN.replace('current-context: kind-kind', 'current-context: kind-kind # mine'),
      'an anchored section': KUBECTL_WRITTEN.replace('clusters:\n', 'clusters: &c\n'),
      'an anchor in the entry that another entry uses': KUBECTL_WRITTEN.replace('- context:\n', '- context: &ctx\n').replace('kind: Config', 'kind: Config\nspare: *ctx'),
      'a tab in an item': KUBECTL_WRITTEN.replace('  name: kind-kind\ncontexts', '\tname: kind-kind\ncontexts'),
      'not YAML': 'clusters: [\n',
      'not a mapping': '- a\n- b\n',
      'a list that is not one': 'clusters: 3\ncurrent-context: kind-kind\n',
      'a number named like the context': 'clusters:\n- cluster: {}\n  name: 7\ncurrent-context: x\n',
    };
    const name: Record<string, string> = { 'a number named like the context': '7' };
    for (const [what, text] of Object.entries(declined)) assert.equal(removeEntryLines(text, name[what] ?? 'kind-kind'), undefined, what);
  });

  it('on generated files answers either undefined or exactly the data without the entries (as the YAML editor does), never touching another entry\'s lines', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const names = ['kwok-a', 'kwok-b', 'prod', 'kwok-a', '"kwok-b"', "'prod'"];
    let edited = 0;
    for (let round = 0; round < 300; round++) {
      const indent = random(2) === 0 ? '' : '  ';
      const lines: string[] = ['apiVersion: v1'];
      for (const section of ['clusters', 'contexts', 'users']) {
        const count = random(4);
        if (count === 0 && random(2) === 0) continue;
        lines.push(count === 0 ? `${section}: []` : `${section}:`);
        for (let i = 0; i < count; i++) {
          if (random(4) === 0) lines.push(`${indent}# before item ${i}`);
          const field = section.slice(0, -1);
          lines.push(`${indent}- ${field}:`, `${indent}    server: https://h${i}:6443`);
          if (random(5) === 0) lines.push('', `${indent}    # inside`);
          lines.push(`${indent}  name: ${names[random(names.length)]}`);
        }
      }
      lines.push(`current-context: ${names[random(names.length)]}`, 'kind: Config', '');
      const text = lines.join('\n');
      const name = ['kwok-a', 'kwok-b', 'prod'][random(3)]!;
      // The data without the entries, read by the yaml package (not js-yaml, which the line edit checks itself with).
      const expected = parse(text) as Record<string, unknown>;
      for (const section of ['clusters', 'contexts', 'users']) {
        const list = expected[section];
        if (Array.isArray(list)) expected[section] = list.filter((item: { name?: unknown }) => item.name !== name);
      }
      if (expected['current-context'] === name) expected['current-context'] = '';
      // The YAML editor, where the line edit declines, must get there too.
      assert.deepEqual(parse(yamlEdit(text, name)), expected, `YAML editor, ${name} from:\n${text}`);
      const quick = removeEntryLines(text, name);
      if (quick === undefined) continue;
      assert.deepEqual(parse(quick), expected, `${name} from:\n${text}`);
      // Only whole lines go: what stays is the original's lines in order (bar the replaced ones).
      const kept = quick.split('\n').filter((line) => !/^(current-context: ""|\w+: \[\])$/.test(line));
      let at = 0;
      for (const line of kept) {
        at = lines.indexOf(line, at);
        assert.ok(at >= 0, `${line} is not an original line, from:\n${text}`);
        at++;
      }
      if (quick !== text) edited++;
    }
    assert.ok(edited > 100, `only ${edited} of 300 generated files were edited by lines`);
  });

  it('removes the only entry of a list with a comment above it (the YAML editor refused to, before it wrote emptied lists as flow lists)', () => {
    const text = 'apiVersion: v1\nclusters:\n# ours\n- cluster:\n    server: https://127.0.0.1:1\n  name: kwok-a\ncurrent-context: prod\nkind: Config\n';
    const quick = removeEntryLines(text, 'kwok-a');
    assert.equal(quick, 'apiVersion: v1\nclusters: []\n# ours\ncurrent-context: prod\nkind: Config\n');
    // Where the line edit declines (CRLF), the YAML editor: the same data.
    const crlf = yamlEdit(text.replace(/\n/g, '\r\n'), 'kwok-a');
    assert.deepEqual(parse(crlf), parse(quick!));
    assert.match(crlf, /\r\n/);
  });
});
