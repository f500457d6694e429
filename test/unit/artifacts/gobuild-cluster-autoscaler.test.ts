import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildClusterAutoscalerGoMod, buildFromGoModules, detectGo, planGoBuild } from '../../../src/artifacts/gobuild.js';
import { buildClusterAutoscalerFromModule, buildClusterAutoscalerFromSource, goReason, planClusterAutoscalerSourceBuild } from '../../../src/artifacts/cluster-autoscaler.js';
import { clusterAutoscalerVersionForKube } from '../../../src/config/versions.js';
import { ExternalCommandError, UsageError } from '../../../src/util/errors.js';
import { failureOutput } from '../../../src/util/output-tail.js';
import { makeFakeGo, tempDir } from './helpers.js';

// The shape of cluster-autoscaler's go.mod: staging modules pinned with same-path version
// replacements (one block, one single line), a sibling module replaced by a local directory.
const CA_UPSTREAM = `module sigs.k8s.io/cluster-autoscaler

go 1.26.0

require (
\tk8s.io/api v0.36.0
\tk8s.io/autoscaler/cluster-autoscaler/apis v0.0.0-20260501000000-0123456789ab
\tk8s.io/kubernetes v1.36.0
\tk8s.io/unpublished v0.0.0
)

replace (
\tk8s.io/api => k8s.io/api v0.36.0
\tk8s.io/client-go => k8s.io/client-go v0.36.0
)

replace k8s.io/kubelet => k8s.io/kubelet v0.36.0

replace k8s.io/autoscaler/cluster-autoscaler/apis => ./apis

replace k8s.io/unpublished => ./unpublished

replace github.com/x/y v1.0.0 => github.com/x/y v1.0.1
`;

describe('cluster-autoscaler from its Go module', () => {
  it('follows the Kubernetes minor by default', () => {
    assert.equal(clusterAutoscalerVersionForKube('v1.36.1'), 'v1.36.0');
    assert.equal(clusterAutoscalerVersionForKube('1.35.4'), 'v1.35.0');
  });

  it('carries the staging pins over and pins a local sibling to the version upstream requires', () => {
    assert.equal(
      buildClusterAutoscalerGoMod(CA_UPSTREAM, '1.36.0'),
      `module kwokts.local/cabuild

go 1.26.0

require sigs.k8s.io/cluster-autoscaler v1.36.0

replace (
\tk8s.io/api => k8s.io/api v0.36.0
\tk8s.io/autoscaler/cluster-autoscaler/apis => k8s.io/autoscaler/cluster-autoscaler/apis v0.0.0-20260501000000-0123456789ab
\tk8s.io/client-go => k8s.io/client-go v0.36.0
\tk8s.io/kubelet => k8s.io/kubelet v0.36.0
)
`,
    );
  });

  it('plans the kwok-only main package as one binary named cluster-autoscaler', () => {
    const plan = planGoBuild('cluster-autoscaler', '1.36.0', '/c');
    assert.deepEqual(plan.getArgs, ['get', 'sigs.k8s.io/cluster-autoscaler/kwok@v1.36.0']);
    assert.deepEqual(plan.buildArgs('/t'), ['build', '-trimpath', '-ldflags', '-s -w', '-o', '/t/', 'sigs.k8s.io/cluster-autoscaler/kwok']);
    assert.equal(plan.outDir, '/c/gobuild/cluster-autoscaler/v1.36.0');
    assert.deepEqual(plan.outputs.map((o) => [o.name, o.builtName]), [['cluster-autoscaler', 'kwok']]);
  });

  it("names a proxy's refusal in one line, without the URL of the file it asked for", () => {
    const refused = JSON.stringify(
      {
        Path: 'sigs.k8s.io/cluster-autoscaler',
        Version: 'v1.36.0',
        Error:
          'sigs.k8s.io/cluster-autoscaler@v1.36.0: reading https://proxy.golang.org/sigs.k8s.io/cluster-autoscaler/@v/v1.36.0.info: 403 Forbidden\n\tserver response: This module version is not available.',
      },
      null,
      '\t',
    );
    assert.equal(goReason(refused), 'the module proxy (https://proxy.golang.org) answered 403 Forbidden (This module version is not available)');
    assert.equal(goReason('go: x@v1: reading https://p.example/x/@v/v1.info: 404 Not Found'), 'the module proxy (https://p.example) answered 404 Not Found');
    // Anything else: the line that says why, as go wrote it.
    assert.equal(goReason('go: downloading x v1\ngo: x@v1: unknown revision v1\n'), 'go: x@v1: unknown revision v1');
  });

  describe('with a fake go', () => {
    let tmp: { dir: string; cleanup: () => Promise<void> };
    before(async () => (tmp = await tempDir()));
    after(async () => tmp.cleanup());

    it('builds into the cache under its own name; a second call is a cache hit', async () => {
      const { go } = await makeFakeGo(tmp.dir);
      const cacheDir = path.join(tmp.dir, 'cache');
      const result = await buildFromGoModules('cluster-autoscaler', 'v1.36.0', { cacheDir, go });
      assert.equal(result.built, true);
      assert.equal(result.binaries['cluster-autoscaler'], path.join(cacheDir, 'gobuild/cluster-autoscaler/v1.36.0/cluster-autoscaler'));
      assert.match(execFileSync(result.binaries['cluster-autoscaler']!, ['--help'], { encoding: 'utf8' }), /--cloud-provider/);
      assert.match(await readFile(path.join(cacheDir, 'gobuild/src/cluster-autoscaler-v1.36.0/go.mod'), 'utf8'), /k8s\.io\/client-go => k8s\.io\/client-go v0\.36\.0/);
      assert.equal((await buildFromGoModules('cluster-autoscaler', 'v1.36.0', { cacheDir, go })).built, false);
    });

    it('a proxy that refuses the module: one line saying so, and a hint naming --source', async () => {
      const { go } = await makeFakeGo(path.join(tmp.dir, 'refusing'), { refuseDownload: true });
      await assert.rejects(buildClusterAutoscalerFromModule('v1.36.0', { cacheDir: path.join(tmp.dir, 'refusing', 'cache'), go }), (e: unknown) => {
        assert.ok(e instanceof ExternalCommandError);
        assert.equal(e.message, 'cannot download sigs.k8s.io/cluster-autoscaler@v1.36.0: the module proxy (https://proxy.golang.org) answered 403 Forbidden (This module version is not available)');
        assert.equal(failureOutput(e), '', "go's JSON is not printed under the line");
        assert.match(e.hint ?? '', /--source DIR/);
        return true;
      });
    });
  });
});

