/**
 * Resolving binaries: try each request's candidates in order (explicit, prefix, cache, upstream),
 * then, for whatever could not be downloaded, build the whole family from Go modules once (when
 * `go` is present and offline builds are allowed). Anything still missing ends in one
 * PreflightError that lists what was tried and what the user can do.
 */
import { statSync } from 'node:fs';
import pLimit from 'p-limit';
import { PreflightError } from '../util/errors.js';
import { silentLogger, type Logger } from '../util/log.js';
import { checkLocalBinary, DownloadError, ensureDownloaded, ensureExtracted, type DownloadContext, type DownloadTuning } from './download.js';
import { buildFromGoModules, detectGo, type GoToolchain } from './gobuild.js';
import type { ProgressCallback } from './progress.js';
import {
  BINARY_OVERRIDES,
  buildArtifactCandidates,
  normalizeRequest,
  versionOf,
  type ArtifactCandidate,
  type ArtifactRequest,
  type ArtifactSource,
  type BinaryName,
  type GoBuildCandidate,
  type GoBuildKind,
  type OfflineBuildMode,
  type Platform,
} from './sources.js';

export interface ResolvedArtifact {
  name: BinaryName;
  /** The version that was asked for (Kubernetes, etcd or Prometheus), with `v`. */
  version: string;
  /** Absolute path of the binary to run. */
  path: string;
  source: ArtifactSource;
  /** The URL, local path or `go build <pkg>@<version>` it came from. */
  origin: string;
}

export interface ResolveArtifactsOptions {
  cacheDir: string;
  offlineBuild?: OfflineBuildMode;
  logger?: Logger;
  onProgress?: ProgressCallback;
  signal?: AbortSignal;
  /** Download timeouts, retries and lock timing (see `downloadTuningFromEnv`). */
  download?: Partial<DownloadTuning>;
  /** The go tool (default `go` from PATH). */
  go?: string;
  /** Host platform (default: this machine's); requests without a platform use it. */
  platform?: Platform;
  /** Parallel downloads (default 3). */
  concurrency?: number;
  /** Hosts known to be unreachable (air-gapped machines): downloads from them fail without trying. */
  offlineHosts?: readonly string[];
}

type Outcome =
  | { kind: 'resolved'; artifact: ResolvedArtifact }
  | { kind: 'pending'; name: BinaryName; version: string; attempts: string[]; gobuild?: GoBuildCandidate }
  | { kind: 'fatal'; error: unknown };

