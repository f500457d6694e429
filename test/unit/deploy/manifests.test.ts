import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'yaml';
import { defaultStageDocuments } from '../../../src/cluster/default-stages.js';
import { loadDeployKubeconfig } from '../../../src/deploy/deploy.js';
import { DEFAULT_KWOK_CONTROLLER_IMAGE } from '../../../src/artifacts/images.js';
import { KWOKTS_VERSION } from '../../../src/util/version.js';
import { deployObjects, readDeployTemplate, renderDeployManifests } from '../../../src/deploy/manifests.js';
import { parseKwokArgs, resolveKwokOptions } from '../../../src/kwok/app/options.js';
import { PreflightError, UsageError } from '../../../src/util/errors.js';
import { packageRoot, templatePath } from '../../../src/util/package-root.js';

type Obj = Record<string, any>;

function container(objects: Obj[]): Obj {
  const deployment = objects.find((o) => o['kind'] === 'Deployment');
  assert.ok(deployment, 'a Deployment');
  return deployment['spec']['template']['spec']['containers'][0];
}

describe('in-cluster manifests', () => {
  const packageVersion = (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;

  it('pins the controller image to v + the package version, in the shipped file too', () => {
    assert.equal(KWOKTS_VERSION, packageVersion);
    assert.equal(DEFAULT_KWOK_CONTROLLER_IMAGE, `ghcr.io/kwokts/kwok:v${packageVersion}`);
    const shipped = deployObjects(readDeployTemplate('kwok.yaml')) as Obj[];
    assert.equal(container(shipped)['image'], DEFAULT_KWOK_CONTROLLER_IMAGE, 'templates/deploy/kwok.yaml must name the pinned image (update it with package.json)');
    assert.equal(container(deployObjects(renderDeployManifests()) as Obj[])['image'], DEFAULT_KWOK_CONTROLLER_IMAGE);
    assert.equal(container(deployObjects(renderDeployManifests({ image: 'mirror.local/kwok:dev' })) as Obj[])['image'], 'mirror.local/kwok:dev');
  });

  it('kwok.yaml carries the same Stage CRD as create --enable-crds', () => {
    const crd = (deployObjects(readDeployTemplate('kwok.yaml')) as Obj[]).find((o) => o['kind'] === 'CustomResourceDefinition');
    assert.deepEqual(crd, parse(readFileSync(templatePath('crds', 'stage.yaml'), 'utf8')));
  });

  it('stage-fast.yaml is exactly the default stage set', () => {
    const stages = deployObjects(readDeployTemplate('stage-fast.yaml'));
    assert.deepEqual(stages, defaultStageDocuments());
    assert.deepEqual(stages.map((s) => s.metadata.name), ['node-initialize', 'node-heartbeat-with-lease', 'pod-ready', 'pod-complete', 'pod-delete']);
    const all = deployObjects(renderDeployManifests()) as Obj[];
    assert.equal(all.filter((o) => o['kind'] === 'Stage').length, 5);
    assert.equal((deployObjects(renderDeployManifests({ stages: false })) as Obj[]).filter((o) => o['kind'] === 'Stage').length, 0);
    // The CRD comes before any Stage, so one apply in file order works.
    assert.ok(all.findIndex((o) => o['kind'] === 'CustomResourceDefinition') < all.findIndex((o) => o['kind'] === 'Stage'));
  });

  it("the Deployment's arguments are valid for our controller: fake-annotated nodes, Stage CRs, leader election", () => {
    const c = container(deployObjects(renderDeployManifests()) as Obj[]);
    const options = resolveKwokOptions(parseKwokArgs(c['args'] as string[]), {}, []);
    assert.deepEqual(options.manageMode, { kind: 'annotation-selector', selector: 'kwok.x-k8s.io/node=fake' });
    assert.deepEqual(options.enableCRDs, ['Stage']);
    assert.equal(options.leaderElection.enabled, true);
    assert.equal(options.serverAddress, '0.0.0.0:10247');
    assert.equal(options.nodeLeaseDurationSeconds, 40);
    for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) assert.deepEqual(c[probe]['httpGet'], { path: '/healthz', port: 10247, scheme: 'HTTP' }, probe);
  });

  it('--replicas above 1 runs the replicas as shards, which may list and delete node-namespace Leases', () => {
    const objects = deployObjects(renderDeployManifests({ replicas: 3 })) as Obj[];
    const deployment = objects.find((o) => o['kind'] === 'Deployment')!;
    assert.equal(deployment['spec']['replicas'], 3);
    const options = resolveKwokOptions(parseKwokArgs(container(objects)['args'] as string[]), {}, []);
    assert.equal(options.shard.enabled, true);
    assert.equal(options.leaderElection.enabled, false);
    const role = objects.find((o) => o['kind'] === 'Role' && o['metadata']['namespace'] === 'kube-node-lease')!;
    assert.deepEqual(role['rules'][0]['verbs'], ['get', 'list', 'create', 'update', 'delete']);
    const single = deployObjects(renderDeployManifests({ replicas: 1 })) as Obj[];
    assert.equal(single.find((o) => o['kind'] === 'Deployment')!['spec']['replicas'], 1);
    assert.equal(resolveKwokOptions(parseKwokArgs(container(single)['args'] as string[]), {}, []).shard.enabled, false);
    assert.throws(() => renderDeployManifests({ replicas: 0 }));
  });

  it('everything lives in kube-system and every binding names the controller ServiceAccount', () => {
    const objects = deployObjects(renderDeployManifests({ stages: false })) as Obj[];
    for (const o of objects.filter((x) => ['ServiceAccount', 'Service', 'Deployment'].includes(x['kind']))) assert.equal(o['metadata']['namespace'], 'kube-system', o['kind']);
    const bindings = objects.filter((o) => o['kind'] === 'ClusterRoleBinding' || o['kind'] === 'RoleBinding');
    assert.equal(bindings.length, 3);
    for (const b of bindings) assert.deepEqual(b['subjects'], [{ kind: 'ServiceAccount', name: 'kwok-controller', namespace: 'kube-system' }]);
    const clusterRole = objects.find((o) => o['kind'] === 'ClusterRole');
    const verbs = (clusterRole?.['rules'] as Obj[]).flatMap((r) => r['verbs'] as string[]);
    assert.ok(!verbs.includes('*'), 'no wildcard verbs');
    assert.ok(!(clusterRole?.['rules'] as Obj[]).some((r) => (r['resources'] as string[]).includes('secrets')), 'no secrets');
  });

  it('the ClusterRole lets the controller patch and update pod and node statuses (it PUTs a status when it can)', () => {
    const objects = deployObjects(renderDeployManifests({ stages: false })) as Obj[];
    const rules = objects.find((o) => o['kind'] === 'ClusterRole')?.['rules'] as Obj[];
    const verbsOn = (resource: string): string[] => rules.filter((r) => (r['resources'] as string[]).includes(resource)).flatMap((r) => r['verbs'] as string[]);
    for (const resource of ['pods/status', 'nodes/status']) {
      assert.ok(verbsOn(resource).includes('patch'), `patch on ${resource}`);
      assert.ok(verbsOn(resource).includes('update'), `update on ${resource}`);
    }
  });
});

