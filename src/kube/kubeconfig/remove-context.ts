/**
 * `delete cluster`'s edit of the user's kubeconfig: the cluster's context, cluster and user go.
 * A module of its own, apart from merge.ts, so that a delete loads neither the yaml package nor
 * yaml-edit.ts unless the quick line edit (remove-lines.ts) declines the file.
 */
import { exists, readFileState, withFileLock, writeFileAtomic, type LockOptions } from './file-io.js';
import { removeEntryLines } from './remove-lines.js';

/**
 * Removes the context, cluster and user named `name`; clears `current-context` (to "", as kubectl
 * does) when it pointed at that context. Never creates the file, and writes only when something
 * matched. Returns whether the file changed.
 */
export async function removeContext(path: string, name: string, options: LockOptions = {}): Promise<boolean> {
  if (!(await exists(path))) return false;
  return withFileLock(
    path,
    async (lock) => {
      const state = await readFileState(path);
      if (!state.existed) return false;
      const after = removeEntryLines(state.content, name) ?? (await editWithYaml(state.content, name, path));
      if (after === state.content) return false;
      lock.assertHeld();
      await writeFileAtomic(state.target, after, { mode: state.mode, owner: { uid: state.uid, gid: state.gid } });
      return true;
    },
    options,
  );
}

/** The YAML editor, for files the line edit declines; it also gives the errors for files that are no kubeconfig. */
async function editWithYaml(text: string, name: string, path: string): Promise<string> {
  const { editKubeconfig, removeEntry } = await import('./yaml-edit.js');
  return editKubeconfig(text, path, (doc) => removeEntry(doc, name, path));
}
