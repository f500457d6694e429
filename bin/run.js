#!/usr/bin/env node
import module from 'node:module';

// Node >= 22.1 keeps compiled code on disk between runs; older Node has no such function.
module.enableCompileCache?.();

const argv = process.argv.slice(2);
// The hot commands (--version, get clusters, kubectl/etcdctl/kectl) run from a bundle without
// oclif; everything else, and anything unusual about those, goes through oclif below.
const { runFast, exitWhenFlushed } = await import('../dist/fast/fast-path.js');
const code = await runFast(argv);
if (code !== undefined) {
  await exitWhenFlushed(code);
} else {
  const { main } = await import('../dist/src/cli/main.js');
  await main(argv, import.meta.url);
}
