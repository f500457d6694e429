/**
 * The oclif path's code, as bin/run.cjs loads it: the bundle (dist/cli/main.cjs, scripts/bundle.mjs)
 * from its code cache (../util/code-cache.ts), kept per command; a tsc-only build has no bundle and
 * runs dist/src/cli/main.js, which lets oclif load each command from its path. The build makes
 * this module a CommonJS file of its own (dist/cli/load.cjs), so the paths come from the package
 * root bin/run.cjs gives, not from where this module is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { codeCacheKey, runCachedBundle } from '../util/code-cache.js';

export { resumeExtraCaCerts } from '../util/extra-ca-certs.js';

export interface CliEntry {
  main(argv: readonly string[], binUrl: string): Promise<void>;
}

/** The CLI for `argv`, from the package at `root`. */
export async function loadCli(argv: readonly string[], root: string): Promise<CliEntry> {
  const bundle = join(root, 'dist', 'cli', 'main.cjs');
  if (!existsSync(bundle)) return (await import(pathToFileURL(join(root, 'dist', 'src', 'cli', 'main.js')).href)) as CliEntry;
  const ids = JSON.parse(readFileSync(join(root, 'dist', 'cli', 'command-ids.json'), 'utf8')) as string[];
  return runCachedBundle(bundle, codeCacheKey(argv, ids)).exports as unknown as CliEntry;
}
