/**
 * A kwok configuration file (multi-document YAML) split by `kind`: Stages are validated and
 * normalised (parseStages), KwokConfiguration documents and everything else are returned as
 * plain objects for their own loaders.
 */
import { UsageError } from '../../util/errors.js';
import { parseK8sYamlDocuments } from '../../gocompat/yaml/index.js';
import { parseStages } from './parse-stages.js';
import type { Stage } from './stage-types.js';

export interface KwokDocuments {
  stages: Stage[];
  /** One per invalid Stage; the valid stages are still in `stages`. */
  stageErrors: UsageError[];
  kwokConfigurations: Record<string, unknown>[];
  others: Record<string, unknown>[];
}

function kindOf(doc: unknown): string | undefined {
  const kind = (doc as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' ? kind : undefined;
}

/** Throws UsageError when the text is not YAML or a document is not an object with a kind. */
export function loadKwokDocuments(text: string, source: string): KwokDocuments {
  let docs: unknown[];
  try {
    docs = parseK8sYamlDocuments(text);
  } catch (error) {
    throw new UsageError(`${source}: invalid YAML: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const stageDocs: unknown[] = [];
  const out: KwokDocuments = { stages: [], stageErrors: [], kwokConfigurations: [], others: [] };
  docs.forEach((doc, i) => {
    const kind = kindOf(doc);
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc) || kind === undefined) {
      throw new UsageError(`${source}: document ${i + 1} has no "kind"`, { hint: 'every document needs apiVersion and kind' });
    }
    if (kind === 'Stage') stageDocs.push(doc);
    else if (kind === 'KwokConfiguration') out.kwokConfigurations.push(doc as Record<string, unknown>);
    else out.others.push(doc as Record<string, unknown>);
  });
  const parsed = parseStages(stageDocs, source);
  out.stages = parsed.stages;
  out.stageErrors = parsed.errors;
  return out;
}
