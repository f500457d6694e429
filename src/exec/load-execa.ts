/**
 * execa, loaded on first use. It is a hundred small ES modules, whose load every command paid at
 * start-up even when it never ran a child process that way (delete, get clusters, ...).
 */
type Execa = typeof import('execa').execa;

export async function loadExeca(): Promise<Execa> {
  return (await import('execa')).execa;
}
