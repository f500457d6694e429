#!/usr/bin/env node
import module from 'node:module';

// Node >= 22.1 keeps compiled code on disk between runs; older Node has no such function.
module.enableCompileCache?.();

const argv = process.argv.slice(2);
// The hot commands (--version, get clusters, kubectl/etcdctl/kectl, delete cluster, snapshot restore) run from a
// bundle without oclif; everything else, and anything unusual about those, goes through oclif
// below. The installed entry is bin/kwokts, which runs the plain passthroughs without Node.
const fast = process.env.NOFAST ? undefined : await import('/work/main/dist/fast/fast-path.js').catch((error) => {
  // A build without the bundle (tsc alone) still works, only slower.
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('fast-path.js')) return undefined;
  throw error;
});
const code = fast && (await fast.runFast(argv));
if (code !== undefined) {
  await fast.exitWhenFlushed(code);
} else {
  // bin/kwokts moved NODE_EXTRA_CA_CERTS aside so that Node starts without parsing it; take it
  // back. (The fast path takes it back itself, for the command it runs, and --version needs none.)
  if (process.env.KWOKTS_DEFERRED_NODE_EXTRA_CA_CERTS !== undefined) {
    await (await import('/work/main/dist/src/util/extra-ca-certs.js')).resumeExtraCaCerts();
  }
  // The oclif path: its bundle run from V8's code cache (src/cli/cli-bundle.ts), or the tsc output.
  const { main } = await (await import('/work/main/dist/src/cli/cli-bundle.js')).loadCli(argv);
  await main(argv, import.meta.url);
}
