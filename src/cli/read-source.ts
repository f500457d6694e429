/** A file argument's text, `-` meaning stdin; a missing file is a UsageError. */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../util/errors.js';

export async function readSource(path: string): Promise<string> {
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  if (!existsSync(path)) throw new UsageError(`${path} does not exist`);
  return readFile(path, 'utf8');
}