describe('deploy: kubeconfig checks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-deploy-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const good = join(dir, 'good');
  writeFileSync(
    good,
    'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:6443"}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n- name: a\n  context: {cluster: c, user: u}\ncurrent-context: a\n',
  );

  it('a missing file is a preflight error naming it', () => {
    assert.throws(() => loadDeployKubeconfig(join(dir, 'nope'), undefined), (e: Error) => e instanceof PreflightError && e.message === `kubeconfig ${join(dir, 'nope')} does not exist`);
  });

  it('a file that is not a kubeconfig is a usage error', () => {
    const bad = join(dir, 'bad');
    writeFileSync(bad, 'clusters: [oops\n');
    assert.throws(() => loadDeployKubeconfig(bad, undefined), (e: Error) => e instanceof UsageError && e.message.startsWith(`kubeconfig ${bad} is not valid:`));
  });

  it('an unknown context is refused with the known ones as a hint', () => {
    assert.throws(() => loadDeployKubeconfig(good, 'b'), (e: Error) => e instanceof UsageError && /context "b" is not in kubeconfig/.test(e.message) && /its contexts: a/.test((e as UsageError).hint ?? ''));
    assert.equal(loadDeployKubeconfig(good, 'a').server.href, 'https://127.0.0.1:6443/');
  });
});
