/**
 * bin/kwok-controller.js, the controller executable the binary runtime starts, run for real in a
 * copy of the package layout with stand-in entries: it runs the esbuild bundle when the build made
 * one and the tsc output otherwise, with the arguments untouched either way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ENTRY = resolve(import.meta.dirname, '..', '..', '..', 'bin', 'kwok-controller.js');

function layout(withBundle: boolean): { dir: string; run: () => string } {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-controller-entry-'));
  mkdirSync(join(dir, 'bin'));
  copyFileSync(ENTRY, join(dir, 'bin', 'kwok-controller.js'));
  writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n');
  const stand = (path: string, says: string): void => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), `console.log(${JSON.stringify(says)}, JSON.stringify(process.argv.slice(2)));\n`);
  };
  stand('dist/src/kwok/main.js', 'tsc');
  if (withBundle) stand('dist/kwok-controller/kwok-controller.js', 'bundle');
  return {
    dir,
    run: () => {
      const result = spawnSync(process.execPath, [join(dir, 'bin', 'kwok-controller.js'), '--config=a b', '--v=debug'], { encoding: 'utf8' });
      assert.equal(result.status, 0, result.stderr);
      return result.stdout.trim();
    },
  };
}

test('the controller executable runs the bundle when the build made one', () => {
  const box = layout(true);
  try {
    assert.equal(box.run(), 'bundle ["--config=a b","--v=debug"]');
  } finally {
    rmSync(box.dir, { recursive: true, force: true });
  }
});

test('without a bundle (a tsc-only build) it runs the tsc output', () => {
  const box = layout(false);
  try {
    assert.equal(box.run(), 'tsc ["--config=a b","--v=debug"]');
  } finally {
    rmSync(box.dir, { recursive: true, force: true });
  }
});
