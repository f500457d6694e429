import { Flags, type Interfaces } from '@oclif/core';
import { durationFlag } from './duration-flag.js';
import type { FlagDecl, FlagDecls } from './flag-decl.js';

/** The oclif flag a declaration makes, typed as the command reads it. */
type OclifFlag<D> = D extends { type: 'boolean' }
  ? Interfaces.BooleanFlag<boolean>
  : D extends { parse: 'duration' }
    ? Interfaces.OptionFlag<number | undefined>
    : D extends { multiple: true }
      ? Interfaces.OptionFlag<string[]>
      : D extends { default: string } | { required: true }
        ? Interfaces.OptionFlag<string>
        : Interfaces.OptionFlag<string | undefined>;

export type OclifFlags<T> = { -readonly [K in keyof T]: OclifFlag<T[K]> };

type AnyFlag = Interfaces.Flag<unknown>;

/** oclif flags from declarations (flag-decl.ts): the one way a declared flag reaches oclif. */
export function toOclifFlags<const T extends FlagDecls>(decls: T): OclifFlags<T> {
  const out: Record<string, AnyFlag> = {};
  for (const [name, decl] of Object.entries(decls)) out[name] = toOclifFlag(decl);
  return out as OclifFlags<T>;
}

function toOclifFlag(d: FlagDecl): AnyFlag {
  if (d.parse === 'duration') return durationFlag({ description: d.description, ...(d.defaultHelp ? { shownDefault: d.defaultHelp } : {}), ...(d.hidden ? { hidden: true } : {}) }) as AnyFlag;
  const common = {
    description: d.description,
    ...(d.char ? { char: d.char as Interfaces.AlphabetLowercase } : {}),
    ...(d.hidden ? { hidden: true } : {}),
    ...(d.helpGroup ? { helpGroup: d.helpGroup } : {}),
    ...(d.defaultHelp !== undefined ? { defaultHelp: async () => d.defaultHelp } : {}),
  };
  if (d.type === 'boolean') return Flags.boolean({ ...common, ...(d.allowNo ? { allowNo: true } : {}), ...(typeof d.default === 'boolean' ? { default: d.default } : {}) }) as AnyFlag;
  const options = d.options ? { options: [...d.options] } : {};
  const required = d.required ? { required: true as const } : {};
  if (d.multiple) {
    const defaults = Array.isArray(d.default) ? { default: [...(d.default as readonly string[])] } : {};
    return Flags.string({ ...common, ...options, ...required, multiple: true, ...(d.delimiter ? { delimiter: d.delimiter } : {}), ...defaults }) as AnyFlag;
  }
  return Flags.string({ ...common, ...options, ...required, ...(typeof d.default === 'string' ? { default: d.default } : {}) }) as AnyFlag;
}
