import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The installed package's root (where package.json and templates/ live). Found by walking up
 * from this file, so it is right both from src/ under tsx and from dist/ after a build.
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'templates'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('kwokts package root not found');
    dir = parent;
  }
  cached = dir;
  return dir;
}

export const templatePath = (...parts: string[]): string => join(packageRoot(), 'templates', ...parts);
