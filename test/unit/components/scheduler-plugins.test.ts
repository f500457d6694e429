import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildComponents, networkPlacement, schedulerPluginsManifestObjects, schedulerPluginsManifestSources, type ClusterSpec } from '../../../src/components/index.js';
import { defaultOptionValues } from '../../../src/config/options.js';
import { parseK8sYamlDocuments } from '../../../src/gocompat/yaml/index.js';
import { sampleSpec } from './sample-spec.js';

function containerSpec(extra: ClusterSpec['components']): ClusterSpec {
  const base = sampleSpec();
  return sampleSpec({ components: [...base.components, ...extra], placement: networkPlacement('c1'), ports: { ...base.ports, prometheus: 2013 } });
}

test("scheduler-plugins: kwokctl's controller command and arguments, the cluster's kubeconfig, no port on the host, run as the files' owner", () => {
  const s = containerSpec(['scheduler-plugins']);
  const sp = buildComponents(s).find((c) => c.name === 'scheduler-plugins')!;
  assert.deepEqual(sp.command, ['controller']);
  assert.deepEqual(sp.args, [`--kubeconfig=${s.paths.networkKubeconfig}`, '--metricsAddr=:8080']);
  assert.deepEqual(sp.links, ['kube-apiserver']);
  assert.deepEqual(sp.ports, []);
  assert.equal(sp.probe, undefined);
  assert.equal(sp.runAsFileOwner, true);
  assert.ok(sp.mounts!.some((m) => m.path === s.paths.networkKubeconfig && m.readOnly));
  // Its scheduler image runs as 65532 too; kube-scheduler's own image does not need it.
  assert.equal(buildComponents(s).find((c) => c.name === 'kube-scheduler')!.runAsFileOwner, true);
  assert.equal(buildComponents(containerSpec([])).find((c) => c.name === 'kube-scheduler')!.runAsFileOwner, undefined);
});

test('Prometheus scrapes the controller where it listens on the cluster network (plain HTTP, job scheduler-plugins)', () => {
  const prometheus = buildComponents(containerSpec(['prometheus', 'scheduler-plugins'])).find((c) => c.name === 'prometheus')!;
  const config = prometheus.files![0]!.content;
  assert.match(config, /job_name: scheduler-plugins\n\s+scheme: http\n\s+metrics_path: \/metrics[\s\S]*?- kwok-c1-scheduler-plugins:8080/);
  const without = buildComponents(containerSpec(['prometheus'])).find((c) => c.name === 'prometheus')!.files![0]!.content;
  assert.doesNotMatch(without, /scheduler-plugins/);
});

test("manifest sources: kwokctl's seven files at the version's tag, or the given ones", () => {
  const sources = schedulerPluginsManifestSources(defaultOptionValues());
  assert.equal(sources.length, 7);
  assert.equal(sources[0], 'https://github.com/kubernetes-sigs/scheduler-plugins/raw/refs/tags/v0.34.7/manifests/install/all-in-one.yaml');
  assert.equal(sources[6], 'https://github.com/kubernetes-sigs/scheduler-plugins/raw/refs/tags/v0.34.7/manifests/noderesourcetopology/crd.yaml');
  assert.equal(schedulerPluginsManifestSources({ ...defaultOptionValues(), schedulerPluginsVersion: '0.33.1' })[1], 'https://github.com/kubernetes-sigs/scheduler-plugins/raw/refs/tags/v0.33.1/manifests/capacityscheduling/crd.yaml');
  assert.deepEqual(schedulerPluginsManifestSources({ ...defaultOptionValues(), schedulerPluginsManifests: ['./mine.yaml'] }), ['./mine.yaml']);
});

const ALL_IN_ONE = `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: 'system:kube-scheduler:plugins'}
rules: []
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: 'system:kube-scheduler:plugins'}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: 'system:kube-scheduler:plugins'}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: 'system:kube-scheduler'}]
---
apiVersion: v1
kind: Namespace
metadata: {name: scheduler-plugins}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: scheduler-plugins-controller, namespace: scheduler-plugins}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: scheduler-plugins-controller}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: scheduler-plugins-controller}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: scheduler-plugins-controller, namespace: scheduler-plugins}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: podgroups.scheduling.x-k8s.io}
`;

test("manifests: the CRDs, Namespaces and the scheduler's RBAC are kept; the in-cluster install is dropped; anything else is refused", () => {
  const kept = schedulerPluginsManifestObjects(parseK8sYamlDocuments(ALL_IN_ONE), 'all-in-one.yaml');
  assert.deepEqual(kept.map((o) => `${String(o.kind)}/${String((o.metadata as { name: string }).name)}`), [
    'ClusterRole/system:kube-scheduler:plugins',
    'ClusterRoleBinding/system:kube-scheduler:plugins',
    'Namespace/scheduler-plugins',
    'CustomResourceDefinition/podgroups.scheduling.x-k8s.io',
  ]);
  assert.throws(
    () => schedulerPluginsManifestObjects(parseK8sYamlDocuments('apiVersion: v1\nkind: Service\nmetadata: {name: x}\n'), 'extra.yaml'),
    /^UsageError: scheduler-plugins manifest extra\.yaml has a Service \(v1\) that kwokts does not know how to set up$/,
  );
});

test('manifests: the real v0.34.7 files, where the Go module cache has them, give its six CRDs and the RBAC', { skip: !moduleDir() && 'sigs.k8s.io/scheduler-plugins@v0.34.7 is not in the Go module cache' }, () => {
  const dir = moduleDir()!;
  const kinds = schedulerPluginsManifestSources(defaultOptionValues()).flatMap((url) => {
    const file = `${dir}/${url.split('/v0.34.7/')[1]!}`;
    return schedulerPluginsManifestObjects(parseK8sYamlDocuments(readFileSync(file, 'utf8')), url).map((o) => String(o.kind));
  });
  assert.equal(kinds.filter((k) => k === 'CustomResourceDefinition').length, 6);
  assert.ok(kinds.includes('ClusterRoleBinding'));
});

function moduleDir(): string | undefined {
  const dir = `${process.env.GOMODCACHE ?? `${process.env.HOME ?? ''}/go/pkg/mod`}/sigs.k8s.io/scheduler-plugins@v0.34.7`;
  try {
    readFileSync(`${dir}/go.mod`);
    return dir;
  } catch {
    return undefined;
  }
}
