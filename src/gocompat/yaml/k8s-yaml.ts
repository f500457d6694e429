/**
 * YAML the way sigs.k8s.io/yaml reads it (go-yaml v2 then JSON): YAML 1.1 scalars (yes/no/on/off
 * booleans, 0755 octal), merge keys, but timestamps stay strings because they go through JSON.
 * Used for Stage files and for the YAML that stage templates render.
 */
import { parseAllDocuments, type ParseOptions, type DocumentOptions, type SchemaOptions, type ToJSOptions } from 'yaml';
import { loadYaml11 } from './yaml11-schema.js';

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
 * rendered stage template goes through it), so it uses the js-yaml reader with go-yaml v2's
 * scalar rules; multi-document config files below keep the `yaml` package's richer errors.
 */
export function parseK8sYaml(text: string): unknown {
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
