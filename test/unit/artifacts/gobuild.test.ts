import assert from 'node:assert/strict';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it, test } from 'node:test';
import {
  buildEtcdGoMod,
  buildFromGoModules,
  buildKubernetesGoMod,
  goBinaryName,
  kubernetesLdflags,
  localSiblings,
  parseGoMod,
  planGoBuild,
  stagingVersion,
} from '../../../src/artifacts/gobuild.js';
import type { ArtifactProgressEvent } from '../../../src/artifacts/progress.js';
import { ExternalCommandError, PreflightError } from '../../../src/util/errors.js';
import { listFiles, makeFakeGo, tempDir } from './helpers.js';

// A trimmed copy of the shape of k8s.io/kubernetes' go.mod: header comments, godebug, requires of
// staging modules at v0.0.0, and the replace block pointing at ./staging.
const STAGING = [
  'api', 'apiextensions-apiserver', 'apimachinery', 'apiserver', 'cli-runtime', 'client-go', 'cloud-provider',
  'cluster-bootstrap', 'code-generator', 'component-base', 'component-helpers', 'controller-manager', 'cri-api',
  'cri-client', 'cri-streaming', 'csi-translation-lib', 'dynamic-resource-allocation', 'endpointslice', 'externaljwt',
  'kms', 'kube-aggregator', 'kube-controller-manager', 'kube-proxy', 'kube-scheduler', 'kubectl', 'kubelet', 'metrics',
  'mount-utils', 'pod-security-admission', 'sample-apiserver', 'sample-cli-plugin', 'sample-controller', 'streaming',
];
const KUBE_UPSTREAM = `// This is a generated file. Do not edit directly.
// Run hack/pin-dependency.sh to change pinned dependency versions.

module k8s.io/kubernetes

go 1.26.0

godebug default=go1.26

require (
\tbitbucket.org/bertimus9/systemstat v0.5.0
\tgithub.com/google/cadvisor v0.56.2
\tgo.etcd.io/etcd/client/v3 v3.6.8
\tk8s.io/api v0.0.0
\tk8s.io/apimachinery v0.0.0
\tk8s.io/utils v0.0.0-20260210185600-b8788abfbbc2
)

require (
\tgithub.com/kylelemons/godebug v1.1.0 // indirect
)

replace (
${STAGING.map((s) => `\tk8s.io/${s} => ./staging/src/k8s.io/${s}`).join('\n')}
)
`;

// What /tmp/kbuild's prototype started from (before `go get` filled in the indirect requires).
const KUBE_EXPECTED = `module kwokts.local/kubebuild

go 1.26.0

require k8s.io/kubernetes v1.36.1

replace (
${STAGING.map((s) => `\tk8s.io/${s} => k8s.io/${s} v0.36.1`).join('\n')}
)
`;

