import { Flags, type Interfaces } from '@oclif/core';
import { OPTION_SPECS, type ClusterOptionValues } from '../config/options.js';

type AnyFlag = Interfaces.Flag<string | number | boolean | undefined>;

/**
 * oclif flags for every option in the table that has a flag. Defaults are deliberately absent:
 * an unset flag must not override env or config files.
 */
export function optionFlags(): Record<string, AnyFlag> {
  const out: Record<string, AnyFlag> = {};
  for (const spec of OPTION_SPECS) {
    if (!spec.flag) continue;
    const description = spec.env ? `${spec.description} [env: ${spec.env}]` : spec.description;
    const flag =
      spec.type === 'boolean'
        ? Flags.boolean({ description, allowNo: true, hidden: spec.hidden })
        : spec.type === 'integer'
          ? Flags.integer({ description, hidden: spec.hidden })
          : Flags.string({ description, hidden: spec.hidden });
    out[spec.flag] = flag as AnyFlag;
  }
  return out;
}

/** Flag values that were actually given, keyed by option. */
export function givenOptionValues(flags: Record<string, unknown>): Partial<Record<keyof ClusterOptionValues, unknown>> {
  const out: Partial<Record<keyof ClusterOptionValues, unknown>> = {};
  for (const spec of OPTION_SPECS) {
    if (spec.flag && flags[spec.flag] !== undefined) out[spec.key] = flags[spec.flag];
  }
  return out;
}
