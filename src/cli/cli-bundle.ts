/**
 * The oclif path's code, as bin/run.js loads it: the bundle (dist/cli/main.cjs, scripts/bundle.mjs)
 * from its code cache (../util/code-cache.ts), kept per command; a tsc-only build has no bundle and
 * runs ./main.js, which lets oclif load each command from its path.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { codeCacheKey, runCachedBundle } from '../util/code-cache.js';

export interface CliEntry {
  main(argv: readonly string[], binUrl: string): Promise<void>;
}

/** Where the build puts the bundle and the command ids it holds, from dist/src/cli/. */
const BUNDLE = new URL('../../cli/main.cjs', import.meta.url);
const COMMAND_IDS = new URL('../../cli/command-ids.json', import.meta.url);

export async function loadCli(argv: readonly string[]): Promise<CliEntry> {
  if (!existsSync(BUNDLE)) return import('./main.js');
  const ids = JSON.parse(readFileSync(COMMAND_IDS, 'utf8')) as string[];
  return runCachedBundle(fileURLToPath(BUNDLE), codeCacheKey(argv, ids)).exports as unknown as CliEntry;
}
