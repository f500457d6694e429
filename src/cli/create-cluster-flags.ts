import { validateClusterName } from '../naming/naming.js';
import { parseDurationFlag } from '../util/duration.js';
import { parseLogLevel } from '../util/log.js';
import type { CreateClusterFlags } from './create-cluster.js';
import { optionFlagShapes } from './option-values.js';
import { CREATE_CLUSTER_OWN_FLAGS, GLOBAL_FLAGS } from './command-flags.js';
import { flagShapes, type FlagDecls } from './flag-decl.js';
import { normalizeFlags, type FlagShape } from './pflag.js';

// No oclif import here: this is how the fast create reads its flags without oclif.

/** What reading one of create's flags as oclif does takes: its shape, default, list delimiter and parser. */
export interface FastFlag extends FlagShape {
  delimiter?: ',';
  default?: string | boolean | readonly string[];
  /** A custom parser (durationFlag in duration-flag.ts): the value in milliseconds. */
  parse?: 'duration';
}

/**
 * `create cluster`'s flags, BaseCommand's included, from the declarations its oclif command is
 * defined from (command-flags.ts, and the option table for optionFlags).
 */
export const CREATE_CLUSTER_FLAGS: Readonly<Record<string, FastFlag>> = {
  ...fastFlags(GLOBAL_FLAGS),
  ...optionFlagShapes(),
  ...fastFlags(CREATE_CLUSTER_OWN_FLAGS),
};

/** A declaration's shape (flagShapes) with what reading a value needs: delimiter, default, parser. */
function fastFlags(decls: FlagDecls): Record<string, FastFlag> {
  const shapes = flagShapes(decls);
  const out: Record<string, FastFlag> = {};
  for (const [name, d] of Object.entries(decls)) {
    out[name] = { ...shapes[name]!, ...(d.delimiter ? { delimiter: d.delimiter } : {}), ...(d.default !== undefined ? { default: d.default } : {}), ...(d.parse ? { parse: d.parse } : {}) };
  }
  return out;
}

const HELP = new Set(['--help', '-h']);

/**
 * The flags of `create cluster` from the arguments after (and the global flags before) its words,
 * exactly as BaseCommand would get them from oclif (pflag's grammar first, src/cli/pflag.ts); or
 * undefined when oclif has to say something or we are not sure to read it as oclif does: help,
 * `--`, a positional argument, a flag pflag or oclif would reject, a value that starts with `-`
 * (oclif takes some of those for a missing value), a bad duration, log level or cluster name, and
 * --dry-run (rare, and left to the command). Unset flags without a default are left out (oclif
 * sets them to undefined).
 */
export function readCreateClusterFlags(tokens: readonly string[]): CreateClusterFlags | undefined {
  if (tokens.some((t) => t === '--' || HELP.has(t))) return undefined;
  let normalized: { argv: string[]; falseBooleans: string[] };
  try {
    normalized = normalizeFlags(tokens, CREATE_CLUSTER_FLAGS);
  } catch {
    return undefined;
  }
  const flags: Record<string, unknown> = {};
  const lists = new Map<string, string[]>();
  for (const token of normalized.argv) {
    const match = /^--([a-z0-9-]+)(?:=(.*))?$/s.exec(token);
    if (!match) return undefined;
    const [, key, value] = match as unknown as [string, string, string | undefined];
    if (value === undefined) {
      const negated = key.startsWith('no-') ? CREATE_CLUSTER_FLAGS[key.slice(3)] : undefined;
      if (negated?.type === 'boolean' && negated.allowNo) flags[key.slice(3)] = false;
      else if (CREATE_CLUSTER_FLAGS[key]?.type === 'boolean') flags[key] = true;
      else return undefined;
      continue;
    }
    const flag = CREATE_CLUSTER_FLAGS[key];
    if (flag?.type !== 'option' || value.startsWith('-')) return undefined;
    if (flag.multiple) lists.set(key, [...(lists.get(key) ?? []), ...(flag.delimiter ? splitList(value, flag.delimiter) : [value])]);
    else if (flag.parse === 'duration') {
      const ms = parseDurationFlag(value);
      if (ms === undefined || ms < 0) return undefined;
      flags[key] = ms;
    } else flags[key] = value;
  }
  for (const [key, values] of lists) flags[key] = values;
  for (const name of normalized.falseBooleans) flags[name] = false;
  for (const [name, flag] of Object.entries(CREATE_CLUSTER_FLAGS)) {
    if (!(name in flags) && flag.default !== undefined) flags[name] = Array.isArray(flag.default) ? [...(flag.default as string[])] : flag.default;
  }
  const read = flags as CreateClusterFlags;
  if (read['dry-run'] || parseLogLevel(read.v) === undefined) return undefined;
  try {
    validateClusterName(read.name);
  } catch {
    return undefined;
  }
  return read;
}

/** oclif's reading of a delimited list value: split on unescaped delimiters, trim, unescape, unquote. */
function splitList(value: string, delimiter: string): string[] {
  return value.split(new RegExp(`(?<!\\\\)${delimiter}`)).map((v) =>
    v
      .trim()
      .replaceAll(new RegExp(`\\\\${delimiter}`, 'g'), delimiter)
      .replace(/^"(.*)"$/, '$1')
      .replace(/^'(.*)'$/, '$1'),
  );
}
