import assert from 'node:assert/strict';
import { UsageError } from '../../../src/util/errors.js';
import path, { join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, it } from 'node:test';
import {
  buildArtifactCandidates,
  cachePathForUrl,
  defaultCacheDir,
  goBuildPath,
  memberCachePath,
  normalizeRequest,
  platformFromNode,
  splitMember,
  upstreamUrl,
  type ArtifactCandidate,
} from '../../../src/artifacts/sources.js';

const cacheDir = '/cache';
const linux = { os: 'linux', arch: 'amd64' };
const summary = (cs: ArtifactCandidate[]): string[] => cs.map((c) => `${c.type}:${c.source}:${c.origin}`);

describe('upstream URLs (kwokctl defaults)', () => {
  it('kube binaries come from dl.k8s.io for the requested version and platform', () => {
    const req = normalizeRequest({ name: 'kube-apiserver', platform: linux });
    assert.equal(req.kubeVersion, 'v1.36.1');
    assert.equal(upstreamUrl(req), 'https://dl.k8s.io/release/v1.36.1/bin/linux/amd64/kube-apiserver');
    assert.equal(
      upstreamUrl(normalizeRequest({ name: 'kubectl', kubeVersion: '1.30.2', platform: { os: 'linux', arch: 'arm64' } })),
      'https://dl.k8s.io/release/v1.30.2/bin/linux/arm64/kubectl',
    );
  });

  it('non-Linux kube binaries come from kwok-ci/k8s, except kubectl', () => {
    const mac = { os: 'darwin', arch: 'arm64' };
    assert.equal(
      upstreamUrl(normalizeRequest({ name: 'kube-scheduler', platform: mac })),
      'https://github.com/kwok-ci/k8s/releases/download/v1.36.1-kwok.0-darwin-arm64/kube-scheduler',
    );
    assert.equal(upstreamUrl(normalizeRequest({ name: 'kubectl', platform: mac })), 'https://dl.k8s.io/release/v1.36.1/bin/darwin/arm64/kubectl');
  });

  it('etcd binaries are members of the release tarball', () => {
    for (const name of ['etcd', 'etcdctl', 'etcdutl'] as const) {
      assert.equal(
        upstreamUrl(normalizeRequest({ name, platform: linux })),
        `https://github.com/etcd-io/etcd/releases/download/v3.6.10/etcd-v3.6.10-linux-amd64.tar.gz#${name}`,
      );
    }
  });

  it('etcd follows kwokctl\'s Kubernetes-minor table unless given', () => {
    assert.equal(normalizeRequest({ name: 'etcd', kubeVersion: 'v1.36.1' }).etcdVersion, 'v3.6.10');
    assert.equal(normalizeRequest({ name: 'etcd', kubeVersion: 'v1.30.0' }).etcdVersion, 'v3.5.21');
    assert.equal(normalizeRequest({ name: 'etcd', kubeVersion: 'v1.25.3' }).etcdVersion, 'v3.5.12');
    assert.equal(normalizeRequest({ name: 'etcd', kubeVersion: 'v1.99.0' }).etcdVersion, 'v3.6.10', 'clamps to the newest entry');
    assert.equal(normalizeRequest({ name: 'etcd', kubeVersion: 'v1.2.0' }).etcdVersion, 'v3.0.17', 'clamps to the oldest entry');
    assert.equal(normalizeRequest({ name: 'etcd', etcdVersion: '3.5.9-0' }).etcdVersion, 'v3.5.9');
  });

  it('prometheus uses its release tarball', () => {
    assert.equal(
      upstreamUrl(normalizeRequest({ name: 'prometheus', platform: linux })),
      'https://github.com/prometheus/prometheus/releases/download/v3.12.0/prometheus-3.12.0.linux-amd64.tar.gz#prometheus',
    );
  });
});

