import type { Config } from '@oclif/core';
import { COMPONENT_NAMES } from '../config/component-names.js';
import { RUNTIME_NAMES } from '../config/runtime-names.js';
import { LogLevel } from '../util/log.js';
/**
 * Shell completion: what may come next on a command line. The shell scripts (`completion bash`
 * and the others) call the hidden `__complete` command with the words typed so far, the last one
 * being the word under the cursor (possibly empty), and offer what it prints, one a line.
 */

export interface CompletionFlag {
  name: string;
  char?: string;
  type: 'boolean' | 'option';
  options?: readonly string[];
  hidden?: boolean;
  /** A list flag's separator (`--enable a,b`): the value after the last one is completed. */
  delimiter?: string;
}

export interface CompletionTable {
  /** Command ids with spaces, each with its flags (globals included). */
  commands: ReadonlyMap<string, readonly CompletionFlag[]>;
  topics: ReadonlySet<string>;
  /** Flags before any command. */
  globals: readonly CompletionFlag[];
  /** Commands whose arguments belong to another tool: nothing to offer after them. */
  passthrough: ReadonlySet<string>;
}

/** What completion needs to read from the machine: the clusters, and what is in them and in the config. */
export interface CompletionSources {
  /** The clusters in the workdir. */
  clusters(): Promise<readonly string[]>;
  /** The components of a cluster (none when it cannot be read). */
  components(cluster: string): Promise<readonly string[]>;
  /** What `scale` can make: the built-in templates and the KwokctlResources of the config files. */
  resourceKinds(configFiles: readonly string[]): Promise<readonly string[]>;
}

/** Sources that know nothing: completion of commands and flags only. */
export const NO_SOURCES: CompletionSources = { clusters: async () => [], components: async () => [], resourceKinds: async () => [] };

/** Where a value can come from. */
type ValueKind = 'clusters' | 'runtimes' | 'component-names' | 'log-levels' | 'cluster-components' | 'logs-subjects' | 'resource-kinds';

/**
 * The values of flags that have no fixed `options` in their oclif definition (oclif would then
 * refuse kwokctl's other spellings with its own message), by flag name: the same flag means the
 * same on every command that has it.
 */
const FLAG_VALUES: Readonly<Record<string, ValueKind>> = {
  name: 'clusters',
  runtime: 'runtimes',
  enable: 'component-names',
  disable: 'component-names',
  components: 'component-names',
  v: 'log-levels',
};

/** The values of commands' arguments, by command and position. */
const ARGUMENT_VALUES: Readonly<Record<string, readonly ValueKind[]>> = {
  logs: ['logs-subjects'],
  'port-forward': ['cluster-components'],
  scale: ['resource-kinds'],
};

interface Context {
  /** The cluster the command line names (--name), for its components. */
  cluster: string;
  configFiles: string[];
}

async function valuesOf(kind: ValueKind, sources: CompletionSources, context: Context): Promise<readonly string[]> {
  switch (kind) {
    case 'clusters':
      return sources.clusters();
    case 'runtimes':
      return RUNTIME_NAMES;
    case 'component-names':
      return COMPONENT_NAMES;
    case 'log-levels':
      return Object.keys(LogLevel);
    case 'cluster-components':
      return sources.components(context.cluster);
    case 'logs-subjects':
      return [...(await sources.components(context.cluster)), 'audit'];
    case 'resource-kinds':
      return sources.resourceKinds(context.configFiles);
  }
}

export async function completeWords(typed: readonly string[], table: CompletionTable, sources: CompletionSources = NO_SOURCES): Promise<string[]> {
  const current = typed.at(-1) ?? '';
  const before = typed.slice(0, -1);
  const words: string[] = [];
  const positionals: string[] = [];
  const context: Context = { cluster: 'kwok', configFiles: [] };
  let flags = table.globals;
  let complete = false;
  for (let i = 0; i < before.length; i++) {
    const token = before[i]!;
    if (token.startsWith('-')) {
      // Skip the value of a flag that takes one (`--name foo`), noting the ones completion needs.
      const flag = findFlag(token, flags);
      let value: string | undefined;
      if (flag?.type === 'option' && !token.includes('=') && (token.startsWith('--') || token.length === 2)) {
        value = before[i + 1];
        i += 1;
      } else if (token.includes('=')) value = token.slice(token.indexOf('=') + 1);
      if (value !== undefined && flag?.name === 'name') context.cluster = value;
      if (value !== undefined && flag?.name === 'config') context.configFiles.push(...value.split(','));
      continue;
    }
    if (complete) {
      positionals.push(token);
      continue;
    }
    const candidate = [...words, token].join(' ');
    if (!table.commands.has(candidate) && !table.topics.has(candidate)) continue;
    words.push(token);
    if (table.commands.has(candidate)) {
      complete = true;
      flags = table.commands.get(candidate)!;
      if (table.passthrough.has(candidate)) return [];
    }
  }
  // The value of a flag: its fixed options, or what FLAG_VALUES says it takes.
  const flagValues = async (flag: CompletionFlag | undefined, prefix: string, partial: string): Promise<string[]> => {
    if (flag?.type !== 'option') return [];
    const kind = FLAG_VALUES[flag.name];
    const all = flag.options ?? (kind ? await valuesOf(kind, sources, context) : []);
    // In a list (`--enable metrics-server,pro`), the part after the last separator, without the
    // values already in the list.
    const cut = flag.delimiter ? partial.lastIndexOf(flag.delimiter) + 1 : 0;
    const head = partial.slice(0, cut);
    const given = flag.delimiter ? new Set(head.split(flag.delimiter)) : new Set<string>();
    return all.filter((o) => !given.has(o)).map((o) => prefix + head + o).filter((o) => o.startsWith(prefix + partial));
  };
  const previous = before.at(-1);
  if (previous?.startsWith('-') && !previous.includes('=')) {
    const flag = findFlag(previous, flags);
    if (flag?.type === 'option' && (previous.startsWith('--') || previous.length === 2)) return flagValues(flag, '', current);
  }
  if (current.startsWith('--') && current.includes('=')) {
    const eq = current.indexOf('=') + 1;
    return flagValues(findFlag(current, flags), current.slice(0, eq), current.slice(eq));
  }
  if (current.startsWith('-')) {
    return flags
      .filter((f) => !f.hidden)
      .map((f) => `--${f.name}`)
      .filter((f) => f.startsWith(current))
      .sort();
  }
  if (complete) {
    const kind = ARGUMENT_VALUES[words.join(' ')]?.[positionals.length];
    return kind ? [...(await valuesOf(kind, sources, context))].filter((v) => v.startsWith(current)) : [];
  }
  const prefix = words.join(' ');
  const next = new Set<string>();
  for (const id of [...table.commands.keys(), ...table.topics]) {
    const parts = id.split(' ');
    if (parts.length === words.length + 1 && parts.slice(0, words.length).join(' ') === prefix && !parts.at(-1)!.startsWith('_')) next.add(parts.at(-1)!);
  }
  return [...next].filter((n) => n.startsWith(current)).sort();
}

