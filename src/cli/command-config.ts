import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { emptyConfig, type LoadedConfig } from '../config/loaded-config.js';
import type { Logger } from '../util/log.js';

/**
 * A command's configuration: $KWOK_WORKDIR/kwok.yaml first when it exists, then every -c file, as
 * kwokctl does. Shared by BaseCommand and the fast create.
 */
export async function loadCommandConfig(workdir: string, configFlag: readonly string[], logger: Logger): Promise<LoadedConfig> {
  const defaultFile = join(workdir, 'kwok.yaml');
  const files = [...(existsSync(defaultFile) ? [defaultFile] : []), ...configFlag];
  // No file, nothing to parse (loadConfigFiles would return this very value).
  if (files.length === 0) return emptyConfig();
  // Loaded on demand: the config loader pulls in the YAML parser, which --help, --version and a
  // command run without a config file never need.
  const { loadConfigFiles } = await import('../config/load.js');
  return loadConfigFiles(files, logger);
}
