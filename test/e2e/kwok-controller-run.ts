/**
 * Controller process for e2e tests and the benchmark: like src/kwok/main.ts (so it runs from the
 * TypeScript sources), and with KWOK_E2E_NATIVE_STAGES=1 it plays the native TypeScript stand-in
 * stages from kwok-controller-stages.ts instead of the templates (to tell engine cost apart).
 */
import { runKwokController } from '../../src/kwok/index.js';
import { nativeCatalogFactory } from './kwok-controller-stages.js';

// KWOK_E2E_NATIVE_STAGES=1: play the TypeScript stand-in stages instead of the Stage documents.
const native = process.env['KWOK_E2E_NATIVE_STAGES'] === '1';
if (native) process.stderr.write('kwok-controller-run: using native stand-in stages\n');

const abort = new AbortController();
process.once('SIGTERM', () => abort.abort());
process.once('SIGINT', () => abort.abort());
try {
  await runKwokController(process.argv.slice(2), { signal: abort.signal, ...(native ? { catalogFactory: nativeCatalogFactory } : {}) });
} catch (error) {
  process.stderr.write(`error: ${(error as Error).message}\n`);
  process.exitCode = 1;
}
