/**
 * `config view|tidy|reset`: the configuration kwokts would use, as one multi-document YAML, and
 * the default config file ($KWOK_WORKDIR/kwok.yaml) it can be saved to or removed from.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { resolveOptionValues, type LoadedConfig } from './load.js';
import { renderYamlDocuments } from '../gocompat/yaml/index.js';

export function defaultConfigFile(workdir: string): string {
  return join(workdir, 'kwok.yaml');
}

/** Defaults, then config files, then KWOK_* variables: what `create cluster` starts from before its flags. */
export function effectiveConfigYaml(config: LoadedConfig, env: NodeJS.ProcessEnv): string {
  const head = {
    kind: 'KwokctlConfiguration',
    apiVersion: 'config.kwok.x-k8s.io/v1alpha1',
    options: resolveOptionValues(config.fileOptions, env, {}),
    ...(config.components.length > 0 ? { components: config.components } : {}),
    ...(config.componentsPatches.length > 0 ? { componentsPatches: config.componentsPatches } : {}),
  };
  // Everything read is written back, so `config tidy` never drops a document the user had.
  return renderYamlDocuments([head, ...config.resources, ...config.kwokDocuments]);
}

export interface WrittenConfig {
  file: string;
  /** Where the file's previous content was kept (a tidy drops comments and layout); undefined if there was none or nothing changed. */
  backup: string | undefined;
  changed: boolean;
}

/**
 * Write atomically, so an interrupted tidy never leaves a half file where the config was. A
 * previous file with other content is first copied to `kwok.yaml.bak`: tidy rewrites a
 * hand-written file (its comments and layout are lost), and the user can get them back.
 */
export async function writeDefaultConfig(workdir: string, text: string): Promise<WrittenConfig> {
  const file = defaultConfigFile(workdir);
  await mkdir(dirname(file), { recursive: true });
  const previous = existsSync(file) ? await readFile(file, 'utf8') : undefined;
  if (previous === text) return { file, backup: undefined, changed: false };
  let backup: string | undefined;
  if (previous !== undefined) {
    backup = `${file}.bak`;
    await copyFile(file, backup);
  }
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, text, { mode: 0o600 });
  await rename(temp, file);
  return { file, backup, changed: true };
}

/** Returns whether there was a file to remove. */
export async function resetDefaultConfig(workdir: string): Promise<boolean> {
  const file = defaultConfigFile(workdir);
  const existed = existsSync(file);
  await rm(file, { force: true });
  return existed;
}
