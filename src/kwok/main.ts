/**
 * Process entry of the kwok controller: `node dist/src/kwok/main.js [kwok flags]`. Runs until
 * SIGINT/SIGTERM (a clean stop exits 0; a second signal exits at once) and, being its own process,
 * prints its own errors in the CLI's `error: … / hint: …` form.
 */
import { KwoktsError, describeUnknown } from '../util/errors.js';
import { runKwokController } from './app/run-kwok-controller.js';

const abort = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (abort.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
    abort.abort();
  });
}

try {
  await runKwokController(process.argv.slice(2), { signal: abort.signal });
} catch (error) {
  const known = KwoktsError.is(error);
  process.stderr.write(`error: ${describeUnknown(error)}\n`);
  if (known && error.hint) process.stderr.write(`hint: ${error.hint}\n`);
  if (!known && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.exitCode = known ? error.exitCode : 70;
}
