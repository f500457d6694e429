/**
 * Getting one file into the cache, safely:
 * - streamed with got (progress events, connect/idle timeouts), retried with backoff on network
 *   errors and 5xx, never on 4xx or on a host that cannot be reached at all;
 * - verified against the published SHA-256, or the one the user pinned with `#sha256=` (mismatch:
 *   ArtifactError, nothing kept); a download nothing could verify is said with a warning;
 * - written to a unique temp file in the destination's directory, fsync'ed, chmod'ed and renamed,
 *   so an interrupted run never leaves a partial file under the final name;
 * - under a per-destination lock (proper-lockfile), so a concurrent run waits and then finds the file.
 * `#member` archives are extracted the same way (temp dir next to the destination, then rename).
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants as fsConstants, createReadStream, type Stats } from 'node:fs';
import { access, chmod, mkdir, mkdtemp, open, readdir, rename, rm, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as GotModule from 'got';
import { lock } from 'proper-lockfile';
import { ArtifactError, PreflightError, type KwoktsErrorOptions } from '../util/errors.js';
import { silentLogger, type Logger } from '../util/log.js';
import { ensureExtraCaTrust } from '../util/extra-ca-certs.js';
import { parseGoDurationMs } from '../gocompat/go-duration.js';
import type { ProgressCallback } from './progress.js';
import type { ChecksumSpec, DownloadCandidate, ExtractCandidate } from './sources.js';

export interface DownloadTuning {
  /** DNS + TCP + TLS budget per request; kept short so an offline machine fails fast. */
  connectTimeoutMs: number;
  /** Longest silence (no response, no bytes) tolerated once connected. */
  idleTimeoutMs: number;
  /** Extra attempts after the first for retryable failures (network errors mid-transfer, 5xx). */
  retries: number;
  /** First backoff delay; doubles per attempt (with jitter), capped at 8 s. */
  retryBaseDelayMs: number;
  /** How long to wait for another process holding the same destination's lock. */
  lockWaitMs: number;
  /** A lock not refreshed for this long is considered abandoned. */
  lockStaleMs: number;
}

export const DEFAULT_DOWNLOAD_TUNING: Readonly<DownloadTuning> = {
  connectTimeoutMs: 10_000,
  idleTimeoutMs: 30_000,
  retries: 3,
  retryBaseDelayMs: 500,
  lockWaitMs: 60 * 60_000,
  lockStaleMs: 20_000,
};

/** A Go duration (`500ms`, `10s`, `1m`) or plain seconds, in milliseconds; undefined if unparsable. */
export function parseDurationMs(value: string): number | undefined {
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  return parseGoDurationMs(v);
}

/**
 * `KWOK_DOWNLOAD_TIMEOUT` (duration) sets the connect timeout, and raises the idle timeout to at
 * least that; `KWOK_DOWNLOAD_RETRIES` sets the retry count. Unset or bad values keep the defaults.
 */
export function downloadTuningFromEnv(env: Readonly<Record<string, string | undefined>>): Partial<DownloadTuning> {
  const tuning: Partial<DownloadTuning> = {};
  const timeout = env['KWOK_DOWNLOAD_TIMEOUT'] ? parseDurationMs(env['KWOK_DOWNLOAD_TIMEOUT']) : undefined;
  if (timeout !== undefined && timeout > 0) {
    tuning.connectTimeoutMs = timeout;
    tuning.idleTimeoutMs = Math.max(timeout, DEFAULT_DOWNLOAD_TUNING.idleTimeoutMs);
  }
  const retries = env['KWOK_DOWNLOAD_RETRIES'];
  if (retries && /^\d+$/.test(retries.trim())) tuning.retries = Number(retries.trim());
  return tuning;
}

export interface DownloadContext {
  logger?: Logger;
  signal?: AbortSignal;
  onProgress?: ProgressCallback;
  tuning?: Partial<DownloadTuning>;
  /**
   * Hosts that could not be reached at all (DNS failure, refused, connect timeout) earlier in this
   * run; later downloads from them fail at once instead of waiting again. Shared across calls.
   */
  unreachableHosts?: Set<string>;
  /** The binary being fetched, for progress events. */
  name?: string;
}