describe('cluster-autoscaler from a local checkout (real go, tiny stand-in modules)', async () => {
  const go = await detectGo();
  if (!go) process.stdout.write('skip: go is not installed; the checkout build is not tested\n');
  let tmp: { dir: string; cleanup: () => Promise<void> };
  before(async () => (tmp = await tempDir()));
  after(async () => tmp.cleanup());

  const writeModule = async (dir: string, module: string, files: Record<string, string>): Promise<void> => {
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'go.mod'), `module ${module}\n\ngo 1.21\n`);
    for (const [name, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
      await writeFile(path.join(dir, name), text);
    }
  };
  const main = (extra = ''): string =>
    `package main\n\nimport "fmt"\n\nvar provider = "all"\n\nfunc main() { fmt.Println("  --cloud-provider string (built with " + provider + ")")${extra} }\n`;

  it('refuses a directory that is not a cluster-autoscaler checkout', { skip: !go }, async () => {
    const dir = path.join(tmp.dir, 'other');
    await writeModule(dir, 'example.com/other', { 'main.go': main() });
    await assert.rejects(planClusterAutoscalerSourceBuild(dir, tmp.dir), (e: unknown) => e instanceof UsageError && /is not a cluster-autoscaler checkout/.test(e.message));
  });

  it('builds sigs.k8s.io/cluster-autoscaler\'s kwok/ main package', { skip: !go }, async () => {
    const dir = path.join(tmp.dir, 'sigs');
    await writeModule(dir, 'sigs.k8s.io/cluster-autoscaler', { 'kwok/main.go': main() });
    const cacheDir = path.join(tmp.dir, 'cache1');
    const built = await buildClusterAutoscalerFromSource(dir, { cacheDir });
    assert.equal(built.binary, path.join(cacheDir, 'gobuild/cluster-autoscaler/source/cluster-autoscaler'));
    assert.match(execFileSync(built.binary, ['--help'], { encoding: 'utf8' }), /--cloud-provider string \(built with all\)/);
  });

  it('builds the kubernetes/autoscaler layout from the repository root with -tags kwok', { skip: !go }, async () => {
    const root = path.join(tmp.dir, 'autoscaler');
    await writeModule(path.join(root, 'cluster-autoscaler'), 'k8s.io/autoscaler/cluster-autoscaler', {
      'main.go': main(),
      'builder_kwok.go': '//go:build kwok\n\npackage main\n\nfunc init() { provider = "kwok" }\n',
    });
    const built = await buildClusterAutoscalerFromSource(root, { cacheDir: path.join(tmp.dir, 'cache2') });
    assert.match(execFileSync(built.binary, ['--help'], { encoding: 'utf8' }), /built with kwok/);
  });
});
