/** Quote one argument for a POSIX shell, leaving plain words readable. */
export function shellQuote(arg: string): string {
  if (arg === '') return "''";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function shellJoin(argv: readonly string[]): string {
  return argv.map(shellQuote).join(' ');
}

/**
 * kwokctl's dry-run layout of an engine command: the program, then each argument on a line of its
 * own (indented, continued with `\`), then `tail` (redirections) the same way.
 */
export function shellJoinWordPerLine(argv: readonly string[], tail: readonly string[] = []): string {
  const [program, ...args] = argv.map(shellQuote);
  const rest = [...args.map((a) => `  ${a}`), ...tail.map((t) => `  ${t}`)];
  return [program ?? '', ...rest].map((line, i, all) => (i < all.length - 1 ? `${line} \\` : line)).join('\n');
}
