import { parseAllDocuments, stringify, type DocumentOptions, type ParseOptions, type SchemaOptions } from 'yaml';
import { loadAllYaml11 } from './yaml11-schema.js';

/**
 * YAML the way sigs.k8s.io/yaml reads it (YAML 1.1: `yes`/`on` are booleans, 0755 is octal),
 * except timestamps, which Kubernetes keeps as strings.
 */
export const GO_YAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.1',
  // A repeated key replaces the earlier value, as in go-yaml v2 outside strict mode.
  uniqueKeys: false,
  customTags: (tags) => tags.filter((t) => typeof t === 'object' && 'tag' in t && t.tag !== 'tag:yaml.org,2002:timestamp'),
};

export interface YamlDocumentError {
  message: string;
  line?: number;
}

/**
 * Parse a multi-document stream; empty documents are dropped. Throws on the first syntax error.
 * js-yaml with go-yaml v2's scalar rules reads first: on what both accept its answers are the
 * `yaml` package's (test/unit/gocompat/yaml), and cold, at a process's start (a kubeconfig, a
 * config file), it costs a fraction. What it refuses, the `yaml` package decides, with its messages.
 */
export function parseYamlDocuments(text: string): unknown[] {
  let documents: unknown[];
  try {
    documents = loadAllYaml11(text);
  } catch {
    return parseYamlDocumentsStrictly(text);
  }
  return documents.filter((value) => value !== null && value !== undefined);
}

/** The `yaml` package's reading of a stream (what parseYamlDocuments falls back to). */
export function parseYamlDocumentsStrictly(text: string): unknown[] {
  const docs = parseAllDocuments(text, GO_YAML_OPTIONS);
  const out: unknown[] = [];
  for (const doc of docs) {
    if (!('errors' in doc)) continue;
    const first = doc.errors[0];
    if (first) {
      const line = first.linePos?.[0]?.line;
      throw new Error(line ? `line ${line}: ${first.message.split('\n')[0]}` : first.message.split('\n')[0]);
    }
    const value: unknown = doc.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

/**
 * Written as YAML 1.1 too, so that every string a 1.1 reader (ours above, Go's, the kwok
 * controller's) would take for something else is quoted: "yes"/"on" (booleans), "1:20"
 * (a base-60 number), "2024-01-01"; written as 1.2 they came back as other values.
 */
export function renderYamlDocuments(docs: readonly unknown[]): string {
  return docs.map((d) => stringify(d, { lineWidth: 0, version: '1.1' })).join('---\n');
}
