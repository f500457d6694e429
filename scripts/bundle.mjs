// Bundles the fast path (src/cli/fast-path.ts: --version, get clusters, kubectl/etcdctl/kectl,
// delete cluster, snapshot restore, create cluster) into dist/fast/, so that bin/run.cjs starts those commands without resolving, reading and
// compiling hundreds of modules (oclif alone is several hundred): fast-path.cjs (a small file, all
// that --version reads) and, for a command that needs more, a file of its own. bin/run.cjs is
// CommonJS, and so are the files it requires for the hot commands (fast-path.cjs, the LEAN_ENTRIES
// below, dist/cli/load.cjs): Node starts a CommonJS entry without setting up its ES module loader,
// and a required file is read and compiled at once, where the ES module loader resolves, reads and
// links each file in turns. `create cluster` and `snapshot restore` stay ES modules split into
// shared chunks (a create loads a good part of kwokts, which chunks let it load as it needs). The
// rare cases (probing for `get clusters -o wide`, resolving a tool a record does not name,
// reporting a broken record) import the tsc-built modules under dist/src instead, so the files
// stay small.
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const pjson = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
// js-yaml (the fast path's record reader) is pure JS and small: bundled. So are yaml and
// proper-lockfile (with graceful-fs, retry and signal-exit), which `delete cluster` needs for the
// kubeconfig edit: from node_modules, Node resolves and wraps some eighty CommonJS files of them
// (about three times the time of one bundled chunk). `create cluster` also needs zod (the config
// schemas: ~95 files from node_modules), p-limit and, on a terminal, listr2 (its progress display,
// a chunk of its own): every CPU-millisecond create spends starting up is one the components it
// starts at the same time do not get. The other dependencies stay imports from node_modules
// (installed with the package).
const BUNDLED = new Set(['js-yaml', 'yaml', 'proper-lockfile', 'zod', 'p-limit', 'listr2']);
const external = [...Object.keys(pjson.dependencies), ...Object.keys(pjson.optionalDependencies ?? {})].filter((name) => !BUNDLED.has(name));
/** The oclif path's bundle (dist/cli) has oclif in it besides: it is what every command there loads first. */
const cliExternal = external.filter((name) => name !== '@oclif/core');
/** Dynamic imports left to the tsc output: rarely needed, and they pull in much more (snapshot.ts: a k8s restore, never on the fast path). */
const RARE = new Set(['src/cluster/summary.ts', 'src/cluster/programs.ts', 'src/cluster/record.ts', 'src/snapshot/snapshot.ts']);

const rareToTscOutput = {
  name: 'rare-to-tsc-output',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const source = relative(root, resolve(args.resolveDir, args.path)).replace(/\.js$/, '.ts');
      if (!RARE.has(source)) return undefined;
      return { path: `../${source.replace(/\.ts$/, '.js')}`, external: true };
    });
  },
};

// zod re-exports every locale it has as `z.locales` (a sixth of the bundle, ~360 kB, compiled at each
// start); the controller never touches them and zod's own default is English, so only `en` stays.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir) ? { path: resolve(args.resolveDir, '../locales/en.js'), namespace: 'zod-locales' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({ contents: `export { default as en } from ${JSON.stringify(args.path)};`, resolveDir: root }));
  },
};
// The hot commands get a CommonJS file each, with nothing split out: Node's ES module loader
// resolves, reads, compiles and links every file apart (an async read each), and for `delete
// cluster` thirty chunks cost a sizeable part of its time (`npm run bench -- startup`). In a lean
// entry a dynamic import stays in the file when `keep` names its module (what the command runs in
// the common case); one of the shared build's entries (SHARED_ENTRIES) is imported from there;
// anything else from the tsc output.
const LEAN_ENTRIES = {
  'fast-delete': {
    source: 'src/cli/fast-delete.ts',
    keep: ['src/cluster/record-quick.ts', 'src/kube/user-kubeconfig.ts', 'src/kube/kubeconfig/remove-context.ts', 'runtimes/binary/binary-runtime.ts'],
  },
  'fast-get-clusters': { source: 'src/cli/fast-get-clusters.ts', keep: ['src/cluster/list-clusters.ts'] },
  // Run when bin/kwokts cannot exec the tool itself (no facts yet, or a record newer than them).
  'fast-passthrough': {
    source: 'src/cli/fast-passthrough.ts',
    keep: ['src/cluster/passthrough.ts', 'src/cluster/passthrough-facts.ts', 'src/cluster/record-quick.ts', 'src/cluster/kectl.ts'],
  },
};
/**
 * The shared build's entries, ES modules split into chunks: the larger fast commands, and the
 * other runtimes, which a lean entry imports for a delete of a container or kind cluster.
 */
