import assert from 'node:assert/strict';
import { readFile, stat, writeFile, chmod, mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  checkLocalBinary,
  DownloadError,
  downloadFile,
  downloadTuningFromEnv,
  ensureDownloaded,
  extractMember,
  parseChecksum,
  parseDurationMs,
  type DownloadContext,
} from '../../../src/artifacts/download.js';
import type { ArtifactProgressEvent } from '../../../src/artifacts/progress.js';
import { cachePathForUrl, memberCachePath, type DownloadCandidate } from '../../../src/artifacts/sources.js';
import { PreflightError } from '../../../src/util/errors.js';
import { createLogger, LogLevel } from '../../../src/util/log.js';
import { listFiles, makeTarGz, randomBinary, serveBytes, serveInterrupted, serveSlowly, sha256, startServer, tempDir, type TestServer } from './helpers.js';

const fast: DownloadContext['tuning'] = { connectTimeoutMs: 2000, idleTimeoutMs: 2000, retries: 0, retryBaseDelayMs: 10 };

let server: TestServer;
let tmp: { dir: string; cleanup: () => Promise<void> };
const binary = randomBinary();
const etcdBin = Buffer.from('#!/bin/sh\necho "etcd Version: 3.6.10"\n');
const etcdctlBin = Buffer.from('#!/bin/sh\necho "etcdctl version: 3.6.10"\n');
let tarball: Buffer;

before(async () => {
  server = await startServer();
  tmp = await tempDir();
  const tarFile = await makeTarGz(tmp.dir, 'etcd-v3.6.10-linux-amd64.tar.gz', 'etcd-v3.6.10-linux-amd64', { etcd: etcdBin, etcdctl: etcdctlBin });
  tarball = await readFile(tarFile);
  server.route('/bin/kube-apiserver', serveBytes(binary));
  server.route('/bin/kube-apiserver.sha256', serveBytes(`${sha256(binary)}\n`));
  server.route('/bad/kube-apiserver', serveBytes(binary));
  server.route('/pinned/kube-apiserver', serveBytes(binary));
  server.route('/bad/kube-apiserver.sha256', serveBytes(`${'0'.repeat(64)}\n`));
  server.route('/etcd/etcd-v3.6.10-linux-amd64.tar.gz', serveBytes(tarball));
  server.route('/etcd/SHA256SUMS', serveBytes(`${'1'.repeat(64)}  etcd-v3.6.10-darwin-arm64.zip\n${sha256(tarball)}  etcd-v3.6.10-linux-amd64.tar.gz\n`));
  server.route('/slow/kubectl', serveSlowly(binary));
  server.route('/slow/abort', serveSlowly(binary));
  server.route('/flaky-once/file', serveInterrupted(binary, 1));
  server.route('/flaky-always/file', serveInterrupted(binary, 1000));
  server.route('/error-once/file', (_req, res, hit) => {
    if (hit === 1) {
      res.statusCode = 503;
      res.end('busy');
      return;
    }
    serveBytes(binary)(_req, res, hit);
  });
});

after(async () => {
  await server.close();
  await tmp.cleanup();
});

