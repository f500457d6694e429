/**
 * scripts/bundle.mjs's lean entries: `delete cluster`, `get clusters` and a passthrough run by Node
 * each run from one file of the fast-path bundle (dist/fast/fast-delete.js, ...), not from the
 * shared build's chunks, because Node's module loader handles each file apart and thirty of them
 * cost a delete a quarter of its time. These read the
 * built files: a change that lets the entry import a chunk again, or points a dynamic import at a
 * file the build does not make, fails here.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';

const FAST = resolve(import.meta.dirname, '..', '..', '..', 'dist', 'fast');
const built = existsSync(join(FAST, 'fast-delete.js'));

/** Module specifiers of a built ES module: its static imports and its dynamic import() calls. */
function specifiers(file: string): { static: string[]; dynamic: string[] } {
  const text = readFileSync(file, 'utf8');
  return {
    static: [...text.matchAll(/^import\s[^;]*?from\s*["']([^"']+)["']|^import\s*["']([^"']+)["']/gm)].map((m) => (m[1] ?? m[2])!),
    dynamic: [...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!),
  };
}

const ENTRIES = ['fast-delete', 'fast-get-clusters', 'fast-passthrough'];

for (const entry of ENTRIES) {
  test(`${entry}.js imports no file of the bundle statically: Node built-ins and packages only`, { skip: !built && 'needs `npm run build`' }, () => {
    const relative = specifiers(join(FAST, `${entry}.js`)).static.filter((s) => s.startsWith('.'));
    assert.deepEqual(relative, []);
  });

  test(`${entry}.js imports no chunk, and the files it may import exist (rare tsc-built modules, the shared build's entries)`, { skip: !built && 'needs `npm run build`' }, () => {
    const relative = specifiers(join(FAST, `${entry}.js`)).dynamic.filter((s) => s.startsWith('.'));
    assert.deepEqual(relative.filter((s) => /chunk-/.test(s)), []);
    for (const specifier of relative) assert.ok(existsSync(resolve(FAST, specifier)), `${specifier} does not exist beside ${FAST}`);
    for (const s of relative.filter((s) => s.startsWith('../'))) assert.ok(existsSync(join(dirname(FAST), s.slice(3))), s);
  });

  test(`the fast path sends its command to ${entry}.js`, { skip: !built && 'needs `npm run build`' }, () => {
    assert.ok(specifiers(join(FAST, 'fast-path.js')).dynamic.includes(`./${entry}.js`));
  });
}

test("a delete of a container or kind cluster imports the other runtimes from the shared build's entry", { skip: !built && 'needs `npm run build`' }, () => {
  assert.ok(specifiers(join(FAST, 'fast-delete.js')).dynamic.includes('./runtime-registry.js'));
});
