import type { FlagShape } from './pflag.js';

/**
 * The shapes of BaseCommand.baseFlags (name, -c/--config, --dry-run, -v), written out so that the
 * fast path can read kwokctl's global flags without loading oclif. A unit test keeps the two equal.
 */
export const GLOBAL_FLAG_SHAPES: Readonly<Record<string, FlagShape>> = {
  name: { type: 'option' },
  config: { type: 'option', char: 'c', multiple: true },
  'dry-run': { type: 'boolean' },
  v: { type: 'option', char: 'v' },
};
