/**
 * The suffix of a temporary file written next to the one it becomes: this process's pid and 32
 * random bits. Not node:crypto's randomBytes: loading node:crypto (seventeen internal modules)
 * cost every command that writes a file, `delete cluster` among them, milliseconds of start-up,
 * and a temporary name only has to differ from another writer's at the same moment (on one host
 * the pid already does), not be unpredictable.
 */
export function tempSuffix(): string {
  return `${process.pid}-${Math.floor(Math.random() * 0x1_0000_0000).toString(16).padStart(8, '0')}`;
}
