#!/usr/bin/env node
// The embedded kwok controller as an executable of its own. The binary runtime (and kwokctl, when
// it starts a kwokts cluster) runs this file; kwokctl names pid and log files after the
// executable, so this name gives pids/kwok-controller.pid and logs/kwok-controller.log.
// It runs the esbuild bundle (scripts/bundle.mjs) when the build made one: its start-up takes
// less CPU, which the apiserver needs while a cluster comes up. A tsc-only build runs the tsc output.
import { existsSync } from 'node:fs';

// Started with NODE_EXTRA_CA_CERTS deferred (src/util/extra-ca-certs.ts): take it back first.
if (process.env.KWOKTS_DEFERRED_NODE_EXTRA_CA_CERTS !== undefined) {
  await (await import('../dist/src/util/extra-ca-certs.js')).resumeExtraCaCerts();
}

const bundle = new URL('../dist/kwok-controller/kwok-controller.js', import.meta.url);
await import(existsSync(bundle) ? bundle.href : '../dist/src/kwok/main.js');
