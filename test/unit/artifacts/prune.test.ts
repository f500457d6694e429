import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { formatBytes, planPrune, prune } from '../../../src/artifacts/prune.js';

function file(p: string, size = 4096): void {
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, Buffer.alloc(size, 1));
}

/** A cache after a build and some downloads: Go's caches, two versions of the Kubernetes binaries, etcd's archive. */
function cache(): { dir: string; c: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'kwokts-prune-'));
  const c = path.join(dir, 'cache');
  file(path.join(c, 'go/build-cache/00/abc-d'), 64 * 1024);
  file(path.join(c, 'go/mod-cache/k8s.io/api@v0.36.1/go.mod'));
  // Go makes its module cache read-only.
  chmodSync(path.join(c, 'go/mod-cache/k8s.io/api@v0.36.1'), 0o555);
  file(path.join(c, 'gobuild/src/kubernetes-v1.36.1/go.mod'));
  file(path.join(c, 'gobuild/kubernetes/v1.36.1/kube-apiserver'));
  file(path.join(c, 'gobuild/kubernetes/v1.35.0/kube-apiserver'));
  file(path.join(c, 'https/dl.k8s.io/release/v1.35.0/bin/linux/amd64/kubectl'));
  file(path.join(c, 'https/github.com/etcd-io/etcd/releases/download/v3.6.10/etcd-v3.6.10-linux-amd64.tar.gz'));
  file(path.join(c, 'https/github.com/etcd-io/etcd/releases/download/v3.6.10/etcd-v3.6.10-linux-amd64/etcd'));
  // Not ours to prune: images' rootfs and the like.
  file(path.join(c, 'kind-node/rootfs/x'));
  return { dir, c, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

test('prune frees Go caches, build modules and binaries no cluster runs, and keeps what clusters run', async () => {
  const { c, cleanup } = cache();
  try {
    const etcd = path.join(c, 'https/github.com/etcd-io/etcd/releases/download/v3.6.10/etcd-v3.6.10-linux-amd64/etcd');
    const inUse = new Map([['kwok', [path.join(c, 'gobuild/kubernetes/v1.36.1/kube-apiserver'), etcd]]]);
    const plan = await planPrune(c, { inUse, env: {} });
    assert.deepEqual(plan.remove.map((e) => e.what), [
      "Go's build cache",
      "Go's module cache",
      'the Go modules written for builds',
      'kubernetes v1.35.0 binaries built from Go modules',
      'downloaded https://dl.k8s.io/release/v1.35.0/bin/linux/amd64/kubectl',
    ]);
    assert.ok(plan.remove[0]!.bytes >= 64 * 1024);
    // etcd's archive goes (or stays) with what was extracted from it.
    assert.deepEqual(plan.kept.map((e) => [e.what, e.clusters]), [
      ['kubernetes v1.36.1 binaries built from Go modules', ['kwok']],
      ['downloaded https://github.com/etcd-io/etcd/releases/download/v3.6.10/etcd-v3.6.10-linux-amd64.tar.gz', ['kwok']],
    ]);
    // Planning (--dry-run) removes nothing.
    assert.ok(existsSync(path.join(c, 'go/build-cache')));
    const freed = await prune(plan, c);
    assert.equal(freed, plan.remove.reduce((s, e) => s + e.bytes, 0));
    for (const gone of ['go', 'gobuild/src', 'gobuild/kubernetes/v1.35.0', 'https/dl.k8s.io']) assert.equal(existsSync(path.join(c, gone)), false, gone);
    for (const kept of ['gobuild/kubernetes/v1.36.1/kube-apiserver', 'kind-node/rootfs/x']) assert.ok(existsSync(path.join(c, kept)), kept);
    assert.ok(existsSync(etcd));
    assert.deepEqual((await planPrune(c, { inUse, env: {} })).remove, []);
  } finally {
    cleanup();
  }
});

test("prune leaves the user's own Go caches, a build under way, and every binary when a cluster's record cannot be read", async () => {
  const { c, cleanup } = cache();
  try {
    const mine = await planPrune(c, { inUse: new Map(), env: { GOCACHE: '/home/u/.cache/go-build', GOMODCACHE: '/home/u/go/pkg/mod' } });
    assert.deepEqual(mine.userGoCaches, ['GOCACHE=/home/u/.cache/go-build', 'GOMODCACHE=/home/u/go/pkg/mod']);
    assert.ok(!mine.remove.some((e) => e.what.startsWith("Go's")));
    // A build of kubernetes v1.35.0 holds its lock: its output, Go's caches and the modules stay.
    const lock = path.join(c, 'gobuild/kubernetes/v1.35.0.lock');
    mkdirSync(lock);
    const now = Date.now();
    utimesSync(lock, new Date(now), new Date(now));
    const busy = await planPrune(c, { inUse: new Map(), env: {}, now });
    assert.deepEqual(busy.busy, [lock]);
    assert.deepEqual(busy.remove.map((e) => e.what), ['kubernetes v1.36.1 binaries built from Go modules', 'downloaded https://dl.k8s.io/release/v1.35.0/bin/linux/amd64/kubectl', 'downloaded https://github.com/etcd-io/etcd/releases/download/v3.6.10/etcd-v3.6.10-linux-amd64.tar.gz']);
    // A lock nobody refreshed for long is stale: no build is under way.
    assert.deepEqual((await planPrune(c, { inUse: new Map(), env: {}, now: now + 60_000 })).busy, []);
    rmSync(lock, { recursive: true });
    const unknown = await planPrune(c, { inUse: new Map(), unknown: ['broken'], env: {} });
    assert.deepEqual(unknown.remove.map((e) => e.what), ["Go's build cache", "Go's module cache", 'the Go modules written for builds']);
    assert.ok(unknown.kept.every((e) => e.clusters.includes('broken')));
  } finally {
    cleanup();
  }
});

test('sizes are told as df -H and the docs tell them', () => {
  assert.deepEqual([formatBytes(512), formatBytes(12_300), formatBytes(850_000_000), formatBytes(4_400_000_000)], ['512 B', '12 KB', '850 MB', '4.4 GB']);
});
