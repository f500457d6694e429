/**
 * kwokctl accepts global flags before the subcommand (`kwokctl --name foo create cluster`);
 * oclif wants the command first. We hoist leading global flags to just after the command
 * words. For passthrough commands (kubectl, etcdctl, kwok), everything after the command word
 * belongs to the tool, so it goes after `--` untouched.
 */
const GLOBAL_WITH_VALUE = new Set(['--name', '-c', '--config', '-v', '--v']);
const GLOBAL_BOOLEAN = new Set(['--dry-run']);
export const PASSTHROUGH_COMMANDS = new Set(['kubectl', 'etcdctl', 'kwok']);

export function normalizeArgv(argv: readonly string[]): string[] {
  const globals: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const token = argv[i]!;
    const eq = token.indexOf('=');
    const flag = eq > 0 ? token.slice(0, eq) : token;
    if (GLOBAL_WITH_VALUE.has(flag)) {
      if (eq > 0) {
        globals.push(token);
        i += 1;
      } else {
        globals.push(token, argv[i + 1] ?? '');
        i += 2;
      }
    } else if (GLOBAL_BOOLEAN.has(flag)) {
      globals.push(token);
      i += 1;
    } else break;
  }
  const rest = argv.slice(i);
  const first = rest[0];
  if (first !== undefined && PASSTHROUGH_COMMANDS.has(first)) {
    return [first, ...globals, '--', ...rest.slice(1)];
  }
  let words = 0;
  while (words < rest.length && !rest[words]!.startsWith('-')) words++;
  return [...rest.slice(0, words), ...globals, ...rest.slice(words)];
}