async function freshCache(): Promise<string> {
  const dir = path.join(tmp.dir, `cache-${Math.random().toString(36).slice(2)}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

describe('downloadFile', () => {
  it('downloads, verifies the published checksum, and installs 0755 with nothing else left', async () => {
    const cache = await freshCache();
    const url = `${server.url}/bin/kube-apiserver`;
    const dest = cachePathForUrl(cache, url);
    const events: ArtifactProgressEvent[] = [];
    const result = await downloadFile(url, dest, { mode: 0o755, checksum: { url: `${url}.sha256`, required: true } }, { tuning: fast, onProgress: (e) => events.push(e), name: 'kube-apiserver' });
    assert.deepEqual(result, { path: dest, fetched: true });
    assert.ok((await readFile(dest)).equals(binary));
    assert.equal((await stat(dest)).mode & 0o777, 0o755);
    assert.deepEqual(await listFiles(cache), [path.relative(cache, dest)]);
    const last = events.at(-1);
    assert.ok(last?.type === 'download' && last.done && last.transferred === binary.length && last.percent === 1 && last.name === 'kube-apiserver');

    // Second call: cache hit, no request.
    const before = server.hits.get('/bin/kube-apiserver');
    assert.deepEqual(await downloadFile(url, dest, { mode: 0o755 }, { tuning: fast }), { path: dest, fetched: false });
    assert.equal(server.hits.get('/bin/kube-apiserver'), before);
  });

  it('rejects a checksum mismatch, naming URL, expected and actual hash, and keeps nothing', async () => {
    const cache = await freshCache();
    const url = `${server.url}/bad/kube-apiserver`;
    const dest = cachePathForUrl(cache, url);
    await assert.rejects(
      downloadFile(url, dest, { mode: 0o755, checksum: { url: `${url}.sha256`, required: true } }, { tuning: fast }),
      (error: unknown) => {
        assert.ok(error instanceof DownloadError);
        assert.equal(error.reason, 'checksum');
        assert.match(error.message, new RegExp(url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
        assert.match(error.message, new RegExp(`expected sha256 ${'0'.repeat(64)}`));
        assert.match(error.message, new RegExp(sha256(binary)));
        return true;
      },
    );
    assert.deepEqual(await listFiles(cache), [], 'no file, temp file or lock left');
  });

  it('a download interrupted mid-body leaves no partial file', async () => {
    const cache = await freshCache();
    const url = `${server.url}/flaky-always/file`;
    const dest = cachePathForUrl(cache, url);
    await assert.rejects(downloadFile(url, dest, { mode: 0o755 }, { tuning: { ...fast, retries: 1 } }), (error: unknown) => {
      assert.ok(error instanceof DownloadError);
      assert.equal(error.reason, 'network');
      return true;
    });
    assert.equal(server.hits.get('/flaky-always/file'), 2, 'one retry');
    assert.deepEqual(await listFiles(cache), []);
  });

  it('retries after an interruption and then succeeds', async () => {
    const cache = await freshCache();
    const url = `${server.url}/flaky-once/file`;
    const dest = cachePathForUrl(cache, url);
    const result = await downloadFile(url, dest, { mode: 0o755 }, { tuning: { ...fast, retries: 2 } });
    assert.equal(result.fetched, true);
    assert.ok((await readFile(dest)).equals(binary));
    assert.equal(server.hits.get('/flaky-once/file'), 2);
    assert.deepEqual(await listFiles(cache), [path.relative(cache, dest)]);
  });

  it('retries a 5xx answer', async () => {
    const cache = await freshCache();
    const url = `${server.url}/error-once/file`;
    await downloadFile(url, cachePathForUrl(cache, url), { mode: 0o755 }, { tuning: { ...fast, retries: 1 } });
    assert.equal(server.hits.get('/error-once/file'), 2);
  });

  it('does not retry a 404, and says it was not found', async () => {
    const cache = await freshCache();
    const url = `${server.url}/nothing/here`;
    await assert.rejects(downloadFile(url, cachePathForUrl(cache, url), { mode: 0o755 }, { tuning: { ...fast, retries: 3 } }), (error: unknown) => {
      assert.ok(error instanceof DownloadError);
      assert.equal(error.reason, 'not-found');
      return true;
    });
    assert.equal(server.hits.get('/nothing/here'), 1);
    assert.deepEqual(await listFiles(cache), []);
  });

  it('fails fast on an unreachable host and remembers it', async () => {
    // A port that was free a moment ago: connection refused.
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const cache = await freshCache();
    const unreachableHosts = new Set<string>();
    const url = `http://127.0.0.1:${port}/x`;
    const started = Date.now();
    await assert.rejects(downloadFile(url, cachePathForUrl(cache, url), { mode: 0o755 }, { tuning: { ...fast, retries: 3, retryBaseDelayMs: 1000 }, unreachableHosts }), (error: unknown) => {
      assert.ok(error instanceof DownloadError);
      assert.equal(error.reason, 'unreachable');
      return true;
    });
    assert.ok(Date.now() - started < 900, 'no retries with backoff');
    assert.ok(unreachableHosts.has(`127.0.0.1:${port}`));
    await assert.rejects(downloadFile(`http://127.0.0.1:${port}/y`, path.join(cache, 'y'), { mode: 0o755 }, { tuning: fast, unreachableHosts }), /could not be reached earlier/);
  });

  it('an aborted download stops at once and leaves no partial file; a later run cleans up a killed run\'s temp file', async () => {
    const cache = await freshCache();
    const url = `${server.url}/slow/abort`;
    const dest = cachePathForUrl(cache, url);
    const controller = new AbortController();
    await assert.rejects(
      downloadFile(url, dest, { mode: 0o755 }, { tuning: fast, signal: controller.signal, onProgress: (e) => e.type === 'download' && e.transferred > 0 && controller.abort() }),
      (e: unknown) => e instanceof DownloadError && e.reason === 'aborted',
    );
    assert.deepEqual(await listFiles(cache), []);
    // As if a run was SIGKILLed mid-download: its temp file stays behind until the next run.
    const leftover = path.join(path.dirname(dest), '.abort.99999.deadbeef.tmp');
    await writeFile(leftover, 'partial');
    await downloadFile(url, dest, { mode: 0o755 }, { tuning: fast });
    assert.deepEqual(await listFiles(cache), [path.relative(cache, dest)]);
  });

  it('two concurrent downloads of one file: one fetch, one intact file', async () => {
    const cache = await freshCache();
    const url = `${server.url}/slow/kubectl`;
    const dest = cachePathForUrl(cache, url);
    const waits: string[] = [];
    // Either may take the lock first (on a busy machine the second call can win): exactly one waits.
    const onProgress = (e: { type: string; path?: string }): void => {
      if (e.type === 'wait-lock') waits.push(e.path ?? '');
    };
    const [a, b] = await Promise.all([
      downloadFile(url, dest, { mode: 0o755 }, { tuning: fast, onProgress }),
      downloadFile(url, dest, { mode: 0o755 }, { tuning: fast, onProgress }),
    ]);
    assert.equal(server.hits.get('/slow/kubectl'), 1);
    assert.equal(waits.length, 1, 'one of them waited for the lock');
    assert.deepEqual([a.fetched, b.fetched].sort(), [false, true]);
    assert.ok((await readFile(dest)).equals(binary));
    assert.deepEqual(await listFiles(cache), [path.relative(cache, dest)]);
  });
});

