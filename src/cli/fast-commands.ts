import { clusterPaths } from '../naming/naming.js';
import type { Logger } from '../util/log.js';
import type { FastCommand, PassthroughTool } from './fast-path.js';
import { runFastly } from './fast-setup.js';

/**
 * Runs what src/cli/fast-path.ts recognised (but `delete cluster`: fast-delete.ts), as
 * BaseCommand and the command classes would (fast-setup.ts); returns the exit code.
 */
export function runFastCommand(command: Extract<FastCommand, { kind: 'get-clusters' | 'passthrough' | 'snapshot-restore' }>): Promise<number> {
  return runFastly(command.globals.logLevel, command.kind !== 'passthrough', async ({ workdir, logger, signal }) => {
    if (command.kind === 'get-clusters') {
      // Each branch loads only what it uses: a name listing never needs the YAML parser.
      const { listClusters } = await import('../cluster/list-clusters.js');
      await listClusters(workdir, command.output, (line) => process.stdout.write(line + '\n'));
      return 0;
    }
    if (command.kind === 'snapshot-restore') {
      const [{ restoreAndReport }, { RealExecutor }, { DEFAULT_FILTER }] = await Promise.all([import('./snapshot-restore.js'), import('../exec/real-executor.js'), import('../snapshot/k8s-format.js')]);
      await restoreAndReport({ name: command.globals.name, workdir, path: command.path, format: 'etcd', filter: DEFAULT_FILTER, executor: new RealExecutor(logger), logger, signal });
      return 0;
    }
    return runPassthrough(command.tool, command.globals.name, command.toolArgs, { workdir, logger, signal });
  });
}

async function runPassthrough(tool: PassthroughTool, name: string, toolArgs: string[], context: { workdir: string; logger: Logger; signal: AbortSignal }): Promise<number> {
  const { etcdctlInvocation, kubectlInvocation, runInherited } = await import('../cluster/passthrough.js');
  const facts = tool === 'kectl' ? undefined : await import('../cluster/passthrough-facts.js');
  // kwok.yaml as it is before we read it, so facts are never written for a record that changed meanwhile.
  const identity = await facts?.recordIdentity(clusterPaths(context.workdir, name));
  // Loaded only here: get clusters and delete (of a cluster that does not exist) need no YAML parser.
  const { loadRecordQuickly } = await import('../cluster/record-quick.js');
  const { record, paths } = await loadRecordQuickly(context.workdir, name);
  if (tool === 'kectl') {
    const { kectlForCluster } = await import('../cluster/kectl.js');
    return runInherited(kectlForCluster(record, paths, toolArgs));
  }
  // The next call can go through bin/kwokts without Node: leave it the facts (a cache; never an error).
  if (facts && identity && !(await facts.passthroughFactsFresh(paths, tool))) {
    await facts.writePassthroughFacts(record, paths, identity).catch((error: unknown) => context.logger.debug(`passthrough facts not written: ${String(error)}`));
  }
  // The record names the tool it was made with; resolving one (and loading the artifact code) is the rare case.
  const program = record.programs[tool] ?? (await (await import('../cluster/programs.js')).resolveTool(tool, record, context));
  return runInherited(tool === 'kubectl' ? kubectlInvocation(program, paths, toolArgs) : etcdctlInvocation(program, record, paths, toolArgs));
}
