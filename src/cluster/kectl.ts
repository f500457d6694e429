import { isAbsolute, resolve } from 'node:path';
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
 * from GitHub; we never download it: KWOK_KECTL_BINARY names one, else `kectl` on PATH.
 */
export function findKectl(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.KWOK_KECTL_BINARY;
  if (explicit) return isAbsolute(explicit) ? explicit : resolve(explicit);
  const onPath = findOnPath('kectl', env.PATH ?? '');
  if (onPath) return onPath;
  throw new PreflightError('kectl was not found (KWOK_KECTL_BINARY is unset and there is no kectl on PATH)', {
    hint: `install it (\`go install ${KECTL_MODULE}/cmd/kectl@${KECTL_VERSION}\`) and put it on PATH, or set KWOK_KECTL_BINARY`,
  });
}

/**
 * kectl against the cluster's etcd: kectl takes etcdctl's connection flags (--endpoints, and
 * --cacert/--cert/--key for TLS), so it gets exactly what etcdctl gets, then the user's arguments.
 */
export function kectlInvocation(kectl: string, record: ClusterRecord, paths: ClusterPaths, userArgs: readonly string[]): ToolInvocation {
  return { ...etcdctlInvocation(kectl, record, paths, userArgs), command: kectl };
}
