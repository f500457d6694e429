/**
 * bin/kwok-controller.js, the controller executable the binary runtime starts, run for real in a
 * copy of the package layout with stand-in entries: it runs the esbuild bundle when the build made
 * one and the tsc output otherwise, with the arguments untouched either way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * The Node entries take a deferred NODE_EXTRA_CA_CERTS back (src/util/extra-ca-certs.ts) before
 * their program runs, and load nothing for it when there is none: a stand-in module says when it
 * is called, and the stand-in program after it prints what it sees of the variable. bin/run.cjs
 * does so for the oclif path only: the fast path takes it back itself (the commands there do not
 * load node:tls to trust it), so it gets the variable still deferred.
 */
function entryBox(entry: string, fastPath: string): { stand(path: string, text: string): void; run(env: Record<string, string>, args?: string[]): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-entry-ca-'));
  mkdirSync(join(dir, 'bin'));
  copyFileSync(resolve(ENTRY, '..', entry), join(dir, 'bin', entry));
  writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n');
  const stand = (path: string, text: string): void => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  stand('dist/src/util/extra-ca-certs.js', 'export async function resumeExtraCaCerts() { console.log("resumed"); process.env.NODE_EXTRA_CA_CERTS = process.env.KWOKTS_DEFERRED_NODE_EXTRA_CA_CERTS; delete process.env.KWOKTS_DEFERRED_NODE_EXTRA_CA_CERTS; }\n');
  stand('dist/src/kwok/main.js', PROGRAM);
  stand('dist/src/cli/main.js', `export async function main() { ${PROGRAM} }\n`);
  // A tsc-only build's modules, which bin/run.cjs imports when the bundles are not there.
  stand('dist/src/cli/cli-bundle.js', "export { resumeExtraCaCerts } from '../util/extra-ca-certs.js';\nexport async function loadCli() { return import('./main.js'); }\n");
  stand('dist/src/cli/fast-path.js', `${fastPath}\nexport async function exitWhenFlushed(code) { process.exit(code); }\n`);
  return {
    stand,
    run(env, args = []) {
      const result = spawnSync(process.execPath, [join(dir, 'bin', entry), ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env } });
      assert.equal(result.status, 0, result.stderr);
      return result.stdout.trim();
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const PROGRAM = 'console.log("program", process.env.NODE_EXTRA_CA_CERTS ?? "-", process.env.KWOKTS_DEFERRED_NODE_EXTRA_CA_CERTS ?? "-");';

test('bin/kwok-controller.js resumes a deferred NODE_EXTRA_CA_CERTS first, and only when there is one', () => {
  const box = entryBox('kwok-controller.js', '');
  try {
    assert.equal(box.run({ KWOKTS_DEFERRED_NODE_EXTRA_CA_CERTS: '/x.pem' }), 'resumed\nprogram /x.pem -');
    assert.equal(box.run({}), 'program - -');
  } finally {
    box.remove();
  }
});

test('bin/run.cjs: the oclif path gets NODE_EXTRA_CA_CERTS resumed, only when deferred; the fast path gets it still deferred', () => {
  const oclif = entryBox('run.cjs', 'export async function runFast() { return undefined; }');
  try {
    assert.equal(oclif.run({ KWOKTS_DEFERRED_NODE_EXTRA_CA_CERTS: '/x.pem' }), 'resumed\nprogram /x.pem -');
    assert.equal(oclif.run({}), 'program - -');
  } finally {
    oclif.remove();
  }
  const fast = entryBox('run.cjs', `export async function runFast() { ${PROGRAM} return 0; }`);
  try {
    assert.equal(fast.run({ KWOKTS_DEFERRED_NODE_EXTRA_CA_CERTS: '/x.pem' }), 'program - /x.pem');
  } finally {
    fast.remove();
  }
});

test('bin/run.cjs requires the CommonJS bundles when the build made them', () => {
  const box = entryBox('run.cjs', 'export async function runFast() { throw new Error("the tsc output ran"); }');
  try {
    box.stand('dist/fast/fast-path.cjs', 'exports.runFast = async (argv) => (argv.length > 0 ? (console.log("fast bundle"), 0) : undefined);\nexports.exitWhenFlushed = async (code) => process.exit(code);\n');
    box.stand('dist/cli/load.cjs', `exports.resumeExtraCaCerts = async () => {};\nexports.loadCli = async () => ({ main: async () => console.log("cli bundle") });\n`);
    assert.equal(box.run({}), 'cli bundle');
    assert.equal(box.run({}, ['--version']), 'fast bundle');
  } finally {
    box.remove();
  }
});

test('bin/run.js, the earlier name, runs bin/run.cjs', (t) => {
  const bin = resolve(ENTRY, '..');
  if (!existsSync(join(bin, '..', 'dist', 'fast', 'fast-path.cjs'))) return t.skip('needs `npm run build` (dist/fast)');
  const earlier = spawnSync(process.execPath, [join(bin, 'run.js'), '--version'], { encoding: 'utf8' });
  const now = spawnSync(process.execPath, [join(bin, 'run.cjs'), '--version'], { encoding: 'utf8' });
  assert.equal(earlier.status, 0, earlier.stderr);
  assert.equal(earlier.stdout, now.stdout);
  assert.match(earlier.stdout, /^kwokts\//);
});
