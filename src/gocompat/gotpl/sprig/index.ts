/**
 * sprig v3.3.0's TxtFuncMap, as kwok registers it (sprig.TxtFuncMap()). Note that sprig's
 * "slice" (lists only) replaces Go's builtin slice, exactly as in kwok.
 */
import type { FuncMap } from '../signature.js';
import { sprigCollections } from './collections.js';
import { sprigDates } from './dates.js';
import { sprigMath } from './math.js';
import { sprigMisc } from './misc.js';
import { sprigStrings } from './strings.js';

export interface SprigOptions {
  /** Clock for now/date/ago (default: the system clock). */
  now?: () => Date;
  /** Environment for env/expandenv (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

export function sprigFuncs(options: SprigOptions = {}): FuncMap {
  return {
    ...sprigDates({ now: options.now }),
    ...sprigStrings(),
    ...sprigMath(),
    ...sprigCollections(),
    ...sprigMisc({ env: options.env }),
  };
}
