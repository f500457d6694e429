/**
 * `-c DIR`: kwokctl builds a config directory with kustomize (krusty) and loads the output. kwok's
 * own e2e passes directories whose kustomization lists `resources` (files and other such
 * directories). kwokts reads exactly that part of a kustomization: the resource files in order,
 * depth first. Any other kustomize field would change the documents, so it is refused by name
 * rather than dropped.
 */
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UsageError } from '../util/errors.js';
import { parseYamlDocuments } from '../gocompat/yaml/index.js';

/** kustomize's accepted file names, in its lookup order. */
const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];
const ALLOWED_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'resources']);

/** The YAML files a kustomization directory stands for, absolute, in kustomize's order. */
export async function readKustomization(dir: string, seen: Set<string> = new Set()): Promise<string[]> {
  const root = resolve(dir);
  if (seen.has(root)) throw new UsageError(`config directory ${dir}: its kustomization includes itself`, { hint: 'remove the cycle from resources' });
  seen.add(root);
  const name = KUSTOMIZATION_NAMES.find((n) => existsSync(join(root, n)));
  if (!name) {
    throw new UsageError(`config directory ${dir} has no kustomization.yaml`, {
      hint: 'kwokctl builds a config directory with kustomize: add a kustomization.yaml that lists the files under resources:',
    });
  }
  const file = join(root, name);
  let docs: unknown[];
  try {
    docs = parseYamlDocuments(await readFile(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`config file ${file}: invalid YAML: ${(error as Error).message}`);
  }
  const doc = (docs[0] ?? {}) as Record<string, unknown>;
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new UsageError(`config file ${file}: not a kustomization`);
  for (const field of Object.keys(doc)) {
    if (!ALLOWED_FIELDS.has(field)) {
      throw new UsageError(`config file ${file}: kustomization field ${field} is not supported by kwokts`, { hint: 'kwokts reads the resources: list of a kustomization; build it with `kustomize build` and pass the output with -c' });
    }
  }
  const resources = doc.resources ?? [];
  if (!Array.isArray(resources) || !resources.every((r) => typeof r === 'string')) throw new UsageError(`config file ${file}: resources must be a list of paths`);
  const out: string[] = [];
  for (const entry of resources as string[]) {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) || /^github\.com\//.test(entry)) {
      throw new UsageError(`config file ${file}: remote resource ${entry} is not supported by kwokts`, { hint: 'download it and list the local file' });
    }
    const path = resolve(root, entry);
    if (!existsSync(path)) throw new UsageError(`config file ${file}: resource ${entry} does not exist`);
    if (statSync(path).isDirectory()) out.push(...(await readKustomization(path, seen)));
    else out.push(path);
  }
  // `seen` holds the directories being read (a cycle), not every one read (a diamond is fine).
  seen.delete(root);
  return out;
}
