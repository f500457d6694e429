import { clusterPaths, resolveWorkdir } from '../naming/naming.js';
import { createLogger, type Logger } from '../util/log.js';
import type { FastCommand, PassthroughTool } from './fast-path.js';
import { installInterruptHandlers } from './interrupts.js';
import { reportError } from './report-error.js';
import { takeBackExtraCaCerts } from '../util/extra-ca-certs.js';

/**
 * Runs what src/cli/fast-path.ts recognised, as BaseCommand and the command classes would: the
 * same workdir, logger, Ctrl-C handling and error report; returns the exit code.
 */
export async function runFastCommand(command: Exclude<FastCommand, { kind: 'version' } | { kind: 'create-cluster' }>): Promise<number> {
  const logLevel = command.globals.logLevel;
  // NODE_EXTRA_CA_CERTS back for the programs these start; trusting it waits for a connection
  // that needs it (extra-ca-certs.ts says which), which these commands almost never make.
  takeBackExtraCaCerts();
  try {
    const workdir = resolveWorkdir();
    const logger = createLogger(logLevel);
    const abort = new AbortController();
    // A passthrough ends on Ctrl-C as the tool does, silently (as when bin/kwokts execs it).
    installInterruptHandlers({ logger, abort, settled: () => false, announce: () => command.kind !== 'passthrough', action: () => 'stopping' });
    if (command.kind === 'get-clusters') {
      // Each branch loads only what it uses: a name listing never needs the YAML parser.
      const { listClusters } = await import('../cluster/list-clusters.js');
      await listClusters(workdir, command.output, (line) => process.stdout.write(line + '\n'));
      return 0;
    }
    if (command.kind === 'delete-cluster') {
      const [{ deleteAndReport }, { RealExecutor }] = await Promise.all([import('./delete-cluster.js'), import('../exec/real-executor.js')]);
      await deleteAndReport({ name: command.globals.name, workdir, kubeconfig: command.kubeconfig, executor: new RealExecutor(logger), logger, force: command.force });
      return 0;
    }
    if (command.kind === 'snapshot-restore') {
      const [{ restoreAndReport }, { RealExecutor }, { DEFAULT_FILTER }] = await Promise.all([import('./snapshot-restore.js'), import('../exec/real-executor.js'), import('../snapshot/k8s-format.js')]);
      await restoreAndReport({ name: command.globals.name, workdir, path: command.path, format: 'etcd', filter: DEFAULT_FILTER, executor: new RealExecutor(logger), logger, signal: abort.signal });
      return 0;
    }
    return await runPassthrough(command.tool, command.globals.name, command.toolArgs, { workdir, logger, signal: abort.signal });
  } catch (error) {
    return reportError(error, logLevel);
  }
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