export type DownloadFailure =
  /** 404/410: try the next candidate. */
  | 'not-found'
  /** DNS failure, connection refused, connect timeout. */
  | 'unreachable'
  /** Another non-2xx answer. */
  | 'http'
  /** The connection broke or went silent mid-transfer. */
  | 'network'
  /** The content does not match the published SHA-256. */
  | 'checksum'
  | 'archive'
  | 'aborted';

/** An ArtifactError that says why a download failed, so the resolver can pick the next step. */
export class DownloadError extends ArtifactError {
  constructor(
    message: string,
    readonly reason: DownloadFailure,
    readonly url: string,
    options: KwoktsErrorOptions = {},
  ) {
    super(message, options);
  }
}

function tuningOf(ctx: DownloadContext): DownloadTuning {
  return { ...DEFAULT_DOWNLOAD_TUNING, ...ctx.tuning };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function abortReason(signal: AbortSignal, url: string): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return reason;
  return new DownloadError(`download of ${url} was aborted`, 'aborted', url);
}

/** Sleeps, waking early (and throwing the abort reason) when the signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new ArtifactError('aborted'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new ArtifactError('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const UNREACHABLE_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ECONNREFUSED', 'ENETUNREACH', 'EHOSTUNREACH', 'EAI_FAIL', 'EAI_NONAME']);
const CONNECT_EVENTS = new Set(['lookup', 'connect', 'secureConnect']);

/**
 * got (and its dozen dependencies) is loaded on the first download, not when the CLI starts:
 * a create with every binary cached never needs it, and importing it cost ~0.1 s of start-up.
 */
let gotModule: typeof GotModule | undefined;
async function loadGot(): Promise<typeof GotModule> {
  // Downloads trust the default roots, NODE_EXTRA_CA_CERTS's among them, as Node itself would.
  await ensureExtraCaTrust();
  gotModule ??= await import('got');
  return gotModule;
}

/** Maps whatever a request threw to a DownloadError, deciding whether another attempt may help. */
function classify(error: unknown, url: string, signal?: AbortSignal): { error: DownloadError | Error; retryable: boolean } {
  if (signal?.aborted) return { error: abortReason(signal, url), retryable: false };
  if (error instanceof DownloadError) return { error, retryable: error.reason === 'network' };
  // got is loaded by then: only its own requests throw its error classes.
  const lib = gotModule;
  if (lib && error instanceof lib.HTTPError) {
    const status = error.response.statusCode;
    const reason: DownloadFailure = status === 404 || status === 410 ? 'not-found' : 'http';
    const retryable = status >= 500 || status === 408 || status === 429;
    return { error: new DownloadError(`GET ${url}: HTTP ${status}`, reason, url, { cause: error }), retryable };
  }
  if (lib && error instanceof lib.TimeoutError) {
    if (CONNECT_EVENTS.has(error.event)) {
      return { error: new DownloadError(`cannot connect to ${hostOf(url)} (${error.event} timed out)`, 'unreachable', url, { cause: error }), retryable: false };
    }
    return { error: new DownloadError(`GET ${url}: ${error.event} timed out`, 'network', url, { cause: error }), retryable: true };
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) {
    return { error: new DownloadError(`cannot reach ${hostOf(url)} (${code})`, 'unreachable', url, { cause: error }), retryable: false };
  }
  if ((lib && error instanceof lib.RequestError) || (error instanceof Error && typeof code === 'string')) {
    const detail = typeof code === 'string' ? `${error instanceof Error ? error.message : String(error)} (${code})` : String(error);
    return { error: new DownloadError(`GET ${url}: ${detail}`, 'network', url, { cause: error }), retryable: true };
  }
  return { error: error instanceof Error ? error : new Error(String(error)), retryable: false };
}

