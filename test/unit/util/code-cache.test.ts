import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CODE_CACHE_DIR, codeCacheKey } from '../../../src/util/code-cache.js';

const IDS = ['create:cluster', 'delete:cluster', 'get:clusters', 'scale', 'kubectl', 'config:view', '__complete'];

test('the cache key is the command the words name, wherever the flags are, and main for anything else', () => {
  assert.equal(codeCacheKey(['create', 'cluster', '--name', 'x'], IDS), 'create-cluster');
  assert.equal(codeCacheKey(['--name', 'x', 'config', 'view'], IDS), 'config-view');
  assert.equal(codeCacheKey(['scale', 'node', '--replicas', '5'], IDS), 'scale');
  // Each TAB press of a completing shell runs this one.
  assert.equal(codeCacheKey(['__complete', 'create', 'cluster', '--run'], IDS), '__complete');
  assert.equal(codeCacheKey(['create', 'cluster', '--help'], IDS), 'create-cluster.help');
  assert.equal(codeCacheKey(['-h'], IDS), 'main.help');
  // A typo or a cluster name never names a file.
  assert.equal(codeCacheKey(['crate', 'clster'], IDS), 'main');
  assert.equal(codeCacheKey(['--name', 'my-cluster'], IDS), 'main');
  // After `--`, words and help belong to the tool.
  assert.equal(codeCacheKey(['kubectl', '--', 'get', 'pods', '--help'], IDS), 'kubectl');
});

/** Runs `bundle` through runCachedBundle in a process of its own (the cache is written at exit) and returns what it printed. */
function runBundle(bundle: string, key: string): { cache: string; value: string } {
  const moduleUrl = new URL('../../../src/util/code-cache.ts', import.meta.url).href;
  const script = `const { runCachedBundle } = await import(${JSON.stringify(moduleUrl)}); const r = runCachedBundle(${JSON.stringify(bundle)}, ${JSON.stringify(key)}); console.log(JSON.stringify({ cache: r.cache, value: r.exports.answer() }));`;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' })) as { cache: string; value: string };
}

test('a bundle runs, writes its cache at exit, and the next run uses it; a damaged cache is rejected and written anew', () => {
  const dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
  const bundle = join(dir, 'main.cjs');
  writeFileSync(bundle, "const path = require('node:path');\nexports.answer = () => path.basename(__filename) + ':' + String(6 * 7);\n");
  assert.deepEqual(runBundle(bundle, 'scale'), { cache: 'none', value: 'main.cjs:42' });
  const files = readdirSync(join(dir, CODE_CACHE_DIR));
  assert.deepEqual(files, [`scale-${process.version}-${process.arch}.bin`]);
  const cacheFile = join(dir, CODE_CACHE_DIR, files[0]!);
  assert.equal(statSync(join(dir, CODE_CACHE_DIR)).mode & 0o777, 0o700);
  assert.equal(statSync(cacheFile).mode & 0o777, 0o600);
  assert.deepEqual(runBundle(bundle, 'scale'), { cache: 'used', value: 'main.cjs:42' });
  writeFileSync(cacheFile, Buffer.from('not a code cache, but long enough to be looked at by V8 at all'));
  assert.deepEqual(runBundle(bundle, 'scale'), { cache: 'rejected', value: 'main.cjs:42' });
  assert.notEqual(readFileSync(cacheFile, 'latin1').slice(0, 10), 'not a code');
  assert.equal(runBundle(bundle, 'scale').cache, 'used');
});

test('a cache that cannot be written only means no cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'code-cache-ro-'));
  const bundle = join(dir, 'main.cjs');
  writeFileSync(bundle, "exports.answer = () => 'ok';\n");
  // In the place of the directory, a file: mkdir fails, as in a package directory that is not ours (root writes anywhere else).
  writeFileSync(join(dir, CODE_CACHE_DIR), '');
  assert.deepEqual(runBundle(bundle, 'main'), { cache: 'none', value: 'ok' });
  assert.deepEqual(runBundle(bundle, 'main'), { cache: 'none', value: 'ok' });
});
