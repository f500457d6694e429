import { Flags, type Interfaces } from '@oclif/core';
import { OPTION_SPECS, type OptionKey, type OptionSpec } from '../config/options.js';
import type { GivenOptions } from '../config/resolve.js';

type AnyFlag = Interfaces.Flag<string | boolean | string[] | undefined>;

/** pflag's type names, which kwokctl's --help shows. */
const HELP_VALUE: Record<OptionSpec['type'], string> = { string: 'string', uint: 'uint32', int: 'int', float: 'float', boolean: '', strings: 'strings' };

export function flagDescription(spec: OptionSpec): string {
  const parts = [spec.description];
  if (spec.env) parts.push(`[env: ${spec.env}]`);
  if (spec.deprecated) parts.push(`(deprecated: ${spec.deprecated})`);
  return parts.join(' ');
}

/**
 * oclif flags for every option in the table that has a flag. Defaults are deliberately absent:
 * an unset flag must not override env or config files. Numbers are taken as text and checked by
 * the resolver, so a bad value is one error naming the flag and the type kwokctl uses.
 */
export function optionFlags(): Record<string, AnyFlag> {
  const out: Record<string, AnyFlag> = {};
  for (const spec of OPTION_SPECS as readonly OptionSpec[]) {
    if (!spec.flag) continue;
    const common = { description: flagDescription(spec), hidden: spec.deprecated !== undefined };
    const flag =
      spec.type === 'boolean'
        ? Flags.boolean({ ...common, allowNo: true })
        : spec.type === 'strings'
          ? Flags.string({ ...common, multiple: true, delimiter: ',', helpValue: HELP_VALUE[spec.type] })
          : Flags.string({ ...common, helpValue: HELP_VALUE[spec.type] });
    out[spec.flag] = flag as AnyFlag;
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