/** Runs `attempt` with backoff retries for retryable failures; records unreachable hosts. */
async function withRetries<T>(url: string, ctx: DownloadContext, attempt: () => Promise<T>): Promise<T> {
  const tuning = tuningOf(ctx);
  const logger = ctx.logger ?? silentLogger;
  const host = hostOf(url);
  for (let n = 0; ; n++) {
    if (ctx.unreachableHosts?.has(host)) {
      throw new DownloadError(`${host} could not be reached earlier in this run`, 'unreachable', url);
    }
    try {
      return await attempt();
    } catch (raw) {
      const { error, retryable } = classify(raw, url, ctx.signal);
      if (error instanceof DownloadError && error.reason === 'unreachable') ctx.unreachableHosts?.add(host);
      if (!retryable || n >= tuning.retries) throw error;
      const delay = Math.min(8000, tuning.retryBaseDelayMs * 2 ** n) * (0.75 + Math.random() * 0.5);
      logger.debug(`${error.message}; retrying in ${Math.round(delay)}ms (attempt ${n + 2} of ${tuning.retries + 1})`);
      await sleep(delay, ctx.signal);
    }
  }
}

function requestOptions(ctx: DownloadContext) {
  const t = tuningOf(ctx);
  return {
    timeout: {
      lookup: t.connectTimeoutMs,
      connect: t.connectTimeoutMs,
      secureConnect: t.connectTimeoutMs,
      send: t.idleTimeoutMs,
      response: t.idleTimeoutMs,
      socket: t.idleTimeoutMs,
    },
    retry: { limit: 0 },
    // Hash exactly the bytes the server published, not a transparently decompressed body.
    decompress: false,
    headers: { 'user-agent': 'kwokts' },
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
}

/** Fetches a small text file (a checksum), with the same timeouts and retries as downloads. */
export async function fetchText(url: string, ctx: DownloadContext = {}): Promise<string> {
  const { default: got } = await loadGot();
  return withRetries(url, ctx, () => got(url, requestOptions(ctx)).text());
}

/**
 * The SHA-256 for `fileName` in a checksum file: either a single hash (`<hex>` or `<hex>  name`) or a
 * `sha256sum`-style list. Undefined when it is not there.
 */
export function parseChecksum(text: string, fileName?: string): string | undefined {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  const entries = lines.map((l) => /^([0-9a-fA-F]{64})(?:\s+\*?(.+))?$/.exec(l)).filter((m): m is RegExpExecArray => m !== null);
  if (fileName !== undefined) {
    const hit = entries.find((m) => m[2] !== undefined && path.posix.basename(m[2].trim()) === fileName);
    if (hit) return hit[1]!.toLowerCase();
  }
  if (entries.length === 1 && (fileName === undefined || entries[0]![2] === undefined)) return entries[0]![1]!.toLowerCase();
  return undefined;
}

/** The expected SHA-256 for a download, or undefined when an optional checksum file is missing. */
async function expectedChecksum(spec: ChecksumSpec, fileName: string, ctx: DownloadContext): Promise<string | undefined> {
  const logger = ctx.logger ?? silentLogger;
  let text: string;
  try {
    text = await fetchText(spec.url, ctx);
  } catch (error) {
    if (!spec.required && error instanceof DownloadError && error.reason === 'not-found') {
      logger.debug(`no checksum at ${spec.url}; not verifying`);
      return undefined;
    }
    throw error;
  }
  const sum = parseChecksum(text, spec.fileName ?? fileName);
  if (sum === undefined) {
    if (!spec.required) {
      logger.debug(`${spec.url} has no checksum for ${spec.fileName ?? fileName}; not verifying`);
      return undefined;
    }
    throw new DownloadError(`${spec.url} lists no SHA-256 for ${spec.fileName ?? fileName}`, 'checksum', spec.url);
  }
  return sum;
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

async function removeQuietly(file: string): Promise<void> {
  await rm(file, { force: true, recursive: true }).catch(() => undefined);
}

/** fsync a file (by path) and, best effort, its directory, so a rename survives a crash. */
async function syncFile(file: string): Promise<void> {
  const fh = await open(file, 'r+');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // Not every platform can fsync a directory; the rename is still atomic.
  }
}

/**
 * Removes temp files/dirs a killed run left for `dest` (`.<name>.<pid>.<rand>.tmp`,
 * `.extract-<name>-*`). Only called while holding `dest`'s lock, so no live writer owns them.
 */
export async function removeStaleTemps(dest: string): Promise<void> {
  const dir = path.dirname(dest);
  const base = path.basename(dest);
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if ((entry.startsWith(`.${base}.`) && entry.endsWith('.tmp')) || entry.startsWith(`.extract-${base}-`)) {
      await removeQuietly(path.join(dir, entry));
    }
  }
}

