import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { planArtifacts, resolveArtifacts, type ResolveArtifactsOptions } from '../../../src/artifacts/resolve.js';
import { ArtifactError, PreflightError } from '../../../src/util/errors.js';
import { makeFakeGo, makeTarGz, randomBinary, serveBytes, sha256, startServer, tempDir, type TestServer } from './helpers.js';

const linux = { os: 'linux', arch: 'amd64' };
// Upstream hosts are never contacted by these tests.
const offlineHosts = ['dl.k8s.io', 'github.com'];

let server: TestServer;
let tmp: { dir: string; cleanup: () => Promise<void> };
const apiserver = randomBinary(64 * 1024);
let n = 0;

before(async () => {
  server = await startServer();
  tmp = await tempDir();
  server.route('/mirror/kube-apiserver', serveBytes(apiserver));
  server.route('/bad/kube-apiserver', serveBytes(apiserver));
  server.route('/bad/kube-apiserver.sha256', serveBytes('f'.repeat(64)));
  const tar = await readFile(await makeTarGz(tmp.dir, 'etcd-v3.6.10-linux-amd64.tar.gz', 'etcd-v3.6.10-linux-amd64', { etcd: '#!/bin/sh\n', etcdctl: '#!/bin/sh\n' }));
  server.route('/etcd/etcd-v3.6.10-linux-amd64.tar.gz', serveBytes(tar));
  server.route('/etcd/SHA256SUMS', serveBytes(`${sha256(tar)}  etcd-v3.6.10-linux-amd64.tar.gz\n`));
});

after(async () => {
  await server.close();
  await tmp.cleanup();
});

function options(extra: Partial<ResolveArtifactsOptions> = {}): ResolveArtifactsOptions {
  return {
    cacheDir: path.join(tmp.dir, `cache-${++n}`),
    platform: linux,
    offlineHosts,
    go: path.join(tmp.dir, 'no-go-here'),
    download: { connectTimeoutMs: 2000, idleTimeoutMs: 2000, retries: 0 },
    ...extra,
  };
}

async function seed(file: string, content = '#!/bin/sh\n'): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  await chmod(file, 0o755);
}