const ETCD_SERVER = `module go.etcd.io/etcd/server/v3

go 1.25.0

toolchain go1.25.8

require (
\tgo.etcd.io/etcd/api/v3 v3.6.10
\tgo.etcd.io/etcd/client/pkg/v3 v3.6.10
)

replace (
\tgo.etcd.io/etcd/api/v3 => ../api
\tgo.etcd.io/etcd/client/pkg/v3 => ../client/pkg
\tgo.etcd.io/etcd/client/v3 => ../client/v3
\tgo.etcd.io/etcd/pkg/v3 => ../pkg
)

// Bad imports are sometimes causing attempts to pull that code.
// This makes the error more explicit.
replace go.etcd.io/etcd => ./FORBIDDEN_DEPENDENCY

replace go.etcd.io/tests/v3 => ./FORBIDDEN_DEPENDENCY
`;
const ETCD_UTL = `module go.etcd.io/etcd/etcdutl/v3

go 1.24

replace (
\tgo.etcd.io/etcd/api/v3 => ../api
\tgo.etcd.io/etcd/client/pkg/v3 => ../client/pkg
\tgo.etcd.io/etcd/client/v3 => ../client/v3
\tgo.etcd.io/etcd/pkg/v3 => ../pkg
\tgo.etcd.io/etcd/server/v3 => ../server
)

replace (
\tgo.etcd.io/etcd => ./FORBIDDEN_DEPENDENCY
\tgo.etcd.io/etcd/v3 => ./FORBIDDEN_DEPENDENCY
)
`;
const ETCD_EXPECTED = `module kwokts.local/etcdbuild

go 1.25.0

require (
\tgo.etcd.io/etcd/etcdctl/v3 v3.6.10
\tgo.etcd.io/etcd/etcdutl/v3 v3.6.10
\tgo.etcd.io/etcd/server/v3 v3.6.10
)

replace (
\tgo.etcd.io/etcd/api/v3 => go.etcd.io/etcd/api/v3 v3.6.10
\tgo.etcd.io/etcd/client/pkg/v3 => go.etcd.io/etcd/client/pkg/v3 v3.6.10
\tgo.etcd.io/etcd/client/v3 => go.etcd.io/etcd/client/v3 v3.6.10
\tgo.etcd.io/etcd/pkg/v3 => go.etcd.io/etcd/pkg/v3 v3.6.10
\tgo.etcd.io/etcd/server/v3 => go.etcd.io/etcd/server/v3 v3.6.10
)
`;

// /tmp/kbuild/ldflags.txt, the prototype whose build cache we want to reuse.
const KUBE_LDFLAGS =
  '-s -w -X k8s.io/component-base/version.gitVersion=v1.36.1 -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=36 -X k8s.io/component-base/version.gitTreeState=clean -X k8s.io/component-base/version.gitCommit=0000000000000000000000000000000000000000 -X k8s.io/component-base/version.buildDate=2026-01-01T00:00:00Z -X k8s.io/client-go/pkg/version.gitVersion=v1.36.1 -X k8s.io/client-go/pkg/version.gitMajor=1 -X k8s.io/client-go/pkg/version.gitMinor=36 -X k8s.io/client-go/pkg/version.gitTreeState=clean -X k8s.io/client-go/pkg/version.gitCommit=0000000000000000000000000000000000000000 -X k8s.io/client-go/pkg/version.buildDate=2026-01-01T00:00:00Z';