function tempName(dest: string): string {
  return path.join(path.dirname(dest), `.${path.basename(dest)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Holds `<target>.lock` while `fn` runs. Waits (polling, abortable) while another process holds
 * it; a holder that died is taken over once its lock goes stale.
 */
export async function withFileLock<T>(target: string, ctx: DownloadContext, fn: () => Promise<T>): Promise<T> {
  const tuning = tuningOf(ctx);
  const logger = ctx.logger ?? silentLogger;
  await mkdir(path.dirname(target), { recursive: true });
  const deadline = Date.now() + tuning.lockWaitMs;
  let compromised: Error | undefined;
  let waited = false;
  let release: (() => Promise<void>) | undefined;
  for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
    try {
      release = await lock(target, {
        realpath: false,
        lockfilePath: `${target}.lock`,
        stale: tuning.lockStaleMs,
        retries: 0,
        onCompromised: (err) => {
          compromised = err;
        },
      });
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== 'ELOCKED') throw error;
      if (Date.now() >= deadline) {
        throw new ArtifactError(`timed out waiting for another kwokts to finish with ${target}`, {
          hint: `if no other kwokts is running, remove ${target}.lock`,
        });
      }
      if (!waited) {
        waited = true;
        // Not necessarily another process: two artifacts of one archive (etcd, etcdctl) wait on one lock.
        logger.info(`waiting for the download in progress of ${path.basename(target)}`);
        ctx.onProgress?.({ type: 'wait-lock', path: target });
      }
      await sleep(delay, ctx.signal);
    }
  }
  try {
    const result = await fn();
    if (compromised) logger.warn(`lock on ${target} was lost while working: ${compromised.message}`);
    return result;
  } finally {
    await release().catch(() => undefined);
  }
}

export interface DownloadFileOptions {
  /** Mode of the final file (0755 for binaries, 0644 for archives). */
  mode: number;
  checksum?: ChecksumSpec;
  /** A known SHA-256, instead of (or in addition to) a checksum file. */
  sha256?: string;
}

export interface DownloadResult {
  path: string;
  /** False when the file was already there (cache hit, or another process fetched it meanwhile). */
  fetched: boolean;
}

/** One attempt: stream to a fresh temp file, hash on the way, verify, then rename into place. */
async function downloadOnce(url: string, dest: string, expected: string | undefined, mode: number, ctx: DownloadContext): Promise<void> {
  const tmp = tempName(dest);
  const hash = createHash('sha256');
  let transferred = 0;
  let total: number | undefined;
  let lastEmit = 0;
  let lastPercent = -1;
  const emit = (done: boolean): void => {
    if (!ctx.onProgress) return;
    const percent = total ? Math.min(1, transferred / total) : 0;
    const now = Date.now();
    if (!done && now - lastEmit < 250 && percent - lastPercent < 0.05) return;
    lastEmit = now;
    lastPercent = percent;
    ctx.onProgress({ type: 'download', ...(ctx.name ? { name: ctx.name } : {}), url, transferred, ...(total !== undefined ? { total } : {}), percent, done });
  };
  let file: FileHandle | undefined;
  try {
    const { default: got } = await loadGot();
    // The temp file is created before the request: a write stream that opens its file itself may
    // finish opening after a failed request (a 404) has ended the pipeline and the unlink below
    // has run, and leave the file behind (seen on a loaded machine). It is opened before the
    // request starts, so that no error of the request comes before the pipeline listens.
    file = await open(tmp, 'wx', 0o600);
    const stream = got.stream(url, requestOptions(ctx));
    stream.on('response', (response: { headers: Record<string, string | string[] | undefined> }) => {
      const length = Number(response.headers['content-length']);
      if (Number.isFinite(length) && length >= 0) total = length;
    });
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        transferred += chunk.length;
        emit(false);
        callback(null, chunk);
      },
    });
    await pipeline(stream, counter, file.createWriteStream());
    if (total !== undefined && transferred !== total) {
      throw new DownloadError(`GET ${url}: connection closed after ${transferred} of ${total} bytes`, 'network', url);
    }
    const actual = hash.digest('hex');
    if (expected !== undefined && actual !== expected.toLowerCase()) {
      throw new DownloadError(`checksum mismatch for ${url}: expected sha256 ${expected.toLowerCase()}, got ${actual}`, 'checksum', url, {
        hint: 'the download or the mirror is corrupt or has been tampered with; nothing was kept, try again or use another source',
      });
    }
    await syncFile(tmp);
    await chmod(tmp, mode);
    await rename(tmp, dest);
    await syncDir(path.dirname(dest));
    emit(true);
  } finally {
    // Closed already by the write stream, unless the request could not even start.
    await file?.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
  }
}

/**
 * Downloads `url` to `dest` unless it is already there. Safe against interruption (temp file +
 * rename) and concurrency (lock on `dest`). Throws DownloadError.
 */
export async function downloadFile(url: string, dest: string, options: DownloadFileOptions, ctx: DownloadContext = {}): Promise<DownloadResult> {
  if (await exists(dest)) return { path: dest, fetched: false };
  const logger = ctx.logger ?? silentLogger;
  return withFileLock(dest, ctx, async () => {
    if (await exists(dest)) return { path: dest, fetched: false };
    await removeStaleTemps(dest);
    let expected = options.sha256;
    if (expected === undefined && options.checksum) {
      expected = await expectedChecksum(options.checksum, path.posix.basename(new URL(url).pathname), ctx);
    }
    if (expected === undefined) {
      // Said once per download, so an unverified binary never goes unnoticed.
      logger.warn(
        options.checksum
          ? `not verifying ${url}: ${options.checksum.url} has no SHA-256 for it (append #sha256=<hex> to an explicit URL to pin one)`
          : `not verifying ${url}: no SHA-256 is known for it (append #sha256=<hex> to the URL to pin one)`,
      );
    }
    logger.debug(`downloading ${url} to ${dest}`);
    await withRetries(url, ctx, () => downloadOnce(url, dest, expected, options.mode, ctx));
    return { path: dest, fetched: true };
  });
}

