import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildArtifactCandidates, type ArtifactCandidate } from '../../../src/artifacts/sources.js';
import { buildPinnedGoMod, planGoBuild } from '../../../src/artifacts/gobuild.js';

const linux = { os: 'linux', arch: 'amd64' };
const summary = (cs: ArtifactCandidate[]): string[] => cs.map((c) => `${c.type}:${c.source}:${c.origin}`);

describe('metrics-server and jaeger binaries', () => {
  it('metrics-server: the cache, kwokctl\'s release URL, then a build of sigs.k8s.io/metrics-server', () => {
    const cs = buildArtifactCandidates({ name: 'metrics-server' }, { cacheDir: '/cache', platform: linux });
    const url = 'https://github.com/kubernetes-sigs/metrics-server/releases/download/v0.9.0/metrics-server-linux-amd64';
    assert.deepEqual(summary(cs), [
      `file:cache:${url}`,
      'file:cache:go build sigs.k8s.io/metrics-server/cmd/metrics-server@v0.9.0',
      `download:download:${url}`,
      'gobuild:gobuild:go build sigs.k8s.io/metrics-server/cmd/metrics-server@v0.9.0',
    ]);
    assert.equal(cs[3]?.path, '/cache/gobuild/metrics-server/v0.9.0/metrics-server');
  });

  it('jaeger: the all-in-one member of the release archive, or a build of cmd/all-in-one; the version is configurable', () => {
    const cs = buildArtifactCandidates({ name: 'jaeger', jaegerVersion: '1.75.0' }, { cacheDir: '/cache', platform: linux });
    assert.deepEqual(summary(cs).slice(2), [
      'download:download:https://github.com/jaegertracing/jaeger/releases/download/v1.75.0/jaeger-1.75.0-linux-amd64.tar.gz#jaeger-all-in-one',
      'gobuild:gobuild:go build github.com/jaegertracing/jaeger/cmd/all-in-one@v1.75.0',
    ]);
  });

  it('an explicit --metrics-server-binary is the only candidate', () => {
    const cs = buildArtifactCandidates({ name: 'metrics-server', binary: '/opt/metrics-server' }, { cacheDir: '/cache', platform: linux });
    assert.deepEqual(summary(cs), ['file:path:/opt/metrics-server']);
  });

  it('plans one binary each, metrics-server stamped with its version and checked by --version', () => {
    const ms = planGoBuild('metrics-server', '0.9.0', '/cache');
    assert.deepEqual(ms.getArgs, ['get', 'sigs.k8s.io/metrics-server/cmd/metrics-server@v0.9.0']);
    assert.match(ms.ldflags, /-X k8s\.io\/client-go\/pkg\/version\.gitVersion=v0\.9\.0/);
    assert.deepEqual(ms.outputs.map((o) => [o.name, o.builtName, o.versionArgs.join(' '), o.versionText]), [['metrics-server', 'metrics-server', '--version', 'v0.9.0']]);
    const jaeger = planGoBuild('jaeger', 'v1.76.0', '/cache');
    assert.deepEqual(jaeger.outputs.map((o) => [o.name, o.builtName]), [['jaeger', 'all-in-one']]);
    assert.equal(jaeger.outDir, '/cache/gobuild/jaeger/v1.76.0');
  });

  it("carries the upstream module's same-path replace pins into the wrapper go.mod (jaeger pins sarama)", () => {
    const upstream = 'module github.com/jaegertracing/jaeger\n\ngo 1.24.6\n\nrequire github.com/Shopify/sarama v1.37.2\n\nreplace github.com/Shopify/sarama => github.com/Shopify/sarama v1.33.0\n';
    const mod = buildPinnedGoMod('kwokts.local/jaegerbuild', 'github.com/jaegertracing/jaeger', upstream, '1.76.0');
    assert.equal(mod, 'module kwokts.local/jaegerbuild\n\ngo 1.24.6\n\nrequire github.com/jaegertracing/jaeger v1.76.0\n\nreplace (\n\tgithub.com/Shopify/sarama => github.com/Shopify/sarama v1.33.0\n)\n');
  });
});
