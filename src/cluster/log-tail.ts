import { readFile } from 'node:fs/promises';

/** The last lines of a component's log, indented, for error messages; empty when unreadable. */
export async function logTail(path: string, lines = 8): Promise<string> {
  try {
    return (await readFile(path, 'utf8')).trimEnd().split('\n').slice(-lines).map((l) => `  ${l}`).join('\n');
  } catch {
    return '';
  }
}
