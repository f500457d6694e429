/**
 * A js-yaml schema that resolves plain scalars the way go-yaml v2 does (which is what
 * sigs.k8s.io/yaml, and so kwok, reads templates with): YAML 1.1 booleans (yes/no/on/off/y/n),
 * ints in base 10/16/8/2 with underscores, 1.1 floats, `~` null, merge keys, and timestamps left
 * as strings (sigs.k8s.io/yaml round-trips through JSON).
 *
 * Why a second YAML parser: rendering a stage template is fast, but reading its output with the
 * `yaml` package cost far more than the render itself and dominated the controller's CPU at
 * thousands of pods. js-yaml is much faster on that output; this schema keeps its answers
 * identical to the `yaml`-based reader on everything go-yaml agrees with (see the differential
 * unit test).
 */
import jsyaml from 'js-yaml';

const { Type, FAILSAFE_SCHEMA } = jsyaml;

const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);
const TRUES = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
const FALSES = new Set(['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);

const WORDS = [...NULLS, ...TRUES, ...FALSES];
const LONGEST_WORD = Math.max(...WORDS.map((w) => w.length));
/** First characters of the null and boolean words, by char code. */
const WORD_INITIALS = new Uint8Array(128);
for (const w of WORDS) if (w !== '') WORD_INITIALS[w.charCodeAt(0)] = 1;

const SPECIAL_FLOATS: ReadonlyMap<string, number> = new Map([
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map((s): [string, number] => [s, Infinity]),
  ...['-.inf', '-.Inf', '-.INF'].map((s): [string, number] => [s, -Infinity]),
  ...['.nan', '.NaN', '.NAN'].map((s): [string, number] => [s, NaN]),
]);

const nullType = new Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (data: string | null) => data === null || NULLS.has(data),
  construct: () => null,
  predicate: (value: unknown) => value === null,
  represent: { canonical: () => '~' },
  defaultStyle: 'canonical',
});

const boolType = new Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (data: string | null) => data !== null && (TRUES.has(data) || FALSES.has(data)),
  construct: (data: string) => TRUES.has(data),
  predicate: (value: unknown) => typeof value === 'boolean',
  represent: { lowercase: (value: object) => (value ? 'true' : 'false') },
  defaultStyle: 'lowercase',
});

/**
 * go-yaml v2's number resolution for a plain scalar: only scalars starting with a digit, a sign
 * or a dot are candidates; underscores are dropped; then strconv.ParseInt(s, 0, 64) (0x, 0o, 0b,
 * leading-0 octal), else a float if it looks like one (so "08" is the float 8), else "0b"
 * binary. Returns undefined for "not a number" (the scalar stays a string).
 */
export function resolveNumber(text: string): number | undefined {
  const first = text[0];
  if (first === undefined) return undefined;
  if (first === '.') {
    const special = SPECIAL_FLOATS.get(text);
    if (special !== undefined) return special;
    return /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/.test(text) ? Number(text) : undefined;
  }
  if (!(first === '-' || first === '+' || (first >= '0' && first <= '9'))) return undefined;
  const special = SPECIAL_FLOATS.get(text);
  if (special !== undefined) return special;
  const plain = text.replace(/_/g, '');
  const int = goParseIntBase0(plain);
  if (int !== undefined) return int;
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(plain)) return Number(plain);
  return undefined;
}

function goParseIntBase0(s: string): number | undefined {
  const m = /^([-+]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return undefined;
  const sign = m[1] === '-' ? -1 : 1;
  const body = m[2]!;
  let value: number;
  if (/^0[xX]/.test(body)) value = parseInt(body.slice(2), 16);
  else if (/^0[bB]/.test(body)) value = parseInt(body.slice(2), 2);
  else if (/^0[oO]/.test(body)) value = parseInt(body.slice(2), 8);
  else if (body.length > 1 && body.startsWith('0')) value = parseInt(body.slice(1), 8);
  else value = parseInt(body, 10);
  return sign * value;
}

/**
 * The value of a plain (unquoted) scalar under this schema: null, a boolean, a number, or the
 * text itself, tried in the schema's order (see YAML11_SCHEMA). Quoted scalars are always text.
 */
export function resolvePlainScalar(text: string): unknown {
  // The fast reader's hot path. Most keys and values start with a letter, and then only the null
  // and boolean words can make them something else: skip the lookups unless the text could be one.
  const c = text.charCodeAt(0);
  if (((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a && (text.length > LONGEST_WORD || WORD_INITIALS[c] !== 1)) || c >= 0x80) return text;
  if (NULLS.has(text)) return null;
  if (TRUES.has(text)) return true;
  if (FALSES.has(text)) return false;
  return resolveNumber(text) ?? text;
}

const numberType = (tag: string, isKind: (n: number) => boolean): InstanceType<typeof Type> =>
  new Type(tag, {
    kind: 'scalar',
    resolve: (data: string | null) => {
      if (data === null) return false;
      const n = resolveNumber(data);
      return n !== undefined && isKind(n);
    },
    construct: (data: string) => resolveNumber(data),
    predicate: (value: unknown) => typeof value === 'number' && isKind(value),
    represent: { decimal: (value: object) => String(value) },
    defaultStyle: 'decimal',
  });

// Which tag a number gets does not matter for JSON; both are tried so every number resolves.
const intType = numberType('tag:yaml.org,2002:int', (n) => Number.isInteger(n));
const floatType = numberType('tag:yaml.org,2002:float', (n) => !Number.isInteger(n));

const mergeType = new Type('tag:yaml.org,2002:merge', {
  kind: 'scalar',
  resolve: (data: string | null) => data === '<<' || data === null,
});

/** go-yaml v2's view of plain scalars; quoted scalars stay strings as in every YAML reader. */
export const YAML11_SCHEMA = FAILSAFE_SCHEMA.extend({ implicit: [nullType, boolType, intType, floatType, mergeType] });

/**
 * go-yaml v2 outside strict mode (sigs.k8s.io/yaml's Unmarshal, which kwokctl and kwok read
 * configs, stages and rendered templates with) lets a repeated mapping key replace the earlier
 * value; js-yaml's `json` option does the same (it is the only thing that option changes).
 * kwok's own shell e2e suite appends its config file to one that lacks a trailing `---`, which
 * gives such a document.
 */
const LOAD_OPTIONS = { schema: YAML11_SCHEMA, json: true };

/** One document with go-yaml v2 scalar rules; throws js-yaml's YAMLException on bad syntax. */
export function loadYaml11(text: string): unknown {
  return jsyaml.load(text, LOAD_OPTIONS);
}

/** Every document of a stream (empty ones as null or undefined), with the same rules as loadYaml11. */
export function loadAllYaml11(text: string): unknown[] {
  return jsyaml.loadAll(text, null, LOAD_OPTIONS);
}