async function findFile(dir: string, name: string): Promise<string | undefined> {
  // Breadth first: the shallowest match wins.
  let level = [dir];
  while (level.length > 0) {
    const next: string[] = [];
    for (const d of level) {
      for (const entry of await readdir(d, { withFileTypes: true })) {
        const full = path.join(d, entry.name);
        if (entry.isFile() && entry.name === name) return full;
        if (entry.isDirectory()) next.push(full);
      }
    }
    level = next;
  }
  return undefined;
}

/**
 * Extracts the file named `member` (at any depth: leading directories are dropped) from a tar
 * archive (.tar, .tar.gz, .tgz) to `dest`, mode 0755, atomically and under a lock.
 */
export async function extractMember(archive: string, member: string, dest: string, ctx: DownloadContext = {}): Promise<DownloadResult> {
  if (await exists(dest)) return { path: dest, fetched: false };
  const name = path.posix.basename(member);
  if (/\.zip$/i.test(archive)) {
    throw new DownloadError(`cannot extract ${name} from ${archive}: zip archives are not supported`, 'archive', archive, {
      hint: 'extract the binary yourself and pass its path',
    });
  }
  return withFileLock(dest, ctx, async () => {
    if (await exists(dest)) return { path: dest, fetched: false };
    await removeStaleTemps(dest);
    ctx.onProgress?.({ type: 'extract', archive, member: name });
    const tmpDir = await mkdtemp(path.join(path.dirname(dest), `.extract-${path.basename(dest)}-`));
    try {
      try {
        // Loaded here: only an archive that is not extracted yet needs it, and a create with the
        // binaries cached should not pay for loading it.
        const { x: untar } = await import('tar');
        await untar({
          file: archive,
          cwd: tmpDir,
          filter: (entryPath: string, entry: Stats | { type?: string }) =>
            path.posix.basename(entryPath) === name && (!('type' in entry) || entry.type === 'File' || entry.type === 'OldFile' || entry.type === 'ContiguousFile'),
        });
      } catch (error) {
        throw new DownloadError(`cannot read archive ${archive}: ${(error as Error).message}`, 'archive', archive, { cause: error });
      }
      const found = await findFile(tmpDir, name);
      if (!found) throw new DownloadError(`archive ${archive} has no member ${name}`, 'archive', archive);
      await syncFile(found);
      await chmod(found, 0o755);
      await rename(found, dest);
      await syncDir(path.dirname(dest));
      return { path: dest, fetched: true };
    } finally {
      await removeQuietly(tmpDir);
    }
  });
}

