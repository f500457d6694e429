import { existsSync, readFileSync } from 'node:fs';
import { parseYamlDocuments } from '../config/yaml.js';
import { templatePath } from '../util/package-root.js';

/** kwokctl's default set: node-initialize, node-heartbeat-with-lease and the fast pod stages. */
export const DEFAULT_STAGE_FILES = ['node-fast.yaml', 'node-heartbeat-with-lease.yaml', 'pod-fast.yaml'];

export function defaultStageDocuments(): Array<Record<string, unknown>> {
  const docs: Array<Record<string, unknown>> = [];
  for (const file of DEFAULT_STAGE_FILES) {
    const path = templatePath('stages', file);
    if (!existsSync(path)) continue;
    docs.push(...(parseYamlDocuments(readFileSync(path, 'utf8')) as Array<Record<string, unknown>>));
  }
  return docs;
}
