import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { ConflictError } from '../util/errors.js';
import { clustersDir } from './naming.js';

/**
 * One mutating verb per cluster at a time. The lock lives beside (not inside) the cluster
 * directory so it can be taken before the directory exists and survives its removal.
 * proper-lockfile refreshes the lock while held and treats an abandoned one as stale.
 */
export async function lockCluster(workdir: string, name: string): Promise<() => Promise<void>> {
  const dir = clustersDir(workdir);
  await mkdir(dir, { recursive: true });
  const target = join(dir, `.${name}`);
  try {
    const release = await lockfile.lock(target, { realpath: false, lockfilePath: `${target}.lock`, stale: 15_000, update: 5_000 });
    return async () => {
      try {
        await release();
      } catch {
        /* already released or compromised: nothing left to undo */
      }
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new ConflictError(`cluster ${name} is being changed by another kwokts process`, {
        hint: 'wait for it to finish and try again',
      });
    }
    throw error;
  }
}
