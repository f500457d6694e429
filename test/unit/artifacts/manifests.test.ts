import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureManifest, goModuleFileOf, manifestCachePath } from '../../../src/artifacts/manifests.js';
import { DryRunExecutor } from '../../../src/exec/dry-run-executor.js';
import { RealExecutor } from '../../../src/exec/real-executor.js';
import { silentLogger } from '../../../src/util/log.js';

test("kwokctl's cache path: <cache>/manifest/<sha256 of the source>.yaml (the names kwokctl's own dry-run prints)", () => {
  assert.equal(
    manifestCachePath('/c', 'https://github.com/kubernetes-sigs/scheduler-plugins/raw/refs/tags/v0.34.7/manifests/install/all-in-one.yaml'),
    '/c/manifest/309ba2d77709ffdefe8aa82c544005c5956165abce45a44c8ce42dfdd5701780.yaml',
  );
});

test('a kubernetes-sigs GitHub tag URL names a file of the Go module sigs.k8s.io/<repo>; other sources name none', () => {
  assert.deepEqual(goModuleFileOf('https://github.com/kubernetes-sigs/scheduler-plugins/raw/refs/tags/v0.34.7/manifests/coscheduling/crd.yaml'), {
    module: 'sigs.k8s.io/scheduler-plugins', version: 'v0.34.7', file: 'manifests/coscheduling/crd.yaml',
  });
  assert.equal(goModuleFileOf('https://github.com/other/scheduler-plugins/raw/refs/tags/v0.34.7/x.yaml'), undefined);
  assert.equal(goModuleFileOf('https://github.com/kubernetes-sigs/scheduler-plugins/raw/main/x.yaml'), undefined);
  assert.equal(goModuleFileOf('https://github.com/kubernetes-sigs/x/raw/refs/tags/v1.0.0/../../etc/passwd'), undefined);
  assert.equal(goModuleFileOf('./local.yaml'), undefined);
});

test('a cached manifest is read from the cache, with no network; dry-run prints kwokctl\'s Download line and fetches nothing', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'kwokts-manifest-'));
  const url = 'https://unreachable.invalid/m.yaml';
  mkdirSync(join(cache, 'manifest'));
  writeFileSync(manifestCachePath(cache, url), 'kind: Namespace\n');
  assert.equal(await ensureManifest(url, { cacheDir: cache, executor: new RealExecutor(silentLogger), kubectl: 'kubectl' }), 'kind: Namespace\n');
  const lines: string[] = [];
  const dry = new DryRunExecutor((line: string) => lines.push(line));
  assert.equal(await ensureManifest('https://unreachable.invalid/other.yaml', { cacheDir: cache, executor: dry, kubectl: 'kubectl' }), '');
  assert.deepEqual(lines, [`# Download https://unreachable.invalid/other.yaml to ${manifestCachePath(cache, 'https://unreachable.invalid/other.yaml')}`]);
  assert.deepEqual(readdirSync(join(cache, 'manifest')).length, 1);
});
