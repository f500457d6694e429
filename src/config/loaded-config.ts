import type { UserComponentSpec, VolumeSpec } from './component-specs.js';
import type { OptionKey } from './options.js';
import type { GivenOptions } from './resolve.js';

// What config files gave a command (src/config/load.ts reads them). Apart from load.ts so that a
// command without config files needs neither the YAML parser nor the kwok schemas.

/** Extra arguments for a built-in component, as KwokctlConfiguration.componentsPatches. */
export interface ComponentPatch {
  name: string;
  extraArgs: Array<{ key: string; value: string | null; override?: boolean }>;
  extraEnvs: Array<{ name: string; value: string }>;
  extraVolumes: VolumeSpec[];
}

export interface LoadedConfig {
  /** Values set by config files only (not defaults), typed; a later file wins. */
  fileOptions: GivenOptions;
  /** The file that set each of fileOptions (for messages). */
  optionSources: Partial<Record<OptionKey, string>>;
  componentsPatches: ComponentPatch[];
  /** Extra components started with the built-in ones (KwokctlConfiguration.components). */
  components: UserComponentSpec[];
  /** Documents handed to the kwok controller as they are (KwokConfiguration, Stage, ...). */
  kwokDocuments: Array<Record<string, unknown>>;
  /** Every logsFile and previousLogsFile of the Logs and ClusterLogs documents and logsFile of the Attach and ClusterAttach ones (absolute paths). */
  logFiles: string[];
  /** KwokctlResource documents: user templates for `scale`, by metadata.name. */
  resources: Array<Record<string, unknown>>;
  /** Which files were read, in order. */
  sources: string[];
}

export function emptyConfig(): LoadedConfig {
  return { fileOptions: {}, optionSources: {}, componentsPatches: [], components: [], kwokDocuments: [], logFiles: [], resources: [], sources: [] };
}
