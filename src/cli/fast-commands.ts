import { resolveWorkdir } from '../naming/naming.js';
import { createLogger, type Logger } from '../util/log.js';
import type { FastCommand, PassthroughTool } from './fast-path.js';
import { installInterruptHandlers } from './interrupts.js';
import { reportError } from './report-error.js';

/**
 * Runs what src/cli/fast-path.ts recognised, as BaseCommand and the command classes would: the
 * same workdir, logger, Ctrl-C handling and error report; returns the exit code.
 */
export async function runFastCommand(command: Exclude<FastCommand, { kind: 'version' }>): Promise<number> {
  const logLevel = command.globals.logLevel;
  try {
    const workdir = resolveWorkdir();
    const logger = createLogger(logLevel);
    const abort = new AbortController();
    installInterruptHandlers({ logger, abort, settled: () => false, announce: () => true, action: () => 'stopping' });
    if (command.kind === 'get-clusters') {
      // Each branch loads only what it uses: a name listing never needs the YAML parser.
      const { listClusters } = await import('../cluster/list-clusters.js');
      await listClusters(workdir, command.output, (line) => process.stdout.write(line + '\n'));
      return 0;
    }
    return await runPassthrough(command.tool, command.globals.name, command.toolArgs, { workdir, logger, signal: abort.signal });
  } catch (error) {
    return reportError(error, logLevel);
  }
}

async function runPassthrough(tool: PassthroughTool, name: string, toolArgs: string[], context: { workdir: string; logger: Logger; signal: AbortSignal }): Promise<number> {
  const [{ loadCluster }, { etcdctlInvocation, kubectlInvocation, runInherited }] = await Promise.all([import('../cluster/record.js'), import('../cluster/passthrough.js')]);
  const { record, paths } = await loadCluster(context.workdir, name);
  if (tool === 'kectl') {
    const { findKectl, kectlInvocation } = await import('../cluster/kectl.js');
    return runInherited(kectlInvocation(findKectl(), record, paths, toolArgs));
  }
  // The record names the tool it was made with; resolving one (and loading the artifact code) is the rare case.
  const program = record.programs[tool] ?? (await (await import('../cluster/programs.js')).resolveTool(tool, record, context));
  return runInherited(tool === 'kubectl' ? kubectlInvocation(program, paths, toolArgs) : etcdctlInvocation(program, record, paths, toolArgs));
}

