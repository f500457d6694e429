import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { planGoBuild } from '../../../src/artifacts/gobuild.js';
import { DEFAULT_CNI_MANIFEST, dockerArchiveMeta, kindBaseRuntimeSpec, localKindNodeImage, parseKubeadmImages, sandboxImageOf, STATIC_CNI_CONFLIST } from '../../../src/artifacts/kind-node-image.js';
import { controllerBuildArgs, localNodeBase } from '../../../src/artifacts/controller-image.js';
import { upstreamNodeImageVersion } from '../../../src/artifacts/kind.js';
import { parse } from 'yaml';

const KUBEADM_LIST = `registry.k8s.io/kube-apiserver:v1.36.1
registry.k8s.io/kube-controller-manager:v1.36.1
registry.k8s.io/kube-scheduler:v1.36.1
registry.k8s.io/kube-proxy:v1.36.1
registry.k8s.io/coredns/coredns:v1.14.2
registry.k8s.io/pause:3.10.2
registry.k8s.io/etcd:3.6.8-0
`;

describe('kind node image', () => {
  it('is tagged under kwokts.local, never as upstream kindest/node', () => {
    assert.equal(localKindNodeImage('1.36.1'), 'kwokts.local/kind-node:v1.36.1');
  });

  it("reads kubeadm's image list: etcd release without the image revision, coredns and pause", () => {
    const images = parseKubeadmImages(KUBEADM_LIST);
    assert.deepEqual(images.control.map((c) => c.ref), ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kube-proxy'].map((n) => `registry.k8s.io/${n}:v1.36.1`));
    assert.deepEqual(images.etcd, { ref: 'registry.k8s.io/etcd:3.6.8-0', version: 'v3.6.8' });
    assert.deepEqual(images.coredns, { ref: 'registry.k8s.io/coredns/coredns:v1.14.2', version: 'v1.14.2' });
    assert.deepEqual(images.pause, ['registry.k8s.io/pause:3.10.2']);
    assert.throws(() => parseKubeadmImages('registry.k8s.io/pause:3.10\n'), /names no \/kube-apiserver image/);
  });

  it("finds the sandbox image kind's containerd config names", () => {
    assert.equal(sandboxImageOf('[plugins."io.containerd.grpc.v1.cri"]\n  sandbox_image = "registry.k8s.io/pause:3.10"\n'), 'registry.k8s.io/pause:3.10');
    assert.equal(sandboxImageOf('version = 2\n'), undefined);
  });

  it("adds kind's product-files hook to the runtime spec and drops rlimits", () => {
    const spec = JSON.parse(kindBaseRuntimeSpec(JSON.stringify({ process: { rlimits: [{ type: 'RLIMIT_NOFILE' }], cwd: '/' }, hooks: { createContainer: [{ path: '/x' }] } }))) as { process: Record<string, unknown>; hooks: { createContainer: Array<{ path: string }> } };
    assert.deepEqual(spec.hooks.createContainer.map((h) => h.path), ['/x', '/kind/bin/mount-product-files.sh']);
    assert.equal(spec.process['rlimits'], undefined);
    assert.equal(spec.process['cwd'], '/');
  });

  it('writes a one-layer docker archive whose config names the layer digest and whose config file is named by its own digest', () => {
    const meta = dockerArchiveMeta({ tags: ['registry.k8s.io/pause:3.10', 'registry.k8s.io/pause:3.10.2'], entrypoint: ['/pause'] }, 'ab'.repeat(32));
    const config = JSON.parse(meta.config) as { rootfs: { diff_ids: string[] }; config: { Entrypoint: string[] } };
    assert.deepEqual(config.rootfs.diff_ids, [`sha256:${'ab'.repeat(32)}`]);
    assert.deepEqual(config.config.Entrypoint, ['/pause']);
    assert.equal(meta.configName, `${createHash('sha256').update(meta.config).digest('hex')}.json`);
    assert.deepEqual(JSON.parse(meta.manifest), [{ Config: meta.configName, RepoTags: ['registry.k8s.io/pause:3.10', 'registry.k8s.io/pause:3.10.2'], Layers: [`${'ab'.repeat(32)}/layer.tar`] }]);
  });

  it("ships a static ptp CNI in kind's pod subnet and a CNI manifest kind can apply", () => {
    const cni = JSON.parse(STATIC_CNI_CONFLIST) as { plugins: Array<{ type: string; ipam?: { ranges: Array<Array<{ subnet: string }>> } }> };
    assert.deepEqual(cni.plugins.map((p) => p.type), ['ptp', 'portmap']);
    assert.equal(cni.plugins[0]!.ipam!.ranges[0]![0]!.subnet, '10.244.0.0/16');
    assert.equal((parse(DEFAULT_CNI_MANIFEST) as { kind: string }).kind, 'ConfigMap');
  });

  it('falls back only for upstream kindest/node images', () => {
    assert.equal(upstreamNodeImageVersion('docker.io/kindest/node:v1.36.1'), 'v1.36.1');
    assert.equal(upstreamNodeImageVersion('kindest/node:v1.35.0'), 'v1.35.0');
    assert.equal(upstreamNodeImageVersion('mirror.local/kindest/node:v1.36.1'), undefined);
    assert.equal(upstreamNodeImageVersion('docker.io/kindest/node:latest'), undefined);
  });

  it('plans Go builds of the node binaries, CoreDNS and kind, each checked by its version output', () => {
    const node = planGoBuild('kubernetes-node', 'v1.36.1', '/cache');
    assert.deepEqual(node.outputs.map((o) => [o.name, o.versionArgs.join(' '), o.versionText]), [
      ['kubelet', '--version', 'Kubernetes v1.36.1'],
      ['kubeadm', 'version -o short', 'v1.36.1'],
      ['kube-proxy', '--version', 'Kubernetes v1.36.1'],
    ]);
    assert.equal(node.outDir, '/cache/gobuild/kubernetes-node/v1.36.1');
    assert.match(node.ldflags, /gitVersion=v1\.36\.1/);
    const coredns = planGoBuild('coredns', '1.14.2', '/cache');
    assert.deepEqual(coredns.outputs.map((o) => [o.name, o.builtName, o.versionText]), [['coredns', 'coredns', 'CoreDNS-1.14.2']]);
    const kind = planGoBuild('kind', '0.32.0', '/cache');
    assert.deepEqual(kind.getArgs, ['get', 'sigs.k8s.io/kind@v0.32.0']);
    assert.deepEqual(kind.outputs.map((o) => [o.name, o.versionArgs.join(' '), o.versionText]), [['kind', 'version', 'kind v0.32.0']]);
  });
});

describe('controller image', () => {
  it("builds the repository's Dockerfile on the given base, with the host network for npm ci", () => {
    assert.deepEqual(controllerBuildArgs('/repo', 'ghcr.io/kwokts/kwok:v0.1.0', 'kwokts.local/node-base:v20.20.2'), [
      'build', '--network', 'host', '--build-arg', 'BASE_IMAGE=kwokts.local/node-base:v20.20.2', '--tag', 'ghcr.io/kwokts/kwok:v0.1.0', '--file', '/repo/Dockerfile', '/repo',
    ]);
    assert.equal(localNodeBase('v20.1.0'), 'kwokts.local/node-base:v20.1.0');
  });
});
