/**
 * `snapshot restore`'s entry, shared by the command (src/commands) and the CLI's fast path
 * (src/cli/fast-restore.ts): it imports only what an etcd restore needs (no YAML library, no
 * kube client code for k8s objects, no container runtimes), and loads the k8s format's code
 * (snapshot.ts) only for a k8s restore.
 */
import { existsSync } from 'node:fs';
import { loadRecordQuickly } from '../cluster/record-quick.js';
import { NotFoundError, UsageError } from '../util/errors.js';
import { mark } from '../util/timeline.js';
import type { RestoreResult, SnapshotOptions } from './snapshot.js';
import { restoreEtcd } from './etcd-restore.js';

function checkRestorePath(path: string): void {
  if (!existsSync(path)) throw new NotFoundError(`snapshot ${path} does not exist`, { hint: 'give the --path of a snapshot made by `kwokts snapshot save`' });
}

export async function restoreSnapshot(options: SnapshotOptions): Promise<RestoreResult> {
  mark('restore: command parsed');
  checkRestorePath(options.path);
  if (options.format === 'k8s') return (await import('./snapshot.js')).restoreK8sSnapshot(options);
  if (options.replay) throw new UsageError('--replay needs --format k8s', { hint: 'recordings are k8s-format files (`snapshot save --format k8s --record`, `snapshot export --record`)' });
  // The record's KwokctlConfiguration document, read with js-yaml (anything unusual: record.ts's reader and errors).
  await restoreEtcd(await loadRecordQuickly(options.workdir, options.name), options);
  return { created: 0, existed: 0, recorded: 0 };
}
