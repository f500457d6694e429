/**
 * scripts/bundle.mjs's lean entries: `delete cluster`, `get clusters` and a passthrough run by Node
 * each run from one CommonJS file of the fast path (dist/fast/fast-delete.cjs, ...), which
 * fast-path.cjs requires, not from the shared build's chunks, because Node's ES module loader
 * handles each file apart and thirty of them cost a delete a quarter of its time. These read the
 * built files: a change that lets the entry load a chunk again, or points an import at a file the
 * build does not make, fails here.
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
  test(`${entry}.cjs requires no file of the bundle: Node built-ins and packages only`, { skip: !built && 'needs `npm run build`' }, () => {
    const relative = specifiers(join(FAST, `${entry}.cjs`)).required.filter((s) => s.startsWith('.'));
    assert.deepEqual(relative, []);
  });

  test(`${entry}.cjs imports no chunk, and the files it may import exist (rare tsc-built modules, the shared build's entries)`, { skip: !built && 'needs `npm run build`' }, () => {
    const relative = specifiers(join(FAST, `${entry}.cjs`)).dynamic.filter((s) => s.startsWith('.'));
    assert.deepEqual(relative.filter((s) => /chunk-/.test(s)), []);
    for (const specifier of relative) assert.ok(existsSync(resolve(FAST, specifier)), `${specifier} does not exist beside ${FAST}`);
    for (const s of relative.filter((s) => s.startsWith('../'))) assert.ok(existsSync(join(dirname(FAST), s.slice(3))), s);
  });

  test(`the fast path sends its command to ${entry}.cjs, with require()`, { skip: !built && 'needs `npm run build`' }, () => {
    assert.ok(specifiers(join(FAST, 'fast-path.cjs')).required.includes(`./${entry}.cjs`));
  });
}

test("a delete of a container or kind cluster imports the other runtimes from the shared build's entry", { skip: !built && 'needs `npm run build`' }, () => {
  assert.ok(specifiers(join(FAST, 'fast-delete.cjs')).dynamic.includes('./runtime-registry.js'));
});