describe('archives', () => {
  it('downloads the tarball once (checked against SHA256SUMS) and extracts each #member', async () => {
    const cache = await freshCache();
    const url = `${server.url}/etcd/etcd-v3.6.10-linux-amd64.tar.gz`;
    const downloadPath = cachePathForUrl(cache, url);
    const candidate = (member: string): DownloadCandidate => ({
      type: 'download',
      source: 'prefix',
      url,
      member,
      downloadPath,
      path: memberCachePath(downloadPath, member),
      checksum: { url: `${server.url}/etcd/SHA256SUMS`, fileName: 'etcd-v3.6.10-linux-amd64.tar.gz', required: true },
      origin: `${url}#${member}`,
    });
    const hitsBefore = server.hits.get('/etcd/etcd-v3.6.10-linux-amd64.tar.gz') ?? 0;
    const [etcd, etcdctl] = await Promise.all([ensureDownloaded(candidate('etcd'), { tuning: fast }), ensureDownloaded(candidate('etcdctl'), { tuning: fast })]);
    assert.equal((server.hits.get('/etcd/etcd-v3.6.10-linux-amd64.tar.gz') ?? 0) - hitsBefore, 1);
    assert.equal(etcd.path, path.join(path.dirname(downloadPath), 'etcd-v3.6.10-linux-amd64', 'etcd'));
    assert.ok((await readFile(etcd.path)).equals(etcdBin));
    assert.ok((await readFile(etcdctl.path)).equals(etcdctlBin));
    assert.equal((await stat(etcd.path)).mode & 0o777, 0o755);
    assert.deepEqual(await listFiles(path.dirname(downloadPath)), ['etcd-v3.6.10-linux-amd64.tar.gz', 'etcd-v3.6.10-linux-amd64/etcd', 'etcd-v3.6.10-linux-amd64/etcdctl']);
  });

  it('reports a missing member and leaves no temp directory', async () => {
    const cache = await freshCache();
    const archive = await makeTarGz(cache, 'a.tar.gz', 'top', { etcd: etcdBin });
    const dest = path.join(cache, 'out', 'etcdutl');
    await assert.rejects(extractMember(archive, 'etcdutl', dest), /has no member etcdutl/);
    assert.deepEqual(await listFiles(path.join(cache, 'out')), []);
  });

  it('rejects an archive whose checksum is not the published one', async () => {
    const cache = await freshCache();
    const url = `${server.url}/etcd/etcd-v3.6.10-linux-amd64.tar.gz`;
    const downloadPath = cachePathForUrl(cache, url);
    await assert.rejects(
      ensureDownloaded(
        { type: 'download', source: 'download', url, member: 'etcd', downloadPath, path: memberCachePath(downloadPath, 'etcd'), checksum: { url: `${server.url}/etcd/SHA256SUMS`, fileName: 'etcd-v3.6.10-darwin-arm64.zip', required: true }, origin: url },
        { tuning: fast },
      ),
      (e: unknown) => e instanceof DownloadError && e.reason === 'checksum',
    );
    assert.deepEqual(await listFiles(cache), []);
  });
});

