import { realpathSync } from 'node:fs';
import { findOnPath } from '../util/find-on-path.js';
import { basename, isAbsolute, join, relative } from 'node:path';
import { shellQuote } from '../exec/shell-quote.js';

// No oclif import here: the fast create prints the closing hint too.

/**
 * The variable bin/kwokts sets to its `$0` before it execs Node: the name or path the user typed.
 * Node alone cannot know it (it sees bin/run.cjs, resolved through every symlink).
 */
export const INVOKED_AS_ENV = 'KWOKTS_INVOKED_AS';

export interface InvocationFacts {
  /** bin/kwokts's `$0`, when the launcher ran Node. */
  invokedAs?: string | undefined;
  /** The script Node runs (process.argv[1]). */
  script?: string | undefined;
  /** Node's own options before the script (`--import tsx` for bin/dev.js). */
  execArgv: readonly string[];
  cwd: string;
  /** $PATH. */
  path: string;
  /** The real file behind a path, or undefined when there is none. */
  realpath?: (file: string) => string | undefined;
}

/**
 * How the user can run kwokts again from where they are, for hints that name a command: `kwokts`
 * when that is what they typed (found on PATH), the path they typed (`./bin/kwokts`) unless the
 * same program is on PATH under its name, and `node bin/run.cjs` when they ran Node themselves. A
 * hint that says `kwokts` where kwokts is not on PATH fails when pasted.
 */
export function invocationCommand(facts: InvocationFacts): string {
  const real = facts.realpath ?? realFile;
  const typed = facts.invokedAs;
  if (typed) {
    // A word without a slash is what the shell looked up on PATH.
    if (!typed.includes('/')) return shellQuote(typed);
    const name = basename(typed);
    const onPath = findOnPath(name, facts.path);
    const same = onPath !== undefined && real(onPath) !== undefined && real(onPath) === real(isAbsolute(typed) ? typed : join(facts.cwd, typed));
    return same ? shellQuote(name) : shellQuote(typed);
  }
  if (!facts.script) return 'kwokts';
  const rel = relative(facts.cwd, facts.script);
  const script = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : facts.script;
  return ['node', ...facts.execArgv, script].map(shellQuote).join(' ');
}

/**
 * This process's invocation (see invocationCommand). The launcher's variable is taken out of the
 * environment on first use, so that the programs kwokts starts (a kwokts among them) do not read
 * an invocation that is not theirs.
 */
export function currentInvocation(): string {
  if (cached === undefined) {
    const invokedAs = process.env[INVOKED_AS_ENV];
    delete process.env[INVOKED_AS_ENV];
    cached = invocationCommand({ invokedAs, script: process.argv[1], execArgv: process.execArgv, cwd: safeCwd(), path: process.env.PATH ?? '' });
  }
  return cached;
}
let cached: string | undefined;

/**
 * `text` with each command it names in backticks (`` `kwokts ...` ``, `` `sudo kwokts ...` ``)
 * written as the user ran kwokts (currentInvocation): hints and warnings are there to be pasted.
 * The messages themselves say `kwokts`, so that they read the same wherever they are made.
 */
export function namingInvocation(text: string, invocation: () => string = currentInvocation): string {
  if (!text.includes('kwokts')) return text;
  return text.replace(/(`(?:sudo )?)kwokts(?=[ `])/g, (_match, open: string) => open + invocation());
}

function safeCwd(): string {
  try {
    return process.cwd();
  } catch {
    // The working directory is gone: paths stay absolute.
    return '/';
  }
}

function realFile(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