describe('go.mod generation (pure)', () => {
  it('parses directives, blocks, comments and replacements', () => {
    const mod = parseGoMod(KUBE_UPSTREAM);
    assert.equal(mod.module, 'k8s.io/kubernetes');
    assert.equal(mod.go, '1.26.0');
    assert.equal(mod.requires.length, 7);
    assert.deepEqual(mod.requires.at(-1), { path: 'github.com/kylelemons/godebug', version: 'v1.1.0', indirect: true });
    assert.equal(mod.replaces.length, STAGING.length);
    assert.deepEqual(mod.replaces[0], { oldPath: 'k8s.io/api', newPath: './staging/src/k8s.io/api' });
    const withVersions = parseGoMod('replace a.b/c v1.0.0 => d.e/f v1.2.3\nreplace "x.y/z" => ../z\n');
    assert.deepEqual(withVersions.replaces, [
      { oldPath: 'a.b/c', oldVersion: 'v1.0.0', newPath: 'd.e/f', newVersion: 'v1.2.3' },
      { oldPath: 'x.y/z', newPath: '../z' },
    ]);
  });

  it('takes siblings from the replace block, skipping FORBIDDEN_DEPENDENCY markers and other prefixes', () => {
    assert.deepEqual(localSiblings(parseGoMod(ETCD_SERVER), 'go.etcd.io/etcd/'), [
      'go.etcd.io/etcd/api/v3',
      'go.etcd.io/etcd/client/pkg/v3',
      'go.etcd.io/etcd/client/v3',
      'go.etcd.io/etcd/pkg/v3',
    ]);
    assert.deepEqual(localSiblings(parseGoMod(KUBE_UPSTREAM), 'k8s.io/').length, STAGING.length);
    assert.deepEqual(localSiblings(parseGoMod('replace k8s.io/a => k8s.io/a v0.1.0\n'), 'k8s.io/'), [], 'not a local replacement');
  });

  it('maps Kubernetes versions to staging versions', () => {
    assert.equal(stagingVersion('v1.36.1'), 'v0.36.1');
    assert.equal(stagingVersion('1.35.0-rc.1'), 'v0.35.0-rc.1');
    assert.throws(() => stagingVersion('latest'), PreflightError);
  });

  it('writes the Kubernetes wrapper go.mod the prototype used', () => {
    assert.equal(buildKubernetesGoMod(KUBE_UPSTREAM, '1.36.1'), KUBE_EXPECTED);
    // Another version: derived, not hard-coded.
    const other = buildKubernetesGoMod(KUBE_UPSTREAM.replace('go 1.26.0', 'go 1.25.3'), 'v1.35.2');
    assert.match(other, /^go 1\.25\.3$/m);
    assert.match(other, /^require k8s\.io\/kubernetes v1\.35\.2$/m);
    assert.match(other, /^\tk8s\.io\/client-go => k8s\.io\/client-go v0\.35\.2$/m);
  });

  it('writes the etcd wrapper go.mod: union of siblings, highest go directive', () => {
    assert.equal(buildEtcdGoMod([ETCD_SERVER, ETCD_SERVER.replace('server/v3', 'etcdctl/v3'), ETCD_UTL], '3.6.10'), ETCD_EXPECTED);
  });

  it('stamps the version exactly as the prototype did', () => {
    assert.equal(kubernetesLdflags('v1.36.1'), KUBE_LDFLAGS);
  });

  it('plans one build for every command of the family', () => {
    const plan = planGoBuild('kubernetes', '1.36.1', '/c');
    assert.equal(plan.srcDir, '/c/gobuild/src/kubernetes-v1.36.1');
    assert.equal(plan.outDir, '/c/gobuild/kubernetes/v1.36.1');
    assert.deepEqual(plan.getArgs, [
      'get',
      'k8s.io/kubernetes/cmd/kube-apiserver@v1.36.1',
      'k8s.io/kubernetes/cmd/kube-controller-manager@v1.36.1',
      'k8s.io/kubernetes/cmd/kube-scheduler@v1.36.1',
      'k8s.io/kubernetes/cmd/kubectl@v1.36.1',
    ]);
    assert.deepEqual(plan.buildArgs('/tmp/out'), [
      'build', '-trimpath', '-ldflags', KUBE_LDFLAGS, '-o', '/tmp/out/',
      'k8s.io/kubernetes/cmd/kube-apiserver', 'k8s.io/kubernetes/cmd/kube-controller-manager', 'k8s.io/kubernetes/cmd/kube-scheduler', 'k8s.io/kubernetes/cmd/kubectl',
    ]);
    assert.equal(plan.env['CGO_ENABLED'], '0');
    const etcd = planGoBuild('etcd', 'v3.6.10', '/c');
    assert.deepEqual(etcd.outputs.map((o) => [o.name, o.builtName, o.versionText]), [
      ['etcd', 'server', 'etcd Version: 3.6.10'],
      ['etcdctl', 'etcdctl', 'etcdctl version: 3.6.10'],
      ['etcdutl', 'etcdutl', 'etcdutl version: 3.6.10'],
    ]);
    assert.equal(goBinaryName('go.etcd.io/etcd/server/v3'), 'server');
    assert.equal(goBinaryName('k8s.io/kubernetes/cmd/kubectl'), 'kubectl');
  });
});

