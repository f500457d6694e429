/**
 * execa, loaded on first use. Its ~100 small ES modules cost ~0.1 s to load, which every command
 * paid at start-up even when it never ran a child process that way (delete, get clusters, ...).
 */
type Execa = typeof import('execa').execa;

export async function loadExeca(): Promise<Execa> {
  return (await import('execa')).execa;
}
