import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findOnPath } from '../artifacts/sources.js';
import { PreflightError } from '../util/errors.js';
import { etcdctlInvocation, type ToolInvocation } from './passthrough.js';
import type { ClusterPaths } from '../naming/naming.js';
import type { ClusterRecord } from './record.js';

/** The kectl release kwokctl v0.8 pins; named in the hint because it is the one known to work. */
export const KECTL_VERSION = 'v0.0.10';
export const KECTL_MODULE = 'github.com/kwok-ci/kectl';

/**
 * kectl is an external tool (kubectl-like, straight against etcd). kwokctl downloads a release
 * from GitHub; we never download it. In order: KWOK_KECTL_BINARY, the cluster's `kectlBinary`
 * option, else `kectl` on PATH. Either of the first two may be a path (relative: to the current
 * directory) or a bare name looked up on PATH; a URL (kwokctl's default, which the records it
 * writes carry) counts as unset, since nothing here downloads it.
 */
export function findKectl(env: NodeJS.ProcessEnv = process.env, configured = ''): string {
  const explicit = env.KWOK_KECTL_BINARY || localPath(configured);
  const path = env.PATH ?? '';
  if (explicit.includes('/')) return isAbsolute(explicit) ? explicit : resolve(explicit);
  const name = explicit || 'kectl';
  const onPath = findOnPath(name, path);
  if (onPath) return onPath;
  const given = env.KWOK_KECTL_BINARY ? 'KWOK_KECTL_BINARY' : explicit ? "the cluster's kectlBinary" : '';
  throw new PreflightError(given ? `kectl was not found: ${given} names ${JSON.stringify(name)}, which is not on PATH` : 'kectl was not found (KWOK_KECTL_BINARY is unset and there is no kectl on PATH)', {
    hint: `install it (\`go install ${KECTL_MODULE}/cmd/kectl@${KECTL_VERSION}\`) and put it on PATH, or set KWOK_KECTL_BINARY to its path`,
  });
}

/**
 * A configured program as a local path or name: a file:// URL as its path, any other URL as unset.
 * The same test as config/resolve.ts's isUrl, written out here because the fast path runs kectl and
 * importing resolve.ts would load the option tables on every call.
 */
function localPath(value: string): string {
  if (value.startsWith('file://')) return fileURLToPath(value);
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? '' : value;
}

/**
 * kectl against the cluster's etcd: kectl takes etcdctl's connection flags (--endpoints, and
 * --cacert/--cert/--key for TLS), so it gets exactly what etcdctl gets, then the user's arguments.
 */
export function kectlInvocation(kectl: string, record: ClusterRecord, paths: ClusterPaths, userArgs: readonly string[]): ToolInvocation {
  return { ...etcdctlInvocation(kectl, record, paths, userArgs), command: kectl };
}

/** kectl for this cluster, found as findKectl says (the cluster's kectlBinary included), with the etcd flags. */
export function kectlForCluster(record: ClusterRecord, paths: ClusterPaths, userArgs: readonly string[], env: NodeJS.ProcessEnv = process.env): ToolInvocation {
  return kectlInvocation(findKectl(env, record.options.kectlBinary), record, paths, userArgs);
}