describe('buildFromGoModules (with a fake go)', () => {
  let tmp: { dir: string; cleanup: () => Promise<void> };
  before(async () => {
    tmp = await tempDir();
  });
  after(async () => {
    await tmp.cleanup();
  });

  type GoCall = { cwd: string; args: string[]; cgo: string | null; gocache: string | null; gomodcache: string | null };
  const goCalls = async (log: string): Promise<GoCall[]> => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as GoCall);

  it('builds, verifies and installs all four Kubernetes binaries; a second call is a cache hit', async () => {
    const dir = path.join(tmp.dir, 'k1');
    const { go, log } = await makeFakeGo(await mkdirp(dir));
    const cacheDir = path.join(dir, 'cache');
    const events: ArtifactProgressEvent[] = [];
    const result = await buildFromGoModules('kubernetes', 'v1.36.1', { cacheDir, go, onProgress: (e) => events.push(e) });
    assert.equal(result.built, true);
    const outDir = path.join(cacheDir, 'gobuild/kubernetes/v1.36.1');
    assert.equal(result.dir, outDir);
    assert.deepEqual((await readdir(outDir)).sort(), ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubectl']);
    assert.equal(result.binaries.kubectl, path.join(outDir, 'kubectl'));
    assert.equal((await stat(path.join(outDir, 'kube-apiserver'))).mode & 0o111, 0o111);
    // Nothing but outputs, the throwaway module and the lock's absence in the gobuild tree.
    assert.deepEqual(await listFiles(path.join(cacheDir, 'gobuild')), [
      'kubernetes/v1.36.1/kube-apiserver',
      'kubernetes/v1.36.1/kube-controller-manager',
      'kubernetes/v1.36.1/kube-scheduler',
      'kubernetes/v1.36.1/kubectl',
      'src/kubernetes-v1.36.1/go.mod',
    ]);
    const gomod = await readFile(path.join(cacheDir, 'gobuild/src/kubernetes-v1.36.1/go.mod'), 'utf8');
    assert.equal(gomod, 'module kwokts.local/kubebuild\n\ngo 1.26.0\n\nrequire k8s.io/kubernetes v1.36.1\n\nreplace (\n\tk8s.io/api => k8s.io/api v0.36.1\n\tk8s.io/client-go => k8s.io/client-go v0.36.1\n)\n');
    const calls = await goCalls(log);
    const builds = calls.filter((c) => c.args[0] === 'build');
    assert.equal(builds.length, 1, 'one go build for all commands');
    assert.equal(builds[0]!.cgo, '0');
    assert.equal(builds[0]!.cwd, path.join(cacheDir, 'gobuild/src/kubernetes-v1.36.1'));
    assert.ok(calls.some((c) => c.args.join(' ') === 'mod download -json k8s.io/kubernetes@v1.36.1'));
    assert.ok(calls.some((c) => c.args[0] === 'get' && c.args.includes('k8s.io/kubernetes/cmd/kubectl@v1.36.1')));
    const build = events.filter((e): e is Extract<ArtifactProgressEvent, { type: 'build' }> => e.type === 'build');
    const phases = build.filter((e) => e.line === undefined).map((e) => e.phase).filter((p, i, all) => p !== all[i - 1]);
    assert.deepEqual(phases, ['resolve', 'prepare', 'compile', 'verify', 'install', 'done']);
    assert.ok(build.some((e) => e.phase === 'compile' && e.line === 'built 4 packages'), 'go output lines are forwarded');
    // `go mod download -json` is read, never shown.
    assert.ok(!build.some((e) => e.line !== undefined && /^\s*[{}"]/.test(e.line)), 'no JSON in the progress');
    assert.deepEqual(build.filter((e) => e.phase === 'resolve').map((e) => [e.item, e.done, e.total]), [['k8s.io/kubernetes', 1, 1]]);
    // Which module, package or binary, and how many of how many (go list -deps counted 6).
    assert.deepEqual(build.filter((e) => e.phase === 'prepare' && e.item).map((e) => [e.item, e.done]).slice(0, 2), [['k8s.io/api v0.36.1', 1], ['k8s.io/client-go v0.36.1', 2]]);
    const compiled = build.filter((e) => e.phase === 'compile' && e.item);
    assert.deepEqual(compiled.map((e) => [e.item, e.done, e.total]).at(-1), ['k8s.io/kubernetes/cmd/kubectl', 6, 6]);
    assert.equal(compiled[0]!.item, 'internal/abi');
    assert.deepEqual(build.filter((e) => e.phase === 'verify').map((e) => [e.item, e.done, e.total]), [['kube-apiserver', 1, 4], ['kube-controller-manager', 2, 4], ['kube-scheduler', 3, 4], ['kubectl', 4, 4]]);
    assert.ok(calls.some((c) => c.args.join(' ').startsWith('build -v -trimpath')), 'go build -v');
    // Go's caches are kwokts's own, under the cache directory, for every go command it runs.
    for (const c of calls.filter((c) => c.args[0] !== 'env')) {
      assert.equal(c.gocache, path.join(cacheDir, 'go', 'build-cache'), c.args.join(' '));
      assert.equal(c.gomodcache, path.join(cacheDir, 'go', 'mod-cache'), c.args.join(' '));
    }

    const before = (await goCalls(log)).length;
    const again = await buildFromGoModules('kubernetes', '1.36.1', { cacheDir, go });
    assert.equal(again.built, false);
    assert.equal((await goCalls(log)).length, before, 'no go invocation on a cache hit');
  });

  it('names etcd\'s server binary etcd', async () => {
    const dir = path.join(tmp.dir, 'e1');
    const { go } = await makeFakeGo(await mkdirp(dir));
    const cacheDir = path.join(dir, 'cache');
    const result = await buildFromGoModules('etcd', '3.6.10', { cacheDir, go });
    assert.deepEqual((await readdir(result.dir)).sort(), ['etcd', 'etcdctl', 'etcdutl']);
    const gomod = await readFile(path.join(cacheDir, 'gobuild/src/etcd-v3.6.10/go.mod'), 'utf8');
    assert.match(gomod, /go\.etcd\.io\/etcd\/api\/v3 => go\.etcd\.io\/etcd\/api\/v3 v3\.6\.10/);
    assert.doesNotMatch(gomod, /FORBIDDEN/);
  });

  it("seeds the wrapper's go.sum with the upstream modules' own go.sum before go get", async () => {
    const dir = path.join(tmp.dir, 'sum1');
    const { go, log } = await makeFakeGo(await mkdirp(dir), { upstreamSum: 'example.com/dep v1.0.0 h1:dep=\nMOD/dep v0.1.0/go.mod h1:x=\n' });
    const cacheDir = path.join(dir, 'cache');
    await buildFromGoModules('etcd', '3.6.10', { cacheDir, go });
    const sum = await readFile(path.join(cacheDir, 'gobuild/src/etcd-v3.6.10/go.sum'), 'utf8');
    assert.equal(sum, ['example.com/dep v1.0.0 h1:dep=', 'go.etcd.io/etcd/etcdctl/v3/dep v0.1.0/go.mod h1:x=', 'go.etcd.io/etcd/etcdutl/v3/dep v0.1.0/go.mod h1:x=', 'go.etcd.io/etcd/server/v3/dep v0.1.0/go.mod h1:x=', ''].join('\n'));
    const atGet = (await readFile(log, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as { args: string[]; sum?: string }).find((c) => c.args[0] === 'go.sum-at-get');
    assert.equal(atGet?.sum, sum, 'go get already saw the seeded go.sum');
  });

  it('two concurrent builds of the same version run go build once', async () => {
    const dir = path.join(tmp.dir, 'c1');
    const { go, log } = await makeFakeGo(await mkdirp(dir), { buildDelayMs: 300 });
    const cacheDir = path.join(dir, 'cache');
    const [a, b] = await Promise.all([
      buildFromGoModules('kubernetes', 'v1.36.1', { cacheDir, go }),
      buildFromGoModules('kubernetes', 'v1.36.1', { cacheDir, go }),
    ]);
    assert.deepEqual([a.built, b.built].sort(), [false, true]);
    assert.equal((await goCalls(log)).filter((c) => c.args[0] === 'build').length, 1);
  });

  it('refuses binaries that do not report the wanted version, and installs nothing', async () => {
    const dir = path.join(tmp.dir, 'w1');
    const { go } = await makeFakeGo(await mkdirp(dir), { wrongVersion: true });
    const cacheDir = path.join(dir, 'cache');
    await assert.rejects(buildFromGoModules('kubernetes', 'v1.36.1', { cacheDir, go }), (e: unknown) => {
      assert.ok(e instanceof ExternalCommandError);
      assert.match(e.message, /does not report "Kubernetes v1\.36\.1"/);
      assert.match(e.output, /v0\.0\.0-master/);
      return true;
    });
    assert.deepEqual((await listFiles(path.join(cacheDir, 'gobuild'))).filter((f) => !f.startsWith('src/')), []);
  });

  it('a failing go build is an ExternalCommandError carrying the output tail', async () => {
    const dir = path.join(tmp.dir, 'f1');
    const { go } = await makeFakeGo(await mkdirp(dir), { failBuild: true });
    const cacheDir = path.join(dir, 'cache');
    await assert.rejects(buildFromGoModules('etcd', 'v3.6.10', { cacheDir, go }), (e: unknown) => {
      assert.ok(e instanceof ExternalCommandError);
      assert.equal(e.command[1], 'build');
      assert.match(e.output, /compile error: something broke/);
      return true;
    });
    assert.deepEqual((await listFiles(path.join(cacheDir, 'gobuild'))).filter((f) => !f.startsWith('src/')), []);
  });

  it('without go it is a PreflightError saying to install Go', async () => {
    await assert.rejects(buildFromGoModules('etcd', 'v3.6.10', { cacheDir: path.join(tmp.dir, 'n1'), go: path.join(tmp.dir, 'no-such-go') }), (e: unknown) => {
      assert.ok(e instanceof PreflightError);
      assert.match(e.message, /go tool was not found/);
      assert.match(e.hint ?? '', /install Go/);
      return true;
    });
  });
});

async function mkdirp(dir: string): Promise<string> {
  const { mkdir } = await import('node:fs/promises');
  await mkdir(dir, { recursive: true });
  return dir;
}

describe('mergeGoSums', () => {
  it('is the union of upstream go.sum lines, sorted, each once; anything else is dropped', async () => {
    const { mergeGoSums } = await import('../../../src/artifacts/gobuild.js');
    const a = 'example.com/b v1.0.0 h1:bbb=\nexample.com/a v1.0.0/go.mod h1:aaa=\n';
    const b = 'example.com/a v1.0.0/go.mod h1:aaa=\n\nnot a sum line\nexample.com/c v0.1.0 h1:ccc=';
    assert.equal(mergeGoSums([a, b]), 'example.com/a v1.0.0/go.mod h1:aaa=\nexample.com/b v1.0.0 h1:bbb=\nexample.com/c v0.1.0 h1:ccc=\n');
    assert.equal(mergeGoSums(['', 'junk']), '');
  });
});

test('the line before a build says what a cold build costs and where the space goes', async () => {
  const { buildStartMessage } = await import('../../../src/artifacts/gobuild.js');
  assert.equal(
    buildStartMessage('kubernetes', 'v1.36.1', 'go1.26.8', '/home/u/.kwok/cache', 2, {}),
    "building kubernetes v1.36.1 from Go modules with go1.26.8: a cold build takes about 6–16 minutes on a 2-core machine and about 4.5 GB of disk (this machine has 2 CPUs), most of it Go's caches under /home/u/.kwok/cache/go (`kwokts artifacts prune` frees them)",
  );
  // The user's own Go caches are theirs: prune is not offered for them.
  assert.match(buildStartMessage('etcd', 'v3.6.10', 'go1.26.8', '/c', 1, { GOCACHE: '/g', GOMODCACHE: '/m' }), /a cold build takes minutes and GBs of disk \(this machine has 1 CPU\), most of it Go's caches \(your GOCACHE and GOMODCACHE\)$/);
});