describe('a SHA-256 pinned by the user (#sha256=) and downloads nothing verified', () => {
  const capture = (): { logger: ReturnType<typeof createLogger>; warnings: string[] } => {
    const warnings: string[] = [];
    return { logger: createLogger(LogLevel.WARN, (line) => warnings.push(line)), warnings };
  };
  const candidate = (cache: string, route: string, sha?: string, member?: string): DownloadCandidate => {
    const url = `${server.url}${route}`;
    const downloadPath = cachePathForUrl(cache, url);
    return {
      type: 'download',
      source: 'explicit',
      url,
      downloadPath,
      path: member ? memberCachePath(downloadPath, member) : downloadPath,
      ...(member ? { member } : {}),
      ...(sha ? { sha256: sha } : {}),
      origin: url,
    };
  };

  it('a download matching the pinned SHA-256 is kept, with no warning', async () => {
    const cache = await freshCache();
    const { logger, warnings } = capture();
    const result = await ensureDownloaded(candidate(cache, '/pinned/kube-apiserver', sha256(binary)), { tuning: fast, logger });
    assert.equal(result.fetched, true);
    assert.ok((await readFile(result.path)).equals(binary));
    assert.deepEqual(warnings, []);
  });

  it('a download that does not match is refused and nothing is kept', async () => {
    const cache = await freshCache();
    await assert.rejects(ensureDownloaded(candidate(cache, '/pinned/kube-apiserver', 'f'.repeat(64)), { tuning: fast }), (error: unknown) => {
      assert.ok(error instanceof DownloadError);
      assert.equal(error.reason, 'checksum');
      assert.match(error.message, new RegExp(`expected sha256 ${'f'.repeat(64)}, got ${sha256(binary)}`));
      return true;
    });
    assert.deepEqual(await listFiles(cache), []);
  });

  it('an archive is checked before its member is extracted', async () => {
    const cache = await freshCache();
    const good = await ensureDownloaded(candidate(cache, '/etcd/etcd-v3.6.10-linux-amd64.tar.gz', sha256(tarball), 'etcd'), { tuning: fast });
    assert.ok((await readFile(good.path)).equals(etcdBin));
    const other = await freshCache();
    await assert.rejects(ensureDownloaded(candidate(other, '/etcd/etcd-v3.6.10-linux-amd64.tar.gz', sha256(binary), 'etcd'), { tuning: fast }), /checksum mismatch/);
    assert.deepEqual(await listFiles(other), []);
  });

  it('the pin also holds for a copy cached earlier: a cached file that differs is refused, a matching one is used without a request', async () => {
    const cache = await freshCache();
    const unpinned = candidate(cache, '/pinned/kube-apiserver');
    await ensureDownloaded(unpinned, { tuning: fast, logger: capture().logger });
    await writeFile(unpinned.downloadPath, 'tampered');
    await assert.rejects(ensureDownloaded(candidate(cache, '/pinned/kube-apiserver', sha256(binary)), { tuning: fast }), (error: unknown) =>
      error instanceof DownloadError && error.reason === 'checksum' && /cached/.test(error.message) && /remove/.test(error.hint ?? ''));
    await writeFile(unpinned.downloadPath, binary);
    const hits = server.hits.get('/pinned/kube-apiserver');
    assert.equal((await ensureDownloaded(candidate(cache, '/pinned/kube-apiserver', sha256(binary)), { tuning: fast })).fetched, false);
    assert.equal(server.hits.get('/pinned/kube-apiserver'), hits);
  });

  it('a download nothing can verify says so in one warning (no pin, or a mirror without its .sha256)', async () => {
    const cache = await freshCache();
    const explicit = capture();
    await ensureDownloaded(candidate(cache, '/pinned/kube-apiserver'), { tuning: fast, logger: explicit.logger });
    assert.equal(explicit.warnings.length, 1, explicit.warnings.join('\n'));
    assert.match(explicit.warnings[0]!, /not verifying http:\/\/127\.0\.0\.1:\d+\/pinned\/kube-apiserver: no SHA-256 is known for it \(append #sha256=<hex> to the URL to pin one\)/);
    const mirror = capture();
    const url = `${server.url}/pinned/kube-apiserver`;
    await downloadFile(url, cachePathForUrl(await freshCache(), url), { mode: 0o755, checksum: { url: `${url}.sha256`, required: false } }, { tuning: fast, logger: mirror.logger });
    assert.equal(mirror.warnings.length, 1, mirror.warnings.join('\n'));
    assert.match(mirror.warnings[0]!, /^.*not verifying http:\/\/\S+\/pinned\/kube-apiserver: \S+\/pinned\/kube-apiserver\.sha256 has no SHA-256 for it/);
    // A verified download and a cache hit say nothing.
    const quiet = capture();
    await downloadFile(`${server.url}/bin/kube-apiserver`, cachePathForUrl(await freshCache(), `${server.url}/bin/kube-apiserver`), { mode: 0o755, checksum: { url: `${server.url}/bin/kube-apiserver.sha256`, required: true } }, { tuning: fast, logger: quiet.logger });
    await ensureDownloaded(candidate(cache, '/pinned/kube-apiserver'), { tuning: fast, logger: quiet.logger });
    assert.deepEqual(quiet.warnings, []);
  });
});

describe('local binaries', () => {
  it('accepts an executable file and rejects missing, directory and non-executable paths', async () => {
    const dir = await freshCache();
    const good = path.join(dir, 'good');
    await writeFile(good, '#!/bin/sh\n');
    await chmod(good, 0o755);
    await checkLocalBinary(good);
    const plain = path.join(dir, 'plain');
    await writeFile(plain, 'x');
    await assert.rejects(checkLocalBinary(plain), (e: unknown) => e instanceof PreflightError && /not executable/.test(e.message));
    await assert.rejects(checkLocalBinary(path.join(dir, 'missing')), (e: unknown) => e instanceof PreflightError && /does not exist/.test(e.message));
    await assert.rejects(checkLocalBinary(dir), (e: unknown) => e instanceof PreflightError && /not a regular file/.test(e.message));
  });
});

describe('helpers', () => {
  it('parses single-hash and list checksum files', () => {
    const h = 'a'.repeat(64);
    assert.equal(parseChecksum(`${h}\n`), h);
    assert.equal(parseChecksum(`${h.toUpperCase()}  kubectl\n`, 'kubectl'), h);
    assert.equal(parseChecksum(`${'b'.repeat(64)}  x.tar.gz\n${h} *y.tar.gz\n`, 'y.tar.gz'), h);
    assert.equal(parseChecksum(`${'b'.repeat(64)}  x.tar.gz\n`, 'y.tar.gz'), undefined);
    assert.equal(parseChecksum('<html>not found</html>'), undefined);
  });

  it('reads KWOK_DOWNLOAD_TIMEOUT as a Go duration', () => {
    assert.equal(parseDurationMs('10s'), 10_000);
    assert.equal(parseDurationMs('1m30s'), 90_000);
    assert.equal(parseDurationMs('250ms'), 250);
    assert.equal(parseDurationMs('3'), 3000);
    assert.equal(parseDurationMs('soon'), undefined);
    assert.deepEqual(downloadTuningFromEnv({ KWOK_DOWNLOAD_TIMEOUT: '2s' }), { connectTimeoutMs: 2000, idleTimeoutMs: 30_000 });
    assert.deepEqual(downloadTuningFromEnv({ KWOK_DOWNLOAD_TIMEOUT: '45s', KWOK_DOWNLOAD_RETRIES: '0' }), { connectTimeoutMs: 45_000, idleTimeoutMs: 45_000, retries: 0 });
    assert.deepEqual(downloadTuningFromEnv({ KWOK_DOWNLOAD_TIMEOUT: 'bad' }), {});
  });
});
