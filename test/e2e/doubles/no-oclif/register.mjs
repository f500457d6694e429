// `node --import` this file to make loading oclif (or the bundle with it, dist/cli) fail: a command that succeeds under it ran on
// the CLI's fast path (src/cli/fast-path.ts), without oclif. See kwokts(..., { withoutOclif }) in
// test/e2e/harness.ts.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
