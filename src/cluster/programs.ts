import { clusterVersions } from '../config/versions.js';
import { isAbsolute } from 'node:path';
import { BINARY_OVERRIDES, planArtifacts, resolveArtifacts, type ArtifactProgressEvent, type ArtifactRequest, type BinaryName, type OfflineBuildMode } from '../artifacts/index.js';
import { resolveKindBinary } from '../artifacts/kind.js';
import type { Component } from '../components/index.js';
import type { ClusterOptionValues } from '../config/options.js';
import type { Executor } from '../exec/executor.js';
import { PreflightError } from '../util/errors.js';
import { unrunnable, unrunnableReason } from '../exec/process.js';
import type { Logger } from '../util/log.js';
import type { ClusterRecord } from './record.js';
import { artifactRequest, cacheDirOf, offlineMode } from './artifact-request.js';

export interface ResolveProgramsOptions {
  values: ClusterOptionValues;
  kubeVersion: string;
  etcdVersion: string;
  workdir: string;
  executor: Executor;
  logger: Logger;
  signal: AbortSignal;
  onProgress: (detail: string) => void;
}

/** Paths of the binaries the components run (plus etcdctl/kubectl for passthrough later). */
export async function resolvePrograms(components: readonly Component[], options: ResolveProgramsOptions): Promise<Map<string, string>> {
  // kubectl and etcdctl too: passthrough and CRD installs then use the cluster's own versions.
  const names = new Set<BinaryName>(['kubectl', 'etcdctl']);
  for (const c of components) if ('artifact' in c.program) names.add(c.program.artifact);
  const requests = [...names].map((n) => artifactRequest(n, options.values, options.kubeVersion, options.etcdVersion));
  const cacheDir = cacheDirOf(options.values, options.workdir);
  const offlineBuild = offlineMode(options.values);
  if (options.executor.dryRun) {
    const planned = planArtifacts(requests, { cacheDir, offlineBuild });
    for (const p of planned) await options.executor.note(`Use ${p.name} from ${p.origin} (${p.source})`);
    return new Map(planned.map((p) => [p.name, p.path]));
  }
  const resolved = await resolveArtifacts(requests, {
    cacheDir,
    offlineBuild,
    logger: options.logger,
    signal: options.signal,
    onProgress: (event) => options.onProgress(describeProgress(event)),
  });
  return new Map(resolved.map((r) => [r.name, r.path]));
}

/**
 * The programs a runtime itself runs on the host, resolved before its engine check: kind's `kind`
 * is the one given, else on PATH, else built from its Go module (its releases are GitHub downloads).
 */
export async function resolveHostPrograms(
  planned: ReadonlyMap<string, string>,
  options: Pick<ResolveProgramsOptions, 'values' | 'workdir' | 'executor' | 'logger' | 'signal'>,
): Promise<Map<string, string>> {
  const programs = new Map(planned);
  if (programs.has('kind') && !options.executor.dryRun) {
    programs.set('kind', await resolveKindBinary(options.values, { cacheDir: cacheDirOf(options.values, options.workdir), logger: options.logger, signal: options.signal }));
  }
  return programs;
}

/** kubectl/etcdctl/etcdutl for passthrough and snapshots: the cluster's own version, resolved (and cached) on first use. */
export async function resolveTool(name: ToolName, record: ClusterRecord, options: { workdir: string; logger: Logger; signal: AbortSignal }): Promise<string> {
  return record.programs[name] ?? resolveToolFor(name, record.options, options);
}

export type ToolName = 'kubectl' | 'etcdctl' | 'etcdutl';

/** A tool for option values without a cluster (e.g. `snapshot export` of someone else's cluster). */
export async function resolveToolFor(name: ToolName, values: ClusterOptionValues, options: { workdir: string; logger: Logger; signal: AbortSignal }): Promise<string> {
  const { kubeVersion, etcdVersion } = clusterVersions(values);
  const request = artifactRequest(name, values, kubeVersion, etcdVersion);
  const [resolved] = await resolveArtifacts([request], {
    cacheDir: cacheDirOf(values, options.workdir),
    offlineBuild: offlineMode(values),
    logger: options.logger,
    signal: options.signal,
    onProgress: () => undefined,
  });
  return resolved!.path;
}

/** One short line of progress for a download or a Go build. */
export function describeProgress(event: ArtifactProgressEvent): string {
  switch (event.type) {
    case 'download': {
      const mb = (n: number): string => (n / 1048576).toFixed(1);
      return `downloading ${event.name ?? event.url} ${mb(event.transferred)}${event.total ? `/${mb(event.total)}` : ''} MiB`;
    }
    case 'extract':
      return `extracting ${event.member}`;
    case 'wait-lock':
      // The holder may be this very process (etcd and etcdctl come from one archive) or another.
      return `waiting for the download in progress of ${event.path}`;
    case 'build':
      return describeBuild(event);
  }
}

/** A Go build's progress: the phase, what it is at, and how far (`compiled 812/2345 packages`). */
function describeBuild(event: Extract<ArtifactProgressEvent, { type: 'build' }>): string {
  const what = `building ${event.kind} ${event.version}`;
  if (event.line !== undefined) return `${what}: go: ${event.line}`;
  const of = event.done === undefined ? '' : event.total === undefined ? `${event.done}` : `${event.done}/${event.total}`;
  switch (event.phase) {
    case 'resolve':
      return event.item ? `${what}: reading the go.mod of ${event.item} (${of})` : `${what}: reading go.mod files`;
    case 'prepare':
      return event.item ? `${what}: fetching modules, ${of} so far (${event.item})` : `${what}: fetching modules`;
    case 'compile':
      return event.item ? `${what}: compiled ${of} packages (${event.item})` : `${what}: compiling`;
    case 'verify':
      return event.item ? `${what}: checking ${event.item} (${of})` : `${what}: checking the binaries`;
    case 'install':
      return `${what}: moving the binaries into the cache`;
    case 'done':
      return `${what}: done`;
  }
}

/**
 * Where the user sets a component's program, flag and variable both: the error cannot tell which
 * one gave the value, and naming only the flag sent a user who had set the variable looking for
 * a flag they never passed.
 */
function programSetting(component: Component): string {
  if ('artifact' in component.program) {
    const names = BINARY_OVERRIDES[component.program.artifact as BinaryName] as { flag?: string; env: string } | undefined;
    if (names) return names.flag ? `${names.flag} (or ${names.env})` : names.env;
  }
  if (component.name === 'kwok-controller') return '--kwok-controller-binary (or KWOK_CONTROLLER_BINARY)';
  return "the component's binary";
}

/** A binary that cannot run here (a download error page, another OS's build) is named before anything starts. */
export async function checkPrograms(components: readonly Component[], programs: ReadonlyMap<string, string>, executor: Executor): Promise<void> {
  // Under dry-run the paths are where the binaries would be, not files to look at.
  if (executor.dryRun) return;
  for (const component of components) {
    const path = 'path' in component.program ? component.program.path : programs.get(component.program.artifact);
    if (!path || !isAbsolute(path)) continue;
    const reason = await unrunnableReason(path);
    if (reason) {
      throw new PreflightError(`${component.name}: ${unrunnable(path, reason)}`, { hint: `give ${programSetting(component)} a ${process.platform}/${process.arch} build of ${component.name}` });
    }
  }
}
