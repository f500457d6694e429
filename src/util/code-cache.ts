/**
 * Runs a CommonJS bundle (scripts/bundle.mjs) from V8's code cache. Node 20 keeps no compiled code
 * between runs (module.enableCompileCache arrived in Node 22), so every start would parse and
 * compile the bundle's functions again; here the first run of a command writes what V8 compiled
 * to a file beside the bundle, and later runs of that command hand it back to V8.
 *
 * The cache is kept per command (`key`): the bundle holds every command, and a cache made by one
 * command lacks the functions another one runs. It lives in `.code-cache/` next to the bundle, as
 * Python keeps `__pycache__` next to its sources: nothing is written to a shared directory such as
 * /tmp, where another user could plant compiled code, and a package directory that cannot be
 * written (a system-wide install run by another user) only means no cache. V8 itself refuses a
 * cache from another V8 version, other flags or a source of another length (the file is then
 * written anew); the file name has Node's version besides, so that two Node versions on one
 * machine do not overwrite each other's. A rebuild removes the directory with the bundle.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';

export const CODE_CACHE_DIR = '.code-cache';

/** What a bundle's `module.exports` holds; the caller knows which functions it exports. */
export type BundleExports = Record<string, unknown>;

/** The bundle's exports, and whether V8 took the cache (`rejected`, `none`: one is written at exit). */
export interface CachedBundle {
  exports: BundleExports;
  cache: 'used' | 'rejected' | 'none';
}

/**
 * Runs `file` (an ASCII CommonJS bundle without import(): a script V8 takes from the cache has
 * lost Node's callback for it) with the code cache kept under `key`, and returns its exports. When
 * there was no usable cache, one is written when the process exits, so that it holds every
 * function the command ran, not only the top level.
 */
export function runCachedBundle(file: string, key: string): CachedBundle {
  // scripts/bundle.mjs writes ASCII, which latin1 reads as it is without decoding UTF-8 (the slower part of a read).
  const source = readFileSync(file, 'latin1');
  const cacheFile = join(dirname(file), CODE_CACHE_DIR, `${key}-${process.version}-${process.arch}.bin`);
  const cachedData = readIfPresent(cacheFile);
  // The wrapper is Node's own for a CommonJS module, on the bundle's first line so that line numbers in stack traces stay right.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    cachedData,
  });
  const cache = cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'used';
  if (cache !== 'used') process.once('exit', () => writeCache(cacheFile, script));
  const module = { exports: {} as BundleExports };
  const wrapper = script.runInThisContext() as (exports: BundleExports, require: NodeJS.Require, module: { exports: BundleExports }, filename: string, dirname: string) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return { exports: module.exports, cache };
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written beside and renamed into place: two commands finishing at once each leave a whole file. */
function writeCache(file: string, script: vm.Script): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const partial = `${file}.${process.pid}.part`;
    writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    // A directory that cannot be written: the command ran all the same, only without a cache next time.
  }
}

/**
 * The cache key of a command line: the command id it names (`create:cluster`; the words may be
 * anywhere among the flags), `.help` after it when help is asked for, and `main` for anything that
 * names no command. Only ids from `commandIds` become keys, so that no argument a user types
 * (a cluster name, a typo) names a cache file. A flag's value that happens to be a command word
 * only gives a cache of another command: slower, never wrong.
 */
export function codeCacheKey(argv: readonly string[], commandIds: readonly string[]): string {
  const ids = new Set(commandIds);
  const words: string[] = [];
  for (const token of argv) {
    if (token === '--') break;
    // `__complete`, the shells' completion command, is a word too.
    if (/^[a-z_][a-z0-9_-]*$/.test(token)) words.push(token);
  }
  let id = 'main';
  for (let i = 0; i < words.length && id === 'main'; i += 1) {
    if (ids.has(`${words[i]}:${words[i + 1]}`)) id = `${words[i]}:${words[i + 1]}`;
    else if (ids.has(words[i]!)) id = words[i]!;
  }
  const end = argv.indexOf('--');
  const help = (end === -1 ? argv : argv.slice(0, end)).some((t) => t === '--help' || t === '-h');
  return `${id.replaceAll(':', '-')}${help ? '.help' : ''}`;
}