function fileExistsSync(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function isAbort(error: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (error instanceof DownloadError && error.reason === 'aborted');
}

/** Tries one request's candidates up to (not including) a Go build. */
async function tryCandidates(request: ArtifactRequest, candidates: ArtifactCandidate[], ctx: DownloadContext, logger: Logger, hostPlatform?: Platform): Promise<Outcome> {
  const norm = normalizeRequest(request, hostPlatform);
  const { name } = norm;
  const version = versionOf(norm);
  const attempts: string[] = [];
  const done = (source: ArtifactSource, path: string, origin: string): Outcome => ({ kind: 'resolved', artifact: { name, version, path, source, origin } });
  for (const c of candidates) {
    if (c.type === 'gobuild') return { kind: 'pending', name, version, attempts, gobuild: c };
    try {
      switch (c.type) {
        case 'file':
          if (c.source === 'path') {
            await checkLocalBinary(c.path);
            return done('path', c.path, c.origin);
          }
          if (!fileExistsSync(c.path)) {
            // A cache miss is the normal case; only a missing mirror file is worth reporting.
            if (c.source !== 'cache') attempts.push(`${c.path}: not found`);
            continue;
          }
          await checkLocalBinary(c.path);
          if (c.source === 'system') logger.info(`${name}: could not download it; using ${c.path} installed on this machine`);
          return done(c.source, c.path, c.origin);
        case 'extract': {
          await ensureExtracted(c, { ...ctx, name });
          return done('path', c.path, c.origin);
        }
        case 'download': {
          const result = await ensureDownloaded(c, { ...ctx, name });
          return done(result.fetched ? c.source : 'cache', result.path, c.origin);
        }
      }
    } catch (error) {
      if (isAbort(error, ctx.signal)) return { kind: 'fatal', error };
      // A checksum mismatch is a warning sign, not something to paper over with another source.
      if (error instanceof DownloadError && error.reason === 'checksum') return { kind: 'fatal', error };
      if (c.source === 'explicit' || c.source === 'path') {
        const names = BINARY_OVERRIDES[name];
        const message = error instanceof Error ? error.message : String(error);
        return {
          kind: 'fatal',
          error: new PreflightError(`cannot use the ${name} binary given (${c.origin}): ${message}`, {
            hint: `fix the value of ${names.flag ? `${names.flag} / ` : ''}${names.env}, or unset it to use the default download`,
            cause: error,
          }),
        };
      }
      const message = error instanceof Error ? error.message : String(error);
      logger.debug(`${name}: ${c.origin}: ${message}`);
      attempts.push(`${c.origin}: ${message}`);
    }
  }
  return { kind: 'pending', name, version, attempts };
}

function hintFor(pending: Array<Extract<Outcome, { kind: 'pending' }>>, goStatus: 'missing' | 'failed' | 'present' | 'not-tried', offline: OfflineBuildMode): string {
  const parts: string[] = [];
  const buildable = pending.some((p) => p.gobuild) || (offline === 'never' && pending.some((p) => p.name !== 'prometheus'));
  if (buildable) {
    if (offline === 'never') parts.push('allow building from source (offline build "auto")');
    else if (goStatus === 'missing') parts.push('install Go (https://go.dev/dl/) to build from source');
    else if (goStatus === 'failed') parts.push('fix the go build error (the Go module proxy must be reachable)');
  }
  if (pending.some((p) => p.name === 'prometheus')) parts.push('install Prometheus (e.g. apt-get install prometheus)');
  const flags = pending.map((p) => BINARY_OVERRIDES[p.name]).map((o) => `${o.flag ?? o.env}=/path`);
  parts.push(`pass ${[...new Set(flags)].join(' ')}`);
  const prefixes = [...new Set(pending.map((p) => BINARY_OVERRIDES[p.name].prefixEnv).filter((e): e is string => !!e))];
  if (prefixes.length > 0) parts.push(`set ${prefixes.join(' / ')} to a reachable mirror`);
  return parts.join(', or ');
}

/**
 * Why a Go build starts, said before it does: with `auto`, which download was refused, from where
 * and how (the first one; the others are alike). The user can then fix the download (a proxy, a
 * mirror prefix) instead of waiting for the build.
 */
export function buildReason(items: ReadonlyArray<{ name: string; attempts: readonly string[] }>, offline: OfflineBuildMode): string {
  const names = items.map((p) => p.name).join(', ');
  if (offline === 'always') return `building ${names} from Go modules (build from source: always)`;
  const refused = items.find((p) => p.attempts.length > 0)?.attempts.at(-1);
  return `could not download ${names}${refused ? ` (${refused})` : ''}; building ${items.length === 1 ? 'it' : 'them'} from Go modules instead`;
}

/**
 * Makes every requested binary available and says where each came from. Downloads run in
 * parallel (bounded); Go builds run one family at a time. Throws ArtifactError on a checksum
 * mismatch, PreflightError when a binary cannot be had.
 */
export async function resolveArtifacts(requests: readonly ArtifactRequest[], options: ResolveArtifactsOptions): Promise<ResolvedArtifact[]> {
  const logger = options.logger ?? silentLogger;
  const offline = options.offlineBuild ?? 'auto';
  const ctx: DownloadContext = {
    logger,
    unreachableHosts: new Set<string>(options.offlineHosts ?? []),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.download ? { tuning: options.download } : {}),
  };
  const candidateOptions = { cacheDir: options.cacheDir, offlineBuild: offline, ...(options.platform ? { platform: options.platform } : {}) };
  const limit = pLimit(Math.max(1, options.concurrency ?? 3));
  const outcomes = await Promise.all(
    requests.map((request) => limit(() => tryCandidates(request, buildArtifactCandidates(request, candidateOptions), ctx, logger, options.platform))),
  );
  const fatal = outcomes.find((o): o is Extract<Outcome, { kind: 'fatal' }> => o.kind === 'fatal');
  if (fatal) throw fatal.error;

  // Go builds for what could not be downloaded, one family/version at a time.
  let goStatus: 'missing' | 'failed' | 'present' | 'not-tried' = 'not-tried';
  const pending = outcomes.filter((o): o is Extract<Outcome, { kind: 'pending' }> => o.kind === 'pending');
  const groups = new Map<string, { kind: GoBuildKind; version: string; items: typeof pending }>();
  for (const p of pending) {
    if (!p.gobuild) continue;
    const key = `${p.gobuild.kind}@${p.gobuild.version}`;
    const group = groups.get(key) ?? { kind: p.gobuild.kind, version: p.gobuild.version, items: [] };
    group.items.push(p);
    groups.set(key, group);
  }
  const resolvedByIndex = new Map<number, ResolvedArtifact>();
  if (groups.size > 0) {
    const go: GoToolchain | undefined = await detectGo(options.go ?? 'go', options.signal);
    if (!go) {
      goStatus = 'missing';
      for (const p of pending) if (p.gobuild) p.attempts.push('go build: the go tool was not found on PATH');
    } else {
      goStatus = 'present';
      for (const group of groups.values()) {
        logger.info(buildReason(group.items, offline));
        try {
          const built = await buildFromGoModules(group.kind, group.version, {
            cacheDir: options.cacheDir,
            logger,
            go: go.command,
            ...(options.onProgress ? { onProgress: options.onProgress } : {}),
            ...(options.signal ? { signal: options.signal } : {}),
            ...(options.download ? { tuning: options.download } : {}),
          });
          for (const p of group.items) {
            const file = built.binaries[p.name];
            if (file) resolvedByIndex.set(outcomes.indexOf(p), { name: p.name, version: p.version, path: file, source: 'gobuild', origin: p.gobuild!.origin });
          }
        } catch (error) {
          if (isAbort(error, options.signal)) throw error;
          goStatus = 'failed';
          const message = error instanceof Error ? error.message : String(error);
          logger.warn(`building ${group.kind} ${group.version} from Go modules failed: ${message}`);
          for (const p of group.items) p.attempts.push(`go build: ${message}`);
        }
      }
    }
  }

  const missing = pending.filter((p) => !resolvedByIndex.has(outcomes.indexOf(p)));
  if (missing.length > 0) {
    const lines = missing.map((p) => `  ${p.name} ${p.version}: ${p.attempts.length > 0 ? p.attempts.join('; ') : 'no source to try'}`);
    throw new PreflightError([`cannot get ${missing.map((p) => `${p.name} ${p.version}`).join(', ')}; tried:`, ...lines].join('\n'), {
      hint: hintFor(missing, goStatus, offline),
    });
  }
  return outcomes.map((o, i) => (o.kind === 'resolved' ? o.artifact : resolvedByIndex.get(i)!));
}

