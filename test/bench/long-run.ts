/**
 * What a bench that runs for minutes (./soak.ts, ./capacity.ts) sets up around its tools: the
 * JSON written again whenever asked (its path announced the first time), SIGINT and SIGTERM
 * turned into an abort that ends the run with what it measured, and a directory for the
 * controllers' logs.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clock } from './lines.js';
import { writeResults, type BenchResults } from './results.js';

export interface LongRun {
  /** Writes the JSON as it is now. */
  save(): void;
  /** Aborts at SIGINT or SIGTERM. */
  signal: AbortSignal;
  logDir: string;
  /** The signal handlers removed. */
  close(): void;
}

export function startLongRun(results: BenchResults): LongRun {
  let announced = false;
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    process.stdout.write(`[${clock()}] ${signal}: ending the run\n`);
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    save() {
      writeResults(results, undefined, !announced);
      announced = true;
    },
    signal: stop.signal,
    logDir: mkdtempSync(join(tmpdir(), `kwokts-bench-${results.bench}-logs-`)),
    close() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
