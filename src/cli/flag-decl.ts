import type { FlagShape } from './pflag.js';

// No oclif import here: the fast path reads flags from these declarations without loading oclif;
// the oclif commands build their flags from the same ones (oclif-flags.ts).

/** One flag, declared once: what oclif needs to define it and what the fast path needs to read it. */
export interface FlagDecl {
  type: 'boolean' | 'option';
  description: string;
  char?: string;
  multiple?: boolean;
  /** Values of a list flag may also be given comma-separated. */
  delimiter?: ',';
  default?: string | boolean | readonly string[];
  /** What --help shows as the default when the value is worked out at run time. */
  defaultHelp?: string;
  options?: readonly string[];
  required?: boolean;
  allowNo?: boolean;
  hidden?: boolean;
  helpGroup?: string;
  /** A Go duration, read to milliseconds (undefined when not given). */
  parse?: 'duration';
}

export type FlagDecls = Readonly<Record<string, FlagDecl>>;

/** What pflag's rewrite needs of each flag (pflag.ts). */
export function flagShapes(decls: FlagDecls): Record<string, FlagShape> {
  const out: Record<string, FlagShape> = {};
  for (const [name, d] of Object.entries(decls)) {
    out[name] = { type: d.type, ...(d.char ? { char: d.char } : {}), ...(d.multiple ? { multiple: true } : {}), ...(d.allowNo ? { allowNo: true } : {}), ...(d.hidden ? { hidden: true } : {}) };
  }
  return out;
}