/** The SHA-256 of a file, streamed. */
export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * A pinned SHA-256 holds for the cached copy too: a file cached from the same URL before the pin
 * (or altered since) must not pass unnoticed. An extracted member whose archive is gone cannot
 * be checked; that is said.
 */
async function verifyCachedDownload(candidate: DownloadCandidate, expected: string, ctx: DownloadContext): Promise<void> {
  if (!(await exists(candidate.downloadPath))) {
    (ctx.logger ?? silentLogger).warn(`not verifying ${candidate.path} against #sha256=: the cached ${candidate.downloadPath} it came from is gone (remove ${candidate.path} to download and verify again)`);
    return;
  }
  const actual = await sha256OfFile(candidate.downloadPath);
  if (actual !== expected) {
    throw new DownloadError(`checksum mismatch for the cached ${candidate.downloadPath} (from ${candidate.url}): expected sha256 ${expected}, got ${actual}`, 'checksum', candidate.url, {
      hint: `check the #sha256= you gave; if it is right, the cached file is not what the URL served then: remove ${candidate.downloadPath}${candidate.member ? ` and ${candidate.path}` : ''} to download it again`,
    });
  }
}

/** Makes a download candidate's binary present in the cache: download, then extract its member. */
export async function ensureDownloaded(candidate: DownloadCandidate, ctx: DownloadContext = {}): Promise<DownloadResult> {
  if (candidate.sha256 && ((await exists(candidate.path)) || (await exists(candidate.downloadPath)))) await verifyCachedDownload(candidate, candidate.sha256, ctx);
  if (await exists(candidate.path)) return { path: candidate.path, fetched: false };
  const fileOptions: DownloadFileOptions = {
    mode: candidate.member ? 0o644 : 0o755,
    ...(candidate.checksum ? { checksum: candidate.checksum } : {}),
    ...(candidate.sha256 ? { sha256: candidate.sha256 } : {}),
  };
  const downloaded = await downloadFile(candidate.url, candidate.downloadPath, fileOptions, ctx);
  if (!candidate.member) return downloaded;
  const extracted = await extractMember(candidate.downloadPath, candidate.member, candidate.path, ctx);
  return { path: extracted.path, fetched: downloaded.fetched || extracted.fetched };
}

/** Extracts a member of a local archive into the cache. */
export async function ensureExtracted(candidate: ExtractCandidate, ctx: DownloadContext = {}): Promise<DownloadResult> {
  await checkLocalFile(candidate.archive, false);
  return extractMember(candidate.archive, candidate.member, candidate.path, ctx);
}

async function checkLocalFile(file: string, executable: boolean): Promise<void> {
  let info: Stats;
  try {
    info = await stat(file);
  } catch {
    throw new PreflightError(`${file} does not exist`, { hint: 'check the path given for the binary' });
  }
  if (!info.isFile()) throw new PreflightError(`${file} is not a regular file`, { hint: 'pass the path of the binary itself' });
  if (executable) {
    try {
      await access(file, fsConstants.X_OK);
    } catch {
      throw new PreflightError(`${file} is not executable`, { hint: `chmod +x ${file}` });
    }
  }
}

/** A local binary used as is: it must exist, be a regular file (symlinks followed) and be executable. */
export async function checkLocalBinary(file: string): Promise<void> {
  await checkLocalFile(file, true);
}
