import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

/**
 * The file kubectl would write a new context to (clientcmd `PathOptions.GetDefaultFilename`):
 * the explicit `--kubeconfig`; else, from `$KUBECONFIG`, its only entry, or the first entry
 * that exists, or the last one if none does; else `~/.kube/config`. Writing anywhere else
 * would add a context that the user's kubectl does not see, or see a different file win.
 */
export function resolveUserKubeconfigPath(
  flag?: string,
  env: NodeJS.ProcessEnv = process.env,
  fileExists: (path: string) => boolean = existsSync,
): string {
  if (flag !== undefined && flag !== '') return resolve(flag);
  const files = [...new Set((env.KUBECONFIG ?? '').split(delimiter).filter((entry) => entry !== ''))];
  if (files.length === 1) return resolve(files[0] as string);
  if (files.length > 1) return resolve(files.find((file) => fileExists(file)) ?? (files.at(-1) as string));
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  return join(home, '.kube', 'config');
}
