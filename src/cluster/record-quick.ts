import { readFile } from 'node:fs/promises';
import { CORE_SCHEMA, load } from 'js-yaml';
import { clusterPaths } from '../naming/naming.js';
import { recordFromDocuments } from './record-docs.js';
import type { LoadedCluster } from './record.js';

/**
 * A cluster's record for a passthrough or a delete, read with js-yaml (much less CPU than the
 * yaml library on a cold start, where reading the record took most of a `kwokts kubectl` call),
 * and only its KwokctlConfiguration document: the Stages after it (kwokDocuments, left
 * empty here) are half the file and neither reads them. The passthrough reads the tool paths,
 * the etcd ports and the paths, delete the runtime and the components' names, programs and
 * ports: both parsers read those alike (a record quotes every string YAML 1.1 would read as
 * something else). Anything unusual (no record, no such document, YAML js-yaml refuses) goes to
 * record.ts's loadCluster, so its errors are the ones the user sees.
 */
export async function loadRecordQuickly(workdir: string, name: string): Promise<LoadedCluster> {
  const paths = clusterPaths(workdir, name);
  const slow = async (): Promise<LoadedCluster> => (await import('./record.js')).loadCluster(workdir, name);
  let head: unknown;
  try {
    const text = await readFile(paths.config, 'utf8');
    const document = text.split(/^---[ \t]*$/m).find((d) => /^kind: *KwokctlConfiguration *$/m.test(d));
    if (document === undefined) return slow();
    // CORE_SCHEMA: no timestamps or other YAML 1.1 types turned into objects.
    head = load(document, { schema: CORE_SCHEMA });
  } catch {
    return slow();
  }
  if (!head || typeof head !== 'object' || (head as { kind?: unknown }).kind !== 'KwokctlConfiguration') return slow();
  return { record: recordFromDocuments(name, [head as Record<string, unknown>], paths.config), paths };
}
