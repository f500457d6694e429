/**
 * scripts/bundle.mjs's lean entries: `delete cluster`, `get clusters` and a passthrough run by Node
 * each run from one CommonJS file of the fast path (dist/fast/fast-delete.cjs, ...), which
 * fast-path.cjs runs from V8's code cache (src/util/code-cache.ts), not from the shared build's
 * chunks, because Node's ES module loader handles each file apart and thirty of them cost a delete
 * a quarter of its time. These read the built files: a change that lets the entry load a chunk
 * again, points a require at a file the build does not make, or leaves in it what a script run
 * from the code cache cannot have, fails here.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';

const FAST = resolve(import.meta.dirname, '..', '..', '..', 'dist', 'fast');
const built = existsSync(join(FAST, 'fast-delete.cjs'));

/** Module specifiers of a built CommonJS file: its require() calls and its dynamic import() calls. */
function specifiers(file: string): { required: string[]; dynamic: string[] } {
  const text = readFileSync(file, 'utf8');
  return {
    required: [...text.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!),
    dynamic: [...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!),
  };
}

const ENTRIES = ['fast-delete', 'fast-get-clusters', 'fast-passthrough'];

for (const entry of ENTRIES) {
  test(`${entry}.cjs loads no chunk, and the files it may require exist (rare tsc-built modules, the shared build's entries)`, { skip: !built && 'needs `npm run build`' }, () => {
    const relative = specifiers(join(FAST, `${entry}.cjs`)).required.filter((s) => s.startsWith('.'));
    assert.deepEqual(relative.filter((s) => /chunk-/.test(s)), []);
    for (const specifier of relative) assert.ok(existsSync(resolve(FAST, specifier)), `${specifier} does not exist beside ${FAST}`);
  });

  test(`${entry}.cjs is what a script run from the code cache must be: no import(), ASCII only`, { skip: !built && 'needs `npm run build`' }, () => {
    const text = readFileSync(join(FAST, `${entry}.cjs`), 'latin1');
    assert.deepEqual(specifiers(join(FAST, `${entry}.cjs`)).dynamic, []);
    assert.doesNotMatch(text, /[^\0-\x7f]/);
  });

  test(`the fast path sends its command to ${entry}.cjs, run from the code cache under its own name`, { skip: !built && 'needs `npm run build`' }, () => {
    assert.ok(readFileSync(join(FAST, 'fast-path.cjs'), 'utf8').includes(`runCachedBundle(require("node:path").join(__dirname, "${entry}.cjs"), "${entry}")`));
  });
}

test("a delete of a container or kind cluster requires the other runtimes from the shared build's entry", { skip: !built && 'needs `npm run build`' }, () => {
  assert.ok(specifiers(join(FAST, 'fast-delete.cjs')).required.includes('./runtime-registry.js'));
});
