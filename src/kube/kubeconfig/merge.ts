/**
 * Edits of the user's kubeconfig (`~/.kube/config` or `--kubeconfig`): add a cluster's
 * context on create, and undo an add when create rolls back (delete's removal is
 * remove-context.ts). Each edit is read-modify-write under the file's lock, so concurrent kwokts
 * (or kubectl) processes editing different contexts all land.
 */
import { UsageError } from '../../util/errors.js';
import {
  ensureParentDirectory,
  exists,
  readFileState,
  removeFile,
  secretMode,
  withFileLock,
  type FileState,
  type LockOptions,
  writeFileAtomic,
} from './file-io.js';
import type { ClusterEntry } from './types.js';
import { editKubeconfig, parseKubeconfig, restoreEntry, upsertEntry } from './yaml-edit.js';

/**
 * What the file was before a merge, enough to put it back. Plain data, so a create journal
 * can persist it as JSON.
 */
export type KubeconfigSnapshot = {
  /** The context/cluster/user name the merge wrote. */
  name: string;
  /** Exactly what the merge wrote; undefined when the merge changed nothing. */
  written: string | undefined;
} & ({ existed: false } | { existed: true; content: string; mode: number });

export interface MergeContextOptions extends LockOptions {
  /** Make `entry.name` the current context (kwokctl always does). */
  makeCurrent?: boolean;
}

/**
 * The checks of mergeContext without the write: a kubeconfig that mergeContext would refuse
 * (not YAML, not a mapping, a section that is not a list, unreadable) is refused now, before
 * a create starts anything. Only the parse and the edit can refuse; rendering the edited file
 * and reading it back (editKubeconfig) would only double this check's CPU, which a create
 * spends before it starts the first component.
 */
export async function checkMergeable(userKubeconfigPath: string, entry: ClusterEntry): Promise<void> {
  const state = await readFileState(userKubeconfigPath);
  if (!state.existed) return;
  upsertEntry(parseKubeconfig(state.content, userKubeconfigPath).doc, entry, true, userKubeconfigPath);
}

export async function mergeContext(
  userKubeconfigPath: string,
  entry: ClusterEntry,
  options: MergeContextOptions = { makeCurrent: true },
): Promise<KubeconfigSnapshot> {
  if (entry.name.trim() === '') throw new UsageError('the kubeconfig context name is empty');
  await ensureParentDirectory(userKubeconfigPath);
  return withFileLock(
    userKubeconfigPath,
    async (lock) => {
      const before = await readFileState(userKubeconfigPath);
      const text = before.existed ? before.content : '';
      const after = editKubeconfig(text, userKubeconfigPath, (doc) =>
        upsertEntry(doc, entry, options.makeCurrent ?? true, userKubeconfigPath),
      );
      const snapshot = snapshotOf(entry.name, before);
      // kwokctl rewrites only on change; an unchanged file keeps its bytes and mtime.
      if (before.existed && after === before.content) return snapshot;
      lock.assertHeld();
      await writeFileAtomic(before.target, after, {
        mode: secretMode(before.existed ? before.mode : undefined),
        ...(before.existed ? { owner: { uid: before.uid, gid: before.gid } } : {}),
      });
      return { ...snapshot, written: after };
    },
    options,
  );
}

function snapshotOf(name: string, state: FileState): KubeconfigSnapshot {
  return state.existed
    ? { name, written: undefined, existed: true, content: state.content, mode: state.mode }
    : { name, written: undefined, existed: false };
}

/**
 * Undoes a mergeContext. If nobody has touched the file since, it gets back its exact previous
 * bytes and mode (or is deleted if the merge created it). If someone has, only our entries
 * are put back as they were, so their concurrent edits survive. If the file has been deleted
 * since, it stays deleted: that was someone's decision.
 */
export async function restoreKubeconfig(path: string, snapshot: KubeconfigSnapshot, options: LockOptions = {}): Promise<void> {
  const written = snapshot.written;
  if (written === undefined) return;
  if (!(await exists(path))) return;
  await withFileLock(
    path,
    async (lock) => {
      const now = await readFileState(path);
      if (!now.existed) return;
      lock.assertHeld();
      if (now.content === written) {
        if (snapshot.existed) await writeFileAtomic(now.target, snapshot.content, { mode: snapshot.mode });
        else await removeFile(now.target);
        return;
      }
      const previous = parseKubeconfig(snapshot.existed ? snapshot.content : '', path).doc;
      const after = editKubeconfig(now.content, path, (doc) => restoreEntry(doc, previous, snapshot.name, path));
      if (after !== now.content) {
        await writeFileAtomic(now.target, after, { mode: now.mode, owner: { uid: now.uid, gid: now.gid } });
      }
    },
    options,
  );
}