export interface PlanArtifactsOptions {
  cacheDir: string;
  offlineBuild?: OfflineBuildMode;
  platform?: Platform;
  /** Probe for cached files (default: a synchronous stat). Inject it for exact dry-run goldens. */
  fileExists?: (path: string) => boolean;
}

export interface ArtifactPlan {
  name: BinaryName;
  version: string;
  /** Where the binary would come from, if the first viable candidate works. */
  source: ArtifactSource;
  origin: string;
  /** Where the binary would be. */
  path: string;
  /** The Go build tried if that download fails (when offline builds are allowed). */
  fallback?: { origin: string; path: string };
  /** Every candidate, in the order they would be tried. */
  candidates: ArtifactCandidate[];
}

/**
 * Where each binary would come from, without downloading, building or writing anything (it only
 * looks at which cached files exist). Used by `kwokts get artifacts` and `--dry-run`.
 */
export function planArtifacts(requests: readonly ArtifactRequest[], options: PlanArtifactsOptions): ArtifactPlan[] {
  const exists = options.fileExists ?? fileExistsSync;
  const candidateOptions = { cacheDir: options.cacheDir, offlineBuild: options.offlineBuild ?? 'auto', ...(options.platform ? { platform: options.platform } : {}) };
  return requests.map((request) => {
    const norm = normalizeRequest(request, options.platform);
    const candidates = buildArtifactCandidates(request, candidateOptions);
    const gobuild = candidates.find((c): c is GoBuildCandidate => c.type === 'gobuild');
    const base = { name: norm.name, version: versionOf(norm), candidates };
    for (const c of candidates) {
      if (c.type === 'file') {
        if (c.source === 'path' || exists(c.path)) return { ...base, source: c.source, origin: c.origin, path: c.path };
        continue;
      }
      if (c.type === 'extract') return { ...base, source: c.source, origin: c.origin, path: c.path };
      if (c.type === 'download') {
        if (exists(c.path)) return { ...base, source: 'cache' as const, origin: c.origin, path: c.path };
        return { ...base, source: c.source, origin: c.origin, path: c.path, ...(gobuild ? { fallback: { origin: gobuild.origin, path: gobuild.path } } : {}) };
      }
      return { ...base, source: 'gobuild' as const, origin: c.origin, path: c.path };
    }
    // Only reachable with offline builds disabled and nothing cached or downloadable.
    const last = candidates[candidates.length - 1]!;
    return { ...base, source: last.source, origin: last.origin, path: last.path };
  });
}
