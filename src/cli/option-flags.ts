import { Flags, type Interfaces } from '@oclif/core';
import { OPTION_SPECS, type OptionKey, type OptionSpec } from '../config/options.js';

type AnyFlag = Interfaces.Flag<string | boolean | string[] | undefined>;

/** pflag's type names, which kwokctl's --help shows. */
const HELP_VALUE: Record<OptionSpec['type'], string> = { string: 'string', uint: 'uint32', int: 'int', float: 'float', boolean: '', strings: 'strings' };

/**
 * A flag's --help text: its description, then whether kwokts ignores it (set, it gets one warning
 * line at create; the help must not promise what create then refuses), its variable, and kwokctl's
 * deprecation.
 */
export function flagDescription(spec: OptionSpec): string {
  let text = spec.description;
  if (spec.honour === 'unsupported') text += `; ignored by kwokts${spec.note ? `: ${spec.note}` : ''}`;
  else if (spec.ignores) text += `; kwokts ignores ${spec.ignores}`;
  const parts = [text];
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

// Kept importable from here; they live in option-values.ts so that code without oclif can use them.
export { deprecatedFlagWarnings, givenOptionValues } from './option-values.js';
