/**
 * `kubectl`, `etcdctl` and `kectl` passthroughs on the fast path, when bin/kwokts cannot exec the
 * tool itself (no facts yet, or a record newer than them). A module of its own because the bundle
 * makes it one file (scripts/bundle.mjs, LEAN_ENTRIES), as fast-delete.ts says why.
 */
import { clusterPaths } from '../naming/naming.js';
import type { Logger } from '../util/log.js';
import type { FastCommand, PassthroughTool } from './fast-path.js';
import { runFastly } from './fast-setup.js';

/** Ctrl-C ends a passthrough silently, as it ends the tool when bin/kwokts execs it. */
export function runFastPassthrough(command: Extract<FastCommand, { kind: 'passthrough' }>): Promise<number> {
  return runFastly(command.globals.logLevel, false, (context) => runPassthrough(command.tool, command.globals.name, command.toolArgs, context));
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
