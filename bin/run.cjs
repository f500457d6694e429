#!/usr/bin/env node
'use strict';
// The Node entry (bin/kwokts runs it; docs/design/launcher.md). CommonJS, as are the files it
// requires for the hot commands and the oclif path (scripts/bundle.mjs): Node starts a CommonJS
// entry without setting up its ES module loader, which an ES module entry pays at every start.
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

// Node >= 22.1 keeps compiled code on disk between runs; older Node has no such function.
require('node:module').enableCompileCache?.();

const root = join(__dirname, '..');

/** The bundle's file, or (a build without bundles: tsc alone, which still works, only slower) the tsc output. */
function load(bundle, tscOutput) {
  const file = join(root, bundle);
  try {
    return require(file);
  } catch (error) {
    // Only the file itself missing: a module it requires that is missing is an error to show.
    if (error?.code !== 'MODULE_NOT_FOUND' || !String(error.message).startsWith(`Cannot find module '${file}'`)) throw error;
    return import(pathToFileURL(join(root, tscOutput)).href);
  }
}

async function run(argv) {
  // The hot commands (--version, get clusters, kubectl/etcdctl/kectl, delete cluster, snapshot restore, create
  // cluster) run without oclif; everything else, and anything unusual about those, goes through
  // oclif below. The installed entry is bin/kwokts, which runs the plain passthroughs without Node.
  const fast = await load('dist/fast/fast-path.cjs', 'dist/src/cli/fast-path.js');
  const code = await fast.runFast(argv);
  if (code !== undefined) {
    await fast.exitWhenFlushed(code);
    return;
  }
  const cli = await load('dist/cli/load.cjs', 'dist/src/cli/cli-bundle.js');
  // bin/kwokts moved NODE_EXTRA_CA_CERTS aside so that Node starts without parsing it; take it
  // back. (The fast path takes it back itself, for the command it runs, and --version needs none.)
  if (process.env.KWOKTS_DEFERRED_NODE_EXTRA_CA_CERTS !== undefined) await cli.resumeExtraCaCerts();
  const { main } = await cli.loadCli(argv, root);
  await main(argv, pathToFileURL(__filename).href);
}

void run(process.argv.slice(2));
