import { OPTION_SPECS, type OptionKey, type OptionSpec } from '../config/options.js';
import type { GivenOptions } from '../config/resolve.js';
import type { FlagShape } from './pflag.js';

// No oclif import here: the fast create (src/cli/create-cluster-fast.ts) reads option flags without oclif.

/**
 * The shape of every option flag that optionFlags() (option-flags.ts) defines for oclif, from the
 * same table: booleans with a --no- form, lists split on commas, the rest one string each. No
 * defaults (an unset flag must not override env or config files).
 */
export function optionFlagShapes(): Record<string, FlagShape & { delimiter?: ',' }> {
  const out: Record<string, FlagShape & { delimiter?: ',' }> = {};
  for (const spec of OPTION_SPECS as readonly OptionSpec[]) {
    if (!spec.flag) continue;
    out[spec.flag] = spec.type === 'boolean' ? { type: 'boolean', allowNo: true } : spec.type === 'strings' ? { type: 'option', multiple: true, delimiter: ',' } : { type: 'option' };
  }
  return out;
}

/** Flag values that were actually given, keyed by option. */
export function givenOptionValues(flags: Record<string, unknown>): GivenOptions {
  const out: Record<string, unknown> = {};
  for (const spec of OPTION_SPECS as readonly OptionSpec[]) {
    if (spec.flag && flags[spec.flag] !== undefined) out[spec.key] = flags[spec.flag];
  }
  return out as GivenOptions;
}

/** The deprecated flags among those given, with kwokctl's advice (unsupported ones get that warning instead: one line each). */
export function deprecatedFlagWarnings(given: GivenOptions): string[] {
  return (OPTION_SPECS as readonly OptionSpec[])
    .filter((s) => s.deprecated && s.flag && s.honour !== 'unsupported' && given[s.key as OptionKey] !== undefined)
    .map((s) => `flag --${s.flag} has been deprecated, ${s.deprecated}`);
}