const SHARED_ENTRIES = { 'create-cluster-fast': 'src/cli/create-cluster-fast.ts', 'fast-restore': 'src/cli/fast-restore.ts', 'runtime-registry': 'runtimes/registry.ts' };
const sourceOf = (args) => relative(root, resolve(args.resolveDir, args.path)).replace(/\.js$/, '.ts');
const leanSources = new Map(Object.entries(LEAN_ENTRIES).map(([name, entry]) => [entry.source, name]));
const sharedSources = new Map(Object.entries(SHARED_ENTRIES).map(([name, source]) => [source, name]));

/** What a file run from V8's code cache (src/util/code-cache.ts) must be built with. */
const cachedBundleOptions = {
  // A script V8 takes from its code cache has lost Node's dynamic import() callback (Node 20), so
  // there is no import() in the file: esbuild makes each a require(), which loads an ES module too.
  supported: { 'dynamic-import': false },
  // ASCII, so that the loader reads it as latin1: decoding UTF-8 took longer than the rest of the read.
  charset: 'ascii',
};
/**
 * What charset leaves (comments esbuild keeps, a control character in a regular expression
 * literal) becomes a \u escape, which means the same there.
 */
const asciiOnly = (file) => writeFileSync(file, readFileSync(file, 'utf8').replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));

/** A CommonJS file has no import.meta: its own URL stands in (src/util/package-root.ts walks up from it). */
const commonJs = {
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  define: { 'import.meta.url': '__kwoktsBundleUrl' },
  banner: { js: "const __kwoktsBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
};

/**
 * Dynamic imports of a lean entry's module become a require() of its file; of a shared entry's,
 * an import() of that ES module.
 */
const entriesApart = {
  name: 'entries-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const lean = leanSources.get(sourceOf(args));
      if (lean !== undefined) return { path: lean, namespace: 'lean-require' };
      const shared = sharedSources.get(sourceOf(args));
      return shared === undefined ? undefined : { path: `./${shared}.js`, external: true };
    });
    // Run from V8's code cache (src/util/code-cache.ts), as the oclif path's bundle is: compiling a
    // lean entry anew was a good part of a delete's start.
    b.onLoad({ filter: /.*/, namespace: 'lean-require' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(resolve(root, 'src/util/code-cache.ts'))}).runCachedBundle(require('node:path').join(__dirname, ${JSON.stringify(`${args.path}.cjs`)}), ${JSON.stringify(args.path)}).exports;`,
      loader: 'js',
      resolveDir: root,
    }));
  },
};

/** In a lean entry's build: dynamic imports as LEAN_ENTRIES says. */
const leanImports = (keep) => ({
  name: 'lean-imports',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const source = sourceOf(args);
      if (keep.includes(source)) return undefined;
      const shared = sharedSources.get(source);
      return { path: shared === undefined ? `../${source.replace(/\.ts$/, '.js')}` : `./${shared}.js`, external: true };
    });
  },
});

rmSync(resolve(root, 'dist/fast'), { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: SHARED_ENTRIES,
  outdir: 'dist/fast',
  bundle: true,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: [...external, ...external.map((name) => `${name}/*`)],
  plugins: [entriesApart, rareToTscOutput, zodEnglishOnly],
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
  // The bundled CommonJS packages require Node's built-ins; an ES module has no `require` of its own.
  banner: { js: "import { createRequire as __kwoktsCreateRequire } from 'node:module'; const require = __kwoktsCreateRequire(import.meta.url);" },
});
if (process.argv.includes('--analyze')) console.log(await (await import('esbuild')).analyzeMetafile(result.metafile));
/** One CommonJS file of the fast path, dist/fast/<name>.cjs. */
const fastCommonJs = (name, source, plugins, options = {}) =>
  build({
    absWorkingDir: root,
    entryPoints: { [name]: source },
    outdir: 'dist/fast',
    bundle: true,
    ...commonJs,
    platform: 'node',
    target: 'node20',
    external: [...external, ...external.map((name) => `${name}/*`)],
    plugins,
    logLevel: 'warning',
    legalComments: 'none',
    ...options,
  });
