import { readFile } from 'node:fs/promises';
import { CORE_SCHEMA, load } from 'js-yaml';
import { clusterPaths, resolveWorkdir } from '../naming/naming.js';
import { recordFromDocuments } from '../cluster/record-docs.js';
import type { LoadedCluster } from '../cluster/record.js';
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
  const { etcdctlInvocation, kubectlInvocation, runInherited } = await import('../cluster/passthrough.js');
  const { record, paths } = await loadRecordQuickly(context.workdir, name);
  if (tool === 'kectl') {
    const { findKectl, kectlInvocation } = await import('../cluster/kectl.js');
    return runInherited(kectlInvocation(findKectl(), record, paths, toolArgs));
  }
  // The record names the tool it was made with; resolving one (and loading the artifact code) is the rare case.
  const program = record.programs[tool] ?? (await (await import('../cluster/programs.js')).resolveTool(tool, record, context));
  return runInherited(tool === 'kubectl' ? kubectlInvocation(program, paths, toolArgs) : etcdctlInvocation(program, record, paths, toolArgs));
}


/**
 * A cluster's record for a passthrough, read with js-yaml (about a sixth of the CPU of the yaml
 * library on a cold start, where the record's 20 kB took most of a `kwokts kubectl` call), and
 * only its KwokctlConfiguration document: the Stages after it (kwokDocuments, left empty here)
 * are half the file and no passthrough reads them. The passthrough reads only the tool paths,
 * the etcd ports and the paths, which both parsers read alike. Anything unusual (no record, no
 * such document, YAML js-yaml refuses) goes to record.ts's loadCluster, so its errors are the
 * ones the user sees.
 */
export async function loadRecordQuickly(workdir: string, name: string): Promise<LoadedCluster> {
  const paths = clusterPaths(workdir, name);
  const slow = async (): Promise<LoadedCluster> => (await import('../cluster/record.js')).loadCluster(workdir, name);
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
