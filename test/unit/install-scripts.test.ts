/**
 * package.json's `allowScripts` decides, for every installed dependency with an install script,
 * whether npm runs it. npm 11 warns about a dependency it does not cover (a newcomer's first
 * `npm install` then ends in warnings); npm 12 silently skips its script. So every such dependency
 * in node_modules must have an entry, and every entry must still name one (npm's own `prune` rule),
 * so that a new or upgraded dependency's script is a decision made here, not a default.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..', '..');

interface Manifest {
  name?: string;
  version?: string;
  scripts?: Record<string, string>;
  gypfile?: boolean;
}

/** What npm would run at install: its lifecycle scripts, or `node-gyp rebuild` for a binding.gyp without them. */
function installScripts(manifest: Manifest, hasBindingGyp: boolean): string[] {
  const scripts = ['preinstall', 'install', 'postinstall'].filter((s) => manifest.scripts?.[s]);
  if (scripts.length === 0 && hasBindingGyp && manifest.gypfile !== false) return ['install (node-gyp rebuild)'];
  return scripts;
}

/** name@version of every package under node_modules (nested ones too) that has an install script. */
function packagesWithInstallScripts(dir: string, found = new Map<string, string[]>()): Map<string, string[]> {
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      packagesWithInstallScripts(path, found);
      continue;
    }
    const manifestPath = join(path, 'package.json');
    if (existsSync(manifestPath)) {
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
      const scripts = installScripts(manifest, existsSync(join(path, 'binding.gyp')));
      if (manifest.name && scripts.length > 0) found.set(`${manifest.name}@${manifest.version ?? ''}`, scripts);
    }
    packagesWithInstallScripts(join(path, 'node_modules'), found);
  }
  return found;
}

/** An allowScripts key is a name or name@version (npm's pinned form); the name may be scoped. */
function nameOf(key: string): string {
  const at = key.indexOf('@', 1);
  return at < 0 ? key : key.slice(0, at);
}

test('installScripts: lifecycle scripts, or node-gyp for a binding.gyp without them', () => {
  assert.deepEqual(installScripts({ scripts: { postinstall: 'node install.js', test: 'x' } }, false), ['postinstall']);
  assert.deepEqual(installScripts({ scripts: { install: 'node-gyp rebuild' } }, true), ['install']);
  assert.deepEqual(installScripts({}, true), ['install (node-gyp rebuild)']);
  assert.deepEqual(installScripts({ gypfile: false }, true), []);
  assert.deepEqual(installScripts({ scripts: { build: 'tsc' } }, false), []);
});

test('every installed dependency with an install script has an allowScripts entry, and every entry names one', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
  const allowed = pkg.allowScripts ?? {};
  for (const [key, value] of Object.entries(allowed)) assert.equal(typeof value, 'boolean', `allowScripts["${key}"] must be true or false`);
  const names = new Set(Object.keys(allowed).map(nameOf));
  const found = packagesWithInstallScripts(join(ROOT, 'node_modules'));
  assert.ok(found.size > 0, 'node_modules holds no package with an install script: is it installed?');
  const uncovered = [...found].filter(([id]) => !names.has(nameOf(id))).map(([id, scripts]) => `${id} (${scripts.join(', ')})`);
  assert.deepEqual(uncovered, [], 'decide in package.json allowScripts whether npm may run these');
  const installedNames = new Set([...found.keys()].map(nameOf));
  const stale = [...names].filter((name) => !installedNames.has(name));
  assert.deepEqual(stale, [], 'allowScripts names packages that are not installed or have no install script any more');
});
