// Bundles the fast path (src/cli/fast-path.ts: --version, get clusters, kubectl/etcdctl/kectl)
// into dist/fast/, so that bin/run.js starts those commands from one file instead of resolving
// and compiling hundreds of modules. The rarely needed parts (probing for `get clusters -o wide`,
// resolving a tool a record does not name) stay separate chunks, loaded only when used.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// js-yaml (the fast path's record reader) and yaml (listing with -o wide) are pure JS; yaml is
// spread over a hundred small files. Bundled, each loads as part of one file. The other
// dependencies stay imports.
const BUNDLED = new Set(['yaml', 'js-yaml']);
const external = [...Object.keys(pjson.dependencies), ...Object.keys(pjson.optionalDependencies ?? {})].filter((name) => !BUNDLED.has(name));

rmSync(new URL('../dist/fast/', import.meta.url), { recursive: true, force: true });
const result = await build({
  entryPoints: { 'fast-path': 'src/cli/fast-path.ts' },
  outdir: 'dist/fast',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Dependencies are installed with the package; bundling them would copy native and
  // dynamically required modules (dockerode's ssh2, node-pty) that do not bundle.
  external: [...external, ...external.map((name) => `${name}/*`)],
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
  // yaml's Node build is CommonJS and requires Node's built-ins; an ES module has no require.
  banner: { js: "import { createRequire as __kwoktsCreateRequire } from 'node:module'; const require = __kwoktsCreateRequire(import.meta.url);" },
  chunkNames: 'chunk-[hash]',
});
if (process.argv.includes('--analyze')) console.log(await (await import('esbuild')).analyzeMetafile(result.metafile));
