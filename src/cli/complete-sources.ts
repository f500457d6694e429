import { existsSync, readdirSync } from 'node:fs';
import { listClusterNames, resolveWorkdir } from '../naming/naming.js';
import { silentLogger } from '../util/log.js';
import { templatePath } from '../util/package-root.js';
import type { CompletionSources } from './complete.js';
import { loadCommandConfig } from './command-config.js';

/**
 * Completion's view of this machine (see CompletionSources). Nothing here may fail a completion:
 * what cannot be read offers nothing, and the command itself reports it when run.
 */
export function machineSources(workdir: string = resolveWorkdir()): CompletionSources {
  return {
    clusters: async () => listClusterNames(workdir),
    components: async (cluster) => {
      try {
        const { loadRecordQuickly } = await import('../cluster/record-quick.js');
        return (await loadRecordQuickly(workdir, cluster)).record.components.map((c) => c.name);
      } catch {
        return [];
      }
    },
    resourceKinds: async (configFiles) => {
      // The built-in templates are named for their resource (templates/resources/node.yaml: node).
      const dir = templatePath('resources');
      const builtIn = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -'.yaml'.length)) : [];
      let user: string[] = [];
      try {
        // Stdin (`-c -`) is the user's to type into, not completion's to read.
        const config = await loadCommandConfig(workdir, configFiles.filter((f) => f !== '' && f !== '-'), silentLogger);
        user = config.resources.map((r) => (r.metadata as { name?: unknown } | undefined)?.name).filter((n): n is string => typeof n === 'string' && n !== '');
      } catch {
        // A broken config file: the built-in ones only.
      }
      return [...new Set([...builtIn, ...user])].sort();
    },
  };
}
