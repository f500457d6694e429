import { Errors, Flags } from '@oclif/core';
import { parseDurationFlag } from '../util/duration.js';

/**
 * A Go duration flag (`1h2m3.5s`, `500ms`, `0`), as kwokctl's duration flags, parsed to
 * milliseconds. `shownDefault` is what --help shows as the default when the flag is absent
 * (the flag's value is then undefined, so a command can tell "not given" from "0").
 */
export function durationFlag(options: { description: string; shownDefault?: string; hidden?: boolean }) {
  return Flags.custom<number>({
    description: options.description,
    helpValue: 'DURATION',
    ...(options.hidden ? { hidden: true } : {}),
    ...(options.shownDefault ? { defaultHelp: async () => options.shownDefault } : {}),
    parse: async (input: string) => {
      const ms = parseDurationFlag(input);
      if (ms === undefined || ms < 0) throw new Errors.CLIError(`invalid duration ${JSON.stringify(input)}: use a Go duration such as 30s, 2m or 1h30m`);
      return ms;
    },
  })();
}

// Kept importable from here; it lives in wait-plan.ts so that code without oclif can use it.
export { waitPlan } from './wait-plan.js';
