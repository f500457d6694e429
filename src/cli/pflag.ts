/**
 * kwokctl's command line grammar (Go's pflag, through cobra) on top of oclif's parser.
 *
 * pflag and oclif disagree on details scripts rely on: pflag takes `--bool=false` and
 * `--bool=0`, lets a repeated scalar flag take the last value (kwok's own e2e passes `--wait`
 * twice), takes the next token as a value even when it starts with `-` (`-v -4`), and reads
 * `-v4`/`-v=4`. oclif rejects or misreads all of these, and its list flags swallow the
 * positional arguments that follow them. So before oclif parses, the arguments are rewritten
 * into one unambiguous form that both read the same way: positional arguments first, then one
 * `--long=value` per value (the last one for scalars, each one for lists), booleans as
 * `--flag` / `--no-flag`, and `--` with what follows it untouched at the end. The flag types
 * come from each command's own oclif flag definitions, so no list of flags is kept here.
 */

/** What the rewrite needs to know of one oclif flag. */
export interface FlagShape {
  type: 'boolean' | 'option';
  char?: string;
  multiple?: boolean;
  allowNo?: boolean;
  aliases?: readonly string[];
  charAliases?: readonly string[];
  /** Left out of --help (kwokctl's deprecated spellings): accepted, never suggested. */
  hidden?: boolean;
}

export interface NormalizedFlags {
  /** The arguments for oclif. */
  argv: string[];
  /**
   * Booleans given as false that oclif cannot be told about (no `--no-` form): the caller sets
   * them after oclif has parsed.
   */
  falseBooleans: string[];
}

/** A problem with the arguments, in pflag's words; the caller turns it into a UsageError. */
export class FlagSyntaxError extends Error {
  constructor(
    message: string,
    readonly flag: string,
  ) {
    super(message);
    this.name = 'FlagSyntaxError';
  }
}

/** Go's strconv.ParseBool: the spellings pflag accepts for a boolean's value. */
export function parseGoBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}

interface Lookup {
  long: Map<string, string>;
  short: Map<string, string>;
}

function buildLookup(flags: Readonly<Record<string, FlagShape>>): Lookup {
  const long = new Map<string, string>();
  const short = new Map<string, string>();
  for (const [name, flag] of Object.entries(flags)) {
    long.set(name, name);
    for (const alias of flag.aliases ?? []) long.set(alias, name);
    if (flag.char) short.set(flag.char, name);
    for (const alias of flag.charAliases ?? []) short.set(alias, name);
  }
  return { long, short };
}

/**
 * Rewrite `argv` (the arguments after the command words) for oclif. Unknown flags are an error
 * unless `allowUnknown` (then they are kept as they are, in place among the positionals).
 */