function findFlag(token: string, flags: readonly CompletionFlag[]): CompletionFlag | undefined {
  if (token.startsWith('--')) {
    const name = token.slice(2).split('=')[0];
    return flags.find((f) => f.name === name);
  }
  return flags.find((f) => f.char === token[1]);
}

/** The script that `completion SHELL` prints; it asks `<bin> __complete` for the candidates. */
export function renderCompletionScript(shell: 'bash' | 'zsh' | 'fish' | 'powershell', bin: string): string {
  const fn = `__${bin.replace(/[^A-Za-z0-9_]/g, '_')}_complete`;
  switch (shell) {
    case 'bash':
      return `# bash completion for ${bin}. Load it with: source <(${bin} completion bash)
${fn}() {
    local cur="\${COMP_WORDS[COMP_CWORD]}"
    local IFS=$'\\n'
    COMPREPLY=($("\${COMP_WORDS[0]}" __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
    # Nothing to offer (an argument, a passthrough command): complete file names.
    if [[ \${#COMPREPLY[@]} -eq 0 ]]; then COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -o filenames -F ${fn} ${bin}
`;
    case 'zsh':
      return `#compdef ${bin}
# zsh completion for ${bin}. Load it with: source <(${bin} completion zsh)  (after compinit)
${fn}() {
    local -a candidates
    candidates=("\${(@f)$(\${words[1]} __complete "\${(@)words[2,$CURRENT]}" 2>/dev/null)}")
    if (( \${#candidates} )) && [[ -n "\${candidates[1]}" ]]; then
        compadd -- "\${candidates[@]}"
    else
        _files
    fi
}
if [ "$funcstack[1]" = "${fn}" ]; then
    ${fn} "$@"
else
    compdef ${fn} ${bin}
fi
`;
    case 'fish':
      return `# fish completion for ${bin}. Load it with: ${bin} completion fish | source
function ${fn}
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    $tokens[1] __complete $tokens[2..-1] "$current" 2>/dev/null
end
complete -c ${bin} -f -a '(${fn})'
`;
    case 'powershell':
      return `# PowerShell completion for ${bin}. Load it with: ${bin} completion powershell | Out-String | Invoke-Expression
Register-ArgumentCompleter -Native -CommandName '${bin}' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $words = @($commandAst.CommandElements | Select-Object -Skip 1 | ForEach-Object { $_.ToString() })
    if ($wordToComplete -eq '') { $words += '""' }
    $program = $commandAst.CommandElements[0].ToString()
    & $program __complete @words 2>$null | ForEach-Object {
        [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
    }
}
`;
  }
}

/** The table from oclif's manifest (no command module is loaded). */
export function completionTable(config: Config, passthrough: ReadonlySet<string>): CompletionTable {
  const spaced = (id: string) => id.replaceAll(':', ' ');
  const shape = (f: { name: string; char?: string; type: 'boolean' | 'option'; options?: readonly string[]; hidden?: boolean; delimiter?: string }): CompletionFlag => ({
    name: f.name,
    type: f.type,
    ...(f.char ? { char: f.char } : {}),
    ...(f.options ? { options: f.options } : {}),
    ...(f.hidden ? { hidden: true } : {}),
    ...(f.delimiter ? { delimiter: f.delimiter } : {}),
  });
  const commands = new Map<string, CompletionFlag[]>();
  let globals: CompletionFlag[] = [];
  for (const command of config.commands) {
    if (command.hidden) continue;
    const flags = Object.values(command.flags).map((f) => shape(f as Parameters<typeof shape>[0]));
    commands.set(spaced(command.id), flags);
    // Every command carries the global flags; take them from any one.
    if (globals.length === 0) globals = flags.filter((f) => (command.flags[f.name] as { helpGroup?: string }).helpGroup === 'GLOBAL');
  }
  return { commands, topics: new Set(config.topics.map((t) => spaced(t.name))), globals, passthrough };
}