describe('cache layout', () => {
  it('follows <cacheDir>/<scheme>/<host>/<path>', () => {
    assert.equal(
      cachePathForUrl(cacheDir, 'https://dl.k8s.io/release/v1.36.1/bin/linux/amd64/kubectl?x=1'),
      '/cache/https/dl.k8s.io/release/v1.36.1/bin/linux/amd64/kubectl',
    );
    assert.equal(cachePathForUrl(cacheDir, 'http://127.0.0.1:8080/a/b'), '/cache/http/127.0.0.1:8080/a/b');
    // `..` cannot climb out of the cache.
    assert.ok(cachePathForUrl(cacheDir, 'https://h/%2e%2e/x').startsWith('/cache/https/h/'));
  });

  it('puts extracted members in a sibling directory named after the archive', () => {
    assert.equal(memberCachePath('/c/v3.6.10/etcd-v3.6.10-linux-amd64.tar.gz', 'etcd'), '/c/v3.6.10/etcd-v3.6.10-linux-amd64/etcd');
    assert.equal(memberCachePath('/c/x/archive.bin', 'bin/tool'), '/c/x/archive.bin.d/tool');
  });

  it('keeps Go builds under gobuild/<kind>/<version>', () => {
    assert.equal(goBuildPath(cacheDir, 'kubernetes', '1.36.1', 'kubectl'), '/cache/gobuild/kubernetes/v1.36.1/kubectl');
    assert.equal(goBuildPath(cacheDir, 'etcd', 'v3.6.10', 'etcd'), '/cache/gobuild/etcd/v3.6.10/etcd');
  });

  it('defaults to $KWOK_WORKDIR/cache, else ~/.kwok/cache', () => {
    assert.equal(defaultCacheDir({ KWOK_WORKDIR: '/w' }, '/home/u'), '/w/cache');
    assert.equal(defaultCacheDir({}, '/home/u'), '/home/u/.kwok/cache');
    assert.equal(defaultCacheDir({ KWOK_WORKDIR: '' }, '/home/u'), '/home/u/.kwok/cache');
  });

  it('maps Node platform names to Go\'s', () => {
    assert.deepEqual(platformFromNode('linux', 'x64'), { os: 'linux', arch: 'amd64' });
    assert.deepEqual(platformFromNode('win32', 'arm64'), { os: 'windows', arch: 'arm64' });
  });

  it('splits #member', () => {
    assert.deepEqual(splitMember('https://h/a.tar.gz#etcd'), { location: 'https://h/a.tar.gz', member: 'etcd' });
    assert.deepEqual(splitMember('/p/kube-apiserver'), { location: '/p/kube-apiserver', member: undefined });
  });

  it('reads a pinned #sha256= alone or after the member, and refuses one that is not a SHA-256', () => {
    const hex = 'AB'.repeat(32);
    assert.deepEqual(splitMember(`https://h/kube-apiserver#sha256=${hex}`), { location: 'https://h/kube-apiserver', member: undefined, sha256: hex.toLowerCase() });
    assert.deepEqual(splitMember(`https://h/a.tar.gz#bin/etcd&sha256=${hex}`), { location: 'https://h/a.tar.gz', member: 'bin/etcd', sha256: hex.toLowerCase() });
    assert.deepEqual(splitMember(`https://h/a.tar.gz#sha256:${hex}&etcd`), { location: 'https://h/a.tar.gz', member: 'etcd', sha256: hex.toLowerCase() });
    assert.throws(() => splitMember('https://h/k#sha256=abc'), (e: unknown) => e instanceof UsageError && /is not a SHA-256/.test(e.message));
    assert.throws(() => splitMember('https://h/a.tar.gz#etcd&etcdctl'), (e: unknown) => e instanceof UsageError && /two archive members/.test(e.message));
  });
});

