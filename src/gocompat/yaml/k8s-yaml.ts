/**
 * YAML the way sigs.k8s.io/yaml reads it (go-yaml v2 then JSON): YAML 1.1 scalars (yes/no/on/off
 * booleans, 0755 octal), merge keys, but timestamps stay strings because they go through JSON.
 * Used for Stage files and for the YAML that stage templates render.
 */
import { parseAllDocuments, type ParseOptions, type DocumentOptions, type SchemaOptions, type ToJSOptions } from 'yaml';
import { loadYaml11 } from './yaml11-schema.js';
import { NOT_SIMPLE, readSimpleYaml } from './simple-block-yaml.js';

type Options = ParseOptions & DocumentOptions & SchemaOptions & ToJSOptions;

const OPTIONS: Options = {
  version: '1.1',
  uniqueKeys: false,
  merge: true,
  customTags: (tags) => tags.filter((t) => typeof t === 'string' || t.tag !== 'tag:yaml.org,2002:timestamp'),
};

export class YamlSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'YamlSyntaxError';
  }
}

/**
 * One YAML document to plain JSON values; an empty document is null. This is the hot path (every
 * rendered stage template goes through it): the simple block reader answers what it is sure of
 * (what stage templates render), the js-yaml reader with go-yaml v2's scalar rules the rest, so
 * answers and errors are js-yaml's either way; multi-document config files below keep the `yaml`
 * package's richer errors.
 */
export function parseK8sYaml(text: string): unknown {
  const simple = readSimpleYaml(text);
  if (simple !== NOT_SIMPLE) return simple;
  try {
    return loadYaml11(text) ?? null;
  } catch (error) {
    throw new YamlSyntaxError(error instanceof Error ? error.message : String(error));
  }
}

/** Every non-empty document of a multi-document stream. */
export function parseK8sYamlDocuments(text: string): unknown[] {
  const out: unknown[] = [];
  for (const doc of parseAllDocuments(text, OPTIONS)) {
    const error = doc.errors[0];
    if (error) throw new YamlSyntaxError(error.message);
    const value: unknown = doc.toJS(OPTIONS);
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}