describe('resolveArtifacts', () => {
  it('downloads from a prefix mirror (no checksum published there) and reports the source', async () => {
    const opts = options();
    const [a] = await resolveArtifacts([{ name: 'kube-apiserver', binaryPrefix: `${server.url}/mirror`, platform: linux }], opts);
    assert.deepEqual(a, {
      name: 'kube-apiserver',
      version: 'v1.36.1',
      path: path.join(opts.cacheDir, 'http', server.host, 'mirror', 'kube-apiserver'),
      source: 'prefix',
      origin: `${server.url}/mirror/kube-apiserver`,
    });
    assert.ok((await readFile(a.path)).equals(apiserver));
    // Again: served from the cache.
    const [b] = await resolveArtifacts([{ name: 'kube-apiserver', binaryPrefix: `${server.url}/mirror`, platform: linux }], opts);
    assert.equal(b?.source, 'cache');
  });

  it('a 404 moves on to the next candidate (the cached upstream download)', async () => {
    const opts = options();
    const cached = path.join(opts.cacheDir, 'https/dl.k8s.io/release/v1.36.1/bin/linux/amd64/kube-scheduler');
    await seed(cached);
    const before = server.hits.get('/nope/kube-scheduler') ?? 0;
    const [a] = await resolveArtifacts([{ name: 'kube-scheduler', binaryPrefix: `${server.url}/nope`, platform: linux }], opts);
    assert.equal((server.hits.get('/nope/kube-scheduler') ?? 0) - before, 1);
    assert.deepEqual({ source: a?.source, path: a?.path }, { source: 'cache', path: cached });
    assert.equal(a?.origin, 'https://dl.k8s.io/release/v1.36.1/bin/linux/amd64/kube-scheduler');
  });

  it('extracts etcd members from a mirrored release tarball', async () => {
    const opts = options();
    const out = await resolveArtifacts(
      (['etcd', 'etcdctl'] as const).map((name) => ({ name, binaryPrefix: `${server.url}/etcd`, platform: linux })),
      opts,
    );
    assert.deepEqual(out.map((a) => [a.name, a.source, a.version, path.basename(a.path)]), [
      ['etcd', 'prefix', 'v3.6.10', 'etcd'],
      ['etcdctl', 'prefix', 'v3.6.10', 'etcdctl'],
    ]);
  });

  it('uses file:// URLs and local paths in place', async () => {
    const bin = path.join(tmp.dir, 'local', 'kubectl');
    await seed(bin);
    const opts = options();
    const [a, b] = await resolveArtifacts(
      [
        { name: 'kubectl', binary: bin },
        { name: 'kube-apiserver', binary: `file://${bin}` },
      ],
      opts,
    );
    assert.deepEqual(a, { name: 'kubectl', version: 'v1.36.1', path: bin, source: 'path', origin: bin });
    assert.equal(b?.path, bin);
    assert.equal(b?.source, 'path');
  });

  it('a bad explicit value is a PreflightError naming the flag, with no fallback', async () => {
    await assert.rejects(resolveArtifacts([{ name: 'kube-apiserver', binary: path.join(tmp.dir, 'missing') }], options()), (e: unknown) => {
      assert.ok(e instanceof PreflightError);
      assert.match(e.message, /does not exist/);
      assert.match(e.hint ?? '', /--kube-apiserver-binary/);
      return true;
    });
  });

  it('a checksum mismatch stops resolution instead of trying elsewhere', async () => {
    const opts = options();
    await seed(path.join(opts.cacheDir, 'https/dl.k8s.io/release/v1.36.1/bin/linux/amd64/kube-apiserver'));
    await assert.rejects(
      resolveArtifacts([{ name: 'kube-apiserver', binaryPrefix: `${server.url}/bad`, platform: linux }], opts),
      (e: unknown) => e instanceof ArtifactError && /checksum mismatch/.test(e.message),
    );
  });

  it('falls back to a Go build when every download fails, building each family once', async () => {
    const goDir = path.join(tmp.dir, 'fake-go-1');
    await mkdir(goDir, { recursive: true });
    const { go, log } = await makeFakeGo(goDir);
    const opts = options({ go });
    const out = await resolveArtifacts(
      [
        { name: 'kube-apiserver', binaryPrefix: `${server.url}/nope` },
        { name: 'kubectl' },
        { name: 'etcd' },
      ],
      opts,
    );
    assert.deepEqual(out.map((a) => [a.name, a.source, a.path]), [
      ['kube-apiserver', 'gobuild', path.join(opts.cacheDir, 'gobuild/kubernetes/v1.36.1/kube-apiserver')],
      ['kubectl', 'gobuild', path.join(opts.cacheDir, 'gobuild/kubernetes/v1.36.1/kubectl')],
      ['etcd', 'gobuild', path.join(opts.cacheDir, 'gobuild/etcd/v3.6.10/etcd')],
    ]);
    assert.equal(out[2]?.origin, 'go build go.etcd.io/etcd/server/v3@v3.6.10');
    const builds = (await readFile(log, 'utf8')).split('\n').filter((l) => l.includes('"build"'));
    assert.equal(builds.length, 2, 'one build per family');

    // Next time the Go-built binaries come from the cache, without go.
    const again = await resolveArtifacts([{ name: 'kube-scheduler' }], { ...opts, go: path.join(tmp.dir, 'no-go-here') });
    assert.deepEqual([again[0]?.source, again[0]?.origin], ['cache', 'go build k8s.io/kubernetes/cmd/kube-scheduler@v1.36.1']);
  });

  it('says why it builds (the refused URL and its error) and what a build costs before the build starts', async () => {
    const goDir = path.join(tmp.dir, 'fake-go-why');
    await mkdir(goDir, { recursive: true });
    const { go } = await makeFakeGo(goDir);
    const said: string[] = [];
    const record = (line: string): void => void said.push(line);
    const logger = { level: 0, debug: () => undefined, info: record, warn: record, error: record };
    const opts = options({ go, logger, onProgress: (e) => (e.type === 'build' ? said.push(`progress: ${e.phase}`) : undefined) });
    await resolveArtifacts([{ name: 'kube-scheduler' }], opts);
    const why = said.findIndex((l) => l.startsWith('could not download kube-scheduler (https://dl.k8s.io/release/v1.36.1/bin/linux/amd64/kube-scheduler: '));
    const cost = said.findIndex((l) => /^building kubernetes v1\.36\.1 from Go modules with go1\.99\.0: a cold build takes about 6–16 minutes on a 2-core machine and about 4\.5 GB of disk \(this machine has \d+ CPUs?\), most of it Go's caches under /.test(l));
    const first = said.findIndex((l) => l.startsWith('progress: '));
    assert.ok(why >= 0 && cost > why && first > cost, said.join('\n'));
    assert.match(said[why]!, /dl\.k8s\.io/);
  });

  it('offlineBuild "always" builds without trying downloads', async () => {
    const goDir = path.join(tmp.dir, 'fake-go-2');
    await mkdir(goDir, { recursive: true });
    const { go } = await makeFakeGo(goDir);
    const before = server.hits.get('/mirror/kube-apiserver') ?? 0;
    const [a] = await resolveArtifacts([{ name: 'kube-apiserver', binaryPrefix: `${server.url}/mirror` }], options({ go, offlineBuild: 'always', offlineHosts: [] }));
    assert.equal(a?.source, 'gobuild');
    assert.equal(server.hits.get('/mirror/kube-apiserver') ?? 0, before);
  });

  it('when nothing works: one PreflightError listing what was tried and what to do', async () => {
    await assert.rejects(
      resolveArtifacts([{ name: 'kube-apiserver', binaryPrefix: `${server.url}/nope` }, { name: 'etcd' }, { name: 'kubectl', binary: '' }], options()),
      (e: unknown) => {
        assert.ok(e instanceof PreflightError);
        const lines = e.message.split('\n');
        assert.match(lines[0]!, /^cannot get kube-apiserver v1\.36\.1, etcd v3\.6\.10, kubectl v1\.36\.1; tried:$/);
        assert.match(e.message, /kube-apiserver v1\.36\.1: .*\/nope\/kube-apiserver: .*HTTP 404.*dl\.k8s\.io.*could not be reached.*go build: the go tool was not found on PATH/);
        assert.match(e.message, /etcd v3\.6\.10: .*etcd-v3\.6\.10-linux-amd64\.tar\.gz#etcd/);
        assert.match(e.hint ?? '', /install Go/);
        assert.match(e.hint ?? '', /--kube-apiserver-binary=\/path/);
        assert.match(e.hint ?? '', /KWOK_KUBE_BINARY_PREFIX/);
        return true;
      },
    );
  });

  it('with offline builds disabled the hint says so', async () => {
    await assert.rejects(resolveArtifacts([{ name: 'etcd' }], options({ offlineBuild: 'never' })), (e: unknown) => {
      assert.ok(e instanceof PreflightError);
      assert.doesNotMatch(e.message, /go build/);
      assert.match(e.hint ?? '', /allow building from source/);
      assert.match(e.hint ?? '', /--etcd-binary=\/path/);
      return true;
    });
  });
});

describe('planArtifacts', () => {
  it('says where each binary would come from, without touching anything', () => {
    const cacheDir = '/c';
    const present = new Set(['/c/gobuild/etcd/v3.6.10/etcd', '/c/http/m/kubectl']);
    const plan = planArtifacts(
      [
        { name: 'kube-apiserver' },
        { name: 'etcd' },
        { name: 'kubectl', binaryPrefix: 'http://m' },
        { name: 'kube-scheduler', binary: '/opt/ks' },
        { name: 'prometheus' },
      ],
      { cacheDir, platform: linux, fileExists: (p) => present.has(p) },
    );
    assert.deepEqual(
      plan.map((p) => [p.name, p.source, p.origin, p.path, p.fallback?.origin]),
      [
        ['kube-apiserver', 'download', 'https://dl.k8s.io/release/v1.36.1/bin/linux/amd64/kube-apiserver', '/c/https/dl.k8s.io/release/v1.36.1/bin/linux/amd64/kube-apiserver', 'go build k8s.io/kubernetes/cmd/kube-apiserver@v1.36.1'],
        ['etcd', 'cache', 'go build go.etcd.io/etcd/server/v3@v3.6.10', '/c/gobuild/etcd/v3.6.10/etcd', undefined],
        ['kubectl', 'cache', 'http://m/kubectl', '/c/http/m/kubectl', undefined],
        ['kube-scheduler', 'path', '/opt/ks', '/opt/ks', undefined],
        ['prometheus', 'download', 'https://github.com/prometheus/prometheus/releases/download/v3.12.0/prometheus-3.12.0.linux-amd64.tar.gz#prometheus', '/c/https/github.com/prometheus/prometheus/releases/download/v3.12.0/prometheus-3.12.0.linux-amd64/prometheus', undefined],
      ],
    );
    const always = planArtifacts([{ name: 'kube-apiserver' }], { cacheDir, platform: linux, offlineBuild: 'always', fileExists: () => false });
    assert.equal(always[0]?.source, 'gobuild');
  });
});