describe('candidate order', () => {
  it('default: cache (download), cache (go build), upstream download, go build', () => {
    const cs = buildArtifactCandidates({ name: 'kube-apiserver', platform: linux }, { cacheDir, platform: linux });
    const url = 'https://dl.k8s.io/release/v1.36.1/bin/linux/amd64/kube-apiserver';
    assert.deepEqual(summary(cs), [
      `file:cache:${url}`,
      'file:cache:go build k8s.io/kubernetes/cmd/kube-apiserver@v1.36.1',
      `download:download:${url}`,
      'gobuild:gobuild:go build k8s.io/kubernetes/cmd/kube-apiserver@v1.36.1',
    ]);
    const download = cs[2];
    assert.ok(download?.type === 'download');
    assert.equal(download.path, `/cache/https/dl.k8s.io/release/v1.36.1/bin/linux/amd64/kube-apiserver`);
    assert.deepEqual(download.checksum, { url: `${url}.sha256`, required: true });
    assert.equal(cs[0]?.type === 'file' && cs[0].path, download.path, 'the cache candidate is the download\'s cache path');
    assert.equal(cs[3]?.type === 'gobuild' && cs[3].path, '/cache/gobuild/kubernetes/v1.36.1/kube-apiserver');
  });

  it('a prefix mirror comes first, with an optional checksum', () => {
    const cs = buildArtifactCandidates({ name: 'kube-scheduler', binaryPrefix: 'http://mirror.local/k8s/', platform: linux }, { cacheDir, platform: linux });
    assert.deepEqual(summary(cs).map((s) => s.split(':')[1]), ['prefix', 'cache', 'cache', 'download', 'gobuild']);
    const first = cs[0];
    assert.ok(first?.type === 'download');
    assert.equal(first.url, 'http://mirror.local/k8s/kube-scheduler');
    assert.equal(first.path, '/cache/http/mirror.local/k8s/kube-scheduler');
    assert.deepEqual(first.checksum, { url: 'http://mirror.local/k8s/kube-scheduler.sha256', required: false });
  });

  it('an etcd prefix is the directory of the release tarball (as kwokctl)', () => {
    const cs = buildArtifactCandidates({ name: 'etcdctl', binaryPrefix: 'http://m/etcd/v3.6.10', platform: linux }, { cacheDir, platform: linux });
    const first = cs[0];
    assert.ok(first?.type === 'download');
    assert.equal(first.origin, 'http://m/etcd/v3.6.10/etcd-v3.6.10-linux-amd64.tar.gz#etcdctl');
    assert.equal(first.path, '/cache/http/m/etcd/v3.6.10/etcd-v3.6.10-linux-amd64/etcdctl');
    assert.deepEqual(first.checksum, { url: 'http://m/etcd/v3.6.10/SHA256SUMS', fileName: 'etcd-v3.6.10-linux-amd64.tar.gz', required: false });
    assert.equal(cs[cs.length - 1]?.origin, 'go build go.etcd.io/etcd/etcdctl/v3@v3.6.10');
  });

  it('a local prefix directory is looked up as <dir>/<name>', () => {
    const cs = buildArtifactCandidates({ name: 'kubectl', binaryPrefix: '/opt/k8s', platform: linux }, { cacheDir, platform: linux });
    assert.deepEqual(cs[0], { type: 'file', source: 'prefix', path: '/opt/k8s/kubectl', origin: '/opt/k8s/kubectl' });
  });

  it('an explicit value is the only candidate', () => {
    const local = buildArtifactCandidates({ name: 'kube-apiserver', binary: 'bin/kube-apiserver', binaryPrefix: 'http://m' }, { cacheDir, platform: linux });
    assert.deepEqual(local, [{ type: 'file', source: 'path', path: path.resolve('bin/kube-apiserver'), origin: path.resolve('bin/kube-apiserver') }]);
    const fileUrl = buildArtifactCandidates({ name: 'etcd', binary: 'file:///opt/etcd%20x/etcd' }, { cacheDir, platform: linux });
    assert.deepEqual(summary(fileUrl), ['file:path:/opt/etcd x/etcd']);
    const url = buildArtifactCandidates({ name: 'kube-apiserver', binary: 'https://example.com/kas' }, { cacheDir, platform: linux });
    assert.deepEqual(summary(url), ['download:explicit:https://example.com/kas']);
    assert.equal(url[0]?.type === 'download' && url[0].checksum, undefined);
    assert.equal(url[0]?.type === 'download' && url[0].sha256, undefined);
  });

  it('an explicit URL carries the pinned SHA-256 to the download; a local path refuses one', () => {
    const hex = 'c'.repeat(64);
    const [pinned] = buildArtifactCandidates({ name: 'etcd', binary: `https://m/e.tar.gz#etcd&sha256=${hex}` }, { cacheDir, platform: linux });
    assert.ok(pinned?.type === 'download');
    assert.equal(pinned.sha256, hex);
    assert.equal(pinned.member, 'etcd');
    assert.equal(pinned.url, 'https://m/e.tar.gz', 'the fragment is not requested');
    assert.throws(() => buildArtifactCandidates({ name: 'etcd', binary: `/opt/etcd#sha256=${hex}` }, { cacheDir, platform: linux }), (e: unknown) => e instanceof UsageError && /local file/.test(e.message));
  });

  it('an explicit archive URL extracts #member, or the binary\'s own name without one', () => {
    const withMember = buildArtifactCandidates({ name: 'etcd', binary: 'https://m/e.tar.gz#bin/etcd' }, { cacheDir, platform: linux });
    assert.ok(withMember[0]?.type === 'download');
    assert.equal(withMember[0].member, 'bin/etcd');
    assert.equal(withMember[0].path, '/cache/https/m/e/etcd');
    const tar = buildArtifactCandidates({ name: 'etcdutl', binary: 'https://m/etcd-v3.6.10-linux-amd64.tar.gz' }, { cacheDir, platform: linux });
    assert.ok(tar[0]?.type === 'download');
    assert.equal(tar[0].member, 'etcdutl');
    const localTar = buildArtifactCandidates({ name: 'etcd', binary: '/tmp/etcd.tar.gz#etcd' }, { cacheDir, platform: linux });
    assert.deepEqual(localTar, [{ type: 'extract', source: 'path', archive: '/tmp/etcd.tar.gz', member: 'etcd', path: '/cache/file/tmp/etcd/etcd', origin: '/tmp/etcd.tar.gz#etcd' }]);
  });

  it('an explicit value equal to the default URL keeps the normal order', () => {
    const url = 'https://dl.k8s.io/release/v1.36.1/bin/linux/amd64/kubectl';
    const cs = buildArtifactCandidates({ name: 'kubectl', binary: url, platform: linux }, { cacheDir, platform: linux });
    assert.equal(cs.length, 4);
  });

  it('offline build modes', () => {
    const never = buildArtifactCandidates({ name: 'etcd', platform: linux }, { cacheDir, platform: linux, offlineBuild: 'never' });
    assert.deepEqual(never.map((c) => c.source), ['cache', 'cache', 'download']);
    const always = buildArtifactCandidates({ name: 'etcd', binaryPrefix: 'http://m', platform: linux }, { cacheDir, platform: linux, offlineBuild: 'always' });
    assert.deepEqual(always.map((c) => c.source), ['cache', 'cache', 'gobuild'], 'no network downloads');
  });

  it('no Go build for prometheus or for a foreign platform', () => {
    const prom = buildArtifactCandidates({ name: 'prometheus', platform: linux }, { cacheDir, platform: linux, searchPath: '' });
    assert.deepEqual(prom.map((c) => c.type), ['file', 'download']);
    const foreign = buildArtifactCandidates({ name: 'kubectl', platform: { os: 'linux', arch: 'arm64' } }, { cacheDir, platform: linux });
    assert.ok(!foreign.some((c) => c.type === 'gobuild'));
  });

  it('an installed prometheus is the last resort', () => {
    const bin = mkdtempSync(join(tmpdir(), 'kwokts-path-'));
    writeFileSync(join(bin, 'prometheus'), '#!/bin/sh\n', { mode: 0o755 });
    const prom = buildArtifactCandidates({ name: 'prometheus', platform: linux }, { cacheDir, platform: linux, searchPath: `/nonexistent:${bin}` });
    assert.deepEqual(prom.map((c) => c.source), ['cache', 'download', 'system']);
    assert.equal(prom.at(-1)!.path, join(bin, 'prometheus'));
    rmSync(bin, { recursive: true, force: true });
  });
});