export function normalizeFlags(argv: readonly string[], flags: Readonly<Record<string, FlagShape>>, options: { allowUnknown?: boolean } = {}): NormalizedFlags {
  const lookup = buildLookup(flags);
  const positionals: string[] = [];
  // Values in the order given: scalars keep only their last, lists all of them.
  const values = new Map<string, string[]>();
  const booleans = new Map<string, boolean>();
  let tail: string[] = [];

  const setValue = (name: string, value: string) => {
    const list = values.get(name) ?? [];
    values.set(name, flags[name]!.multiple ? [...list, value] : [value]);
  };
  const setBoolean = (name: string, shown: string, text: string | undefined) => {
    if (text === undefined) return booleans.set(name, true);
    const value = parseGoBool(text);
    if (value === undefined) throw new FlagSyntaxError(`invalid argument ${JSON.stringify(text)} for "${shown}" flag: not a boolean (true, false, 1, 0, t, f)`, shown);
    return booleans.set(name, value);
  };

  let i = 0;
  while (i < argv.length) {
    const token = argv[i]!;
    i += 1;
    if (token === '--') {
      tail = argv.slice(i - 1);
      break;
    }
    if (!token.startsWith('-') || token === '-') {
      positionals.push(token);
      continue;
    }
    if (token.startsWith('--')) {
      const eq = token.indexOf('=');
      const key = token.slice(2, eq < 0 ? undefined : eq);
      const inline = eq < 0 ? undefined : token.slice(eq + 1);
      let name = lookup.long.get(key);
      // oclif's --no-X for a boolean that allows it (kwokctl has no such form; ours keeps it).
      if (name === undefined && key.startsWith('no-')) {
        const negated = lookup.long.get(key.slice(3));
        if (negated !== undefined && flags[negated]!.type === 'boolean' && flags[negated]!.allowNo && inline === undefined) {
          booleans.set(negated, false);
          continue;
        }
      }
      if (name === undefined) {
        if (options.allowUnknown) {
          positionals.push(token);
          continue;
        }
        throw new FlagSyntaxError(`unknown flag: --${key}`, `--${key}`);
      }
      if (flags[name]!.type === 'boolean') {
        setBoolean(name, `--${key}`, inline);
      } else if (inline !== undefined) {
        setValue(name, inline);
      } else {
        // pflag takes the next token whatever it looks like (`--v -4`).
        if (i >= argv.length) throw new FlagSyntaxError(`flag needs an argument: --${key}`, `--${key}`);
        setValue(name, argv[i]!);
        i += 1;
      }
      continue;
    }
    // Shorthand: `-f`, `-abc` (booleans in a row), `-v4`, `-v=4`, `-v 4`, `-f=false`.
    let rest = token.slice(1);
    while (rest.length > 0) {
      const char = rest[0]!;
      const name = lookup.short.get(char);
      if (name === undefined) {
        if (options.allowUnknown) {
          positionals.push(token);
          break;
        }
        throw new FlagSyntaxError(`unknown shorthand flag: '${char}' in ${token}`, `-${char}`);
      }
      const after = rest.slice(1);
      if (flags[name]!.type === 'boolean') {
        if (after.startsWith('=')) {
          setBoolean(name, `-${char}`, after.slice(1));
          break;
        }
        booleans.set(name, true);
        rest = after;
        continue;
      }
      if (after.length > 0) {
        setValue(name, after.startsWith('=') ? after.slice(1) : after);
      } else {
        if (i >= argv.length) throw new FlagSyntaxError(`flag needs an argument: '${char}' in -${char}`, `-${char}`);
        setValue(name, argv[i]!);
        i += 1;
      }
      break;
    }
  }

  const out = [...positionals];
  const falseBooleans: string[] = [];
  for (const [name, list] of values) for (const value of list) out.push(`--${name}=${value}`);
  for (const [name, value] of booleans) {
    if (value) out.push(`--${name}`);
    else if (flags[name]!.allowNo) out.push(`--no-${name}`);
    else falseBooleans.push(name);
  }
  return { argv: [...out, ...tail], falseBooleans };
}

/**
 * How many tokens, starting at `argv[i]`, make up one of `flags` (1 or 2), or undefined when
 * `argv[i]` is not one of them. Used to find global flags before the command words.
 */
export function flagTokenCount(argv: readonly string[], i: number, flags: Readonly<Record<string, FlagShape>>): number | undefined {
  const token = argv[i];
  if (token === undefined || !token.startsWith('-') || token === '-' || token === '--') return undefined;
  const lookup = buildLookup(flags);
  if (token.startsWith('--')) {
    const eq = token.indexOf('=');
    const key = token.slice(2, eq < 0 ? undefined : eq);
    const name = lookup.long.get(key) ?? (key.startsWith('no-') && eq < 0 && flags[lookup.long.get(key.slice(3)) ?? '']?.allowNo ? key : undefined);
    if (name === undefined) return undefined;
    return flags[name]?.type === 'option' && eq < 0 ? 2 : 1;
  }
  let rest = token.slice(1);
  while (rest.length > 0) {
    const name = lookup.short.get(rest[0]!);
    if (name === undefined) return undefined;
    if (flags[name]!.type === 'option') return rest.length > 1 ? 1 : 2;
    if (rest[1] === '=') return 1;
    rest = rest.slice(1);
  }
  return 1;
}
