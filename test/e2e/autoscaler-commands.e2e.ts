/** `kwokts autoscaler check` and `kwokts artifacts build cluster-autoscaler` as a user runs them: the built CLI, no cluster. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { kwokts, ROOT, sandbox, type Sandbox, failure } from './harness.js';

const EXAMPLE = join(ROOT, 'templates', 'autoscaler', 'kwok-provider-configmaps.yaml');

describe('kwokts autoscaler check', () => {
  let box: Sandbox;
  before(() => (box = sandbox()));
  after(() => box.cleanup());

  test('the shipped example is fine and names its nodegroups', async () => {
    const r = await kwokts(box, ['autoscaler', 'check', '-f', EXAMPLE]);
    assert.equal(r.exitCode, 0, failure(r));
    assert.equal(r.stdout, 'default: ok, nodegroups small, large');
  });

  test('templates without the nodegroup label: each problem on stdout, one error line, exit 2', async () => {
    const broken = readFileSync(EXAMPLE, 'utf8').replace(/^\s+kwok-nodegroup: large\n/m, '');
    const r = await kwokts(box, ['autoscaler', 'check', '-n', 'autoscaling', '-f', '-'], { input: broken });
    assert.equal(r.exitCode, 2);
    assert.equal(r.stdout, 'problem: autoscaling/kwok-provider-templates: template node "large" lacks the label "kwok-nodegroup" (nodegroups.fromNodeLabelKey); the kwok provider skips it silently');
    assert.match(r.stderr, /^error: 1 problem in the kwok provider ConfigMaps$/m);
  });

  test('bad input: a file without the config, a missing file', async () => {
    const none = await kwokts(box, ['autoscaler', 'check', '-f', join(ROOT, 'templates', 'autoscaler', 'workload.yaml')]);
    assert.equal(none.exitCode, 2);
    assert.match(none.stderr, /^error: no ConfigMap named kwok-provider-config in .*workload\.yaml$/m);
    const missing = await kwokts(box, ['autoscaler', 'check', '-f', '/nonexistent.yaml']);
    assert.equal(missing.exitCode, 2);
    assert.match(missing.stderr, /^error: \/nonexistent\.yaml does not exist$/m);
  });
});

describe('kwokts artifacts build cluster-autoscaler', () => {
  let box: Sandbox;
  before(() => (box = sandbox()));
  after(() => box.cleanup());

  test('a module the proxy does not have: go\'s reason in one error line, what to do, exit 1, no binary', async () => {
    // A real go against an empty file proxy and an empty module cache: the same failure as a proxy
    // that refuses the module, on any machine.
    const scratch = join(box.workdir, '..', 'go');
    mkdirSync(join(scratch, 'proxy'), { recursive: true });
    const cache = join(scratch, 'kwok-cache');
    Object.assign(box.env, { GOPROXY: `file://${join(scratch, 'proxy')}`, GOMODCACHE: join(scratch, 'modcache'), GOFLAGS: '-modcacherw', KWOK_CACHE_DIR: cache });
    const r = await kwokts(box, ['artifacts', 'build', 'cluster-autoscaler']);
    assert.equal(r.exitCode, 1, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^error: cannot download sigs\.k8s\.io\/cluster-autoscaler@v1\.36\.0: .*no such file or directory$/m);
    assert.match(r.stderr, /^hint: .*--source DIR/m);
    assert.equal(existsSync(join(cache, 'gobuild', 'cluster-autoscaler', 'v1.36.0', 'cluster-autoscaler')), false);
  });

  test('--source with a checkout that does not compile: one error line, go\'s own complaint under it, exit 1, no binary', async () => {
    const checkout = join(box.workdir, '..', 'broken-ca');
    mkdirSync(checkout, { recursive: true });
    writeFileSync(join(checkout, 'go.mod'), 'module k8s.io/autoscaler/cluster-autoscaler\n\ngo 1.22\n');
    writeFileSync(join(checkout, 'main.go'), 'package main\n\nfunc main() { notDefinedAnywhere() }\n');
    const cache = join(box.workdir, '..', 'broken-ca-cache');
    const r = await kwokts({ ...box, env: { ...box.env, KWOK_CACHE_DIR: cache } }, ['artifacts', 'build', 'cluster-autoscaler', '--source', checkout]);
    assert.equal(r.exitCode, 1, r.stderr);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^error: go build failed \(exit 1\)\n {2}# k8s\.io\/autoscaler\/cluster-autoscaler\n {2}\.\/main\.go:3:\d+: undefined: notDefinedAnywhere\nhint: /m);
    assert.equal(existsSync(join(cache, 'gobuild', 'cluster-autoscaler', 'source', 'cluster-autoscaler')), false);
  });

  test('--source is refused for the control-plane families, and for a directory that is no checkout', async () => {
    const wrongTarget = await kwokts(box, ['artifacts', 'build', 'etcd', '--source', ROOT]);
    assert.equal(wrongTarget.exitCode, 2);
    assert.match(wrongTarget.stderr, /^error: --source is only for `artifacts build cluster-autoscaler`$/m);
    const notCheckout = await kwokts(box, ['artifacts', 'build', 'cluster-autoscaler', '--source', ROOT]);
    assert.equal(notCheckout.exitCode, 2);
    assert.match(notCheckout.stderr, /^error: .* is not a cluster-autoscaler checkout/m);
  });
});