await fastCommonJs('fast-path', 'src/cli/fast-path.ts', [entriesApart, rareToTscOutput]);
for (const [name, entry] of Object.entries(LEAN_ENTRIES)) {
  await fastCommonJs(name, entry.source, [leanImports(entry.keep), zodEnglishOnly], cachedBundleOptions);
  asciiOnly(resolve(root, `dist/fast/${name}.cjs`));
}

// Every other command: dist/cli/main.cjs, src/cli/main.ts with oclif, the help class and every
// command in one CommonJS file, which bin/run.cjs runs from V8's code cache (src/util/code-cache.ts,
// a cache per command): Node 20 keeps no compiled code for ES modules between runs, and compiling
// oclif, the config schemas and the YAML libraries anew was most of a command's start. Each command
// is a dynamic import, which esbuild makes a module initialised only when that command runs. The
// map from command id to module is written from `oclif.manifest.json` (which `oclif manifest`
// writes from the command classes just before), so a new command needs no entry anywhere; the ids
// also go to command-ids.json, from which the loader picks a command's cache.
const manifest = JSON.parse(readFileSync(resolve(root, 'oclif.manifest.json'), 'utf8'));
const commandModules = Object.entries(manifest.commands).map(([id, command]) => {
  const source = command.relativePath.join('/').replace(/^dist\//, '').replace(/\.js$/, '.ts');
  return `  ${JSON.stringify(id)}: () => import(${JSON.stringify(`./${source}`)}),`;
});
const cliEntry = {
  name: 'cli-entry',
  setup(b) {
    b.onResolve({ filter: /^kwokts-cli$/ }, () => ({ path: 'kwokts-cli', namespace: 'cli-entry' }));
    b.onLoad({ filter: /.*/, namespace: 'cli-entry' }, () => ({
      loader: 'ts',
      resolveDir: root,
      contents: [
        "import { main as run } from './src/cli/main.ts';",
        'const COMMANDS: Record<string, () => Promise<{ default: never }>> = {',
        ...commandModules,
        '};',
        'export function main(argv: readonly string[], binUrl: string): Promise<void> {',
        '  return run(argv, binUrl, (id) => COMMANDS[id]?.().then((module) => module.default));',
        '}',
      ].join('\n'),
    }));
  },
};
// oclif's index requires every part of oclif (and checks the Node version with semver) before it
// returns; the parts the commands use, from oclif's own subpath exports, are a third fewer modules
// to initialise at each start.
const oclifParts = {
  name: 'oclif-parts',
  setup(b) {
    b.onResolve({ filter: /^@oclif\/core$/ }, () => ({ path: '@oclif/core', namespace: 'oclif-parts' }));
    b.onLoad({ filter: /.*/, namespace: 'oclif-parts' }, () => ({
      resolveDir: root,
      contents: [
        "export * as Args from '@oclif/core/args';",
        "export { Command } from '@oclif/core/command';",
        "export { Config } from '@oclif/core/config';",
        "export * as Errors from '@oclif/core/errors';",
        "export * as Flags from '@oclif/core/flags';",
        "export { flush } from '@oclif/core/flush';",
        "export { CommandHelp, Help } from '@oclif/core/help';",
        "export * as Interfaces from '@oclif/core/interfaces';",
        "export * as ux from '@oclif/core/ux';",
      ].join('\n'),
    }));
  },
};
// oclif sorts the manifest's commands with localeCompare at every start, and the first
// localeCompare in a process builds ICU's collator, a cost `npm run bench -- startup` shows in
// every oclif command. Sorted by code unit instead, the ids must come out in the same order (help
// lists them so): the build fails if they do not, or if oclif's line changes.
const ids = Object.keys(manifest.commands);
if ([...ids].sort((a, b) => a.localeCompare(b)).join() !== [...ids].sort().join()) {
  throw new Error('the command ids sort differently by code unit than by localeCompare; see oclifOrdinalSort in scripts/bundle.mjs');
}
const oclifOrdinalSort = {
  name: 'oclif-ordinal-sort',
  setup(b) {
    b.onLoad({ filter: /[\\/]@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const from = '.sort((a, b) => a.id.localeCompare(b.id));';
      if (!text.includes(from)) throw new Error(`${args.path}: oclif's sort of the commands changed; update oclifOrdinalSort in scripts/bundle.mjs`);
      return { contents: text.replace(from, '.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));'), loader: 'js' };
    });
  },
};
rmSync(resolve(root, 'dist/cli'), { recursive: true, force: true });
// Bundled here besides: semver (oclif checks the Node version with it at every start).
const cliBundled = cliExternal.filter((name) => name !== 'semver');
await build({
  absWorkingDir: root,
  entryPoints: { main: 'kwokts-cli' },
  outdir: 'dist/cli',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // oclif reads a tsconfig.json with TypeScript only for a plugin under development; never here.
  external: [...cliBundled, ...cliBundled.map((name) => `${name}/*`), 'typescript'],
  plugins: [cliEntry, oclifParts, oclifOrdinalSort, zodEnglishOnly],
  // A CommonJS file has no import.meta: the bundle's own URL stands in (src/util/package-root.ts
  // walks up from it to the package, as from the module it replaces).
  define: { 'import.meta.url': '__kwoktsBundleUrl' },
  ...cachedBundleOptions,
  banner: { js: "const __kwoktsBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
  legalComments: 'none',
});
asciiOnly(resolve(root, 'dist/cli/main.cjs'));
writeFileSync(resolve(root, 'dist/cli/command-ids.json'), JSON.stringify(Object.keys(manifest.commands)) + '\n');
// What bin/run.cjs requires for the oclif path before the bundle: the loader that runs it from
// its code cache (src/cli/cli-bundle.ts), CommonJS for the reason the fast path's files are.
await build({
  absWorkingDir: root,
  entryPoints: { load: 'src/cli/cli-bundle.ts' },
  outdir: 'dist/cli',
  bundle: true,
  ...commonJs,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
});

// The kwok controller that `create cluster` starts on the host (bin/kwok-controller.js runs this
// file when it exists, else the tsc output dist/src/kwok/main.js). Start-up CPU here is CPU the
// apiserver does not get while the cluster comes up: from node_modules and dist/src, Node resolves,
// reads and compiles several hundred files; the bundle costs a fraction of that.
// Only the native, optional node-pty stays an import; execa (exec credential plugins, rare) is
// imported when needed, so it becomes a chunk of its own.
rmSync(resolve(root, 'dist/kwok-controller'), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { 'kwok-controller': 'src/kwok/main.ts' },
  outdir: 'dist/kwok-controller',
  bundle: true,
  splitting: true,
  chunkNames: 'chunk-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['@lydell/node-pty'],
  plugins: [zodEnglishOnly],
  logLevel: 'warning',
  legalComments: 'none',
  banner: { js: "import { createRequire as __kwoktsCreateRequire } from 'node:module'; const require = __kwoktsCreateRequire(import.meta.url);" },
});
