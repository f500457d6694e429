import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildContainerSpec } from '../../../../runtimes/container/container-spec.js';
import { buildUserComponent } from '../../../../src/components/index.js';

test('a user component runs as a container with its image, entrypoint, volumes at their mount paths, and its port published on loopback', () => {
  const component = buildUserComponent(
    {
      name: 'exporter',
      image: 'example/exporter:1',
      command: ['/bin/exporter'],
      args: ['--listen=:9100'],
      links: ['kube-apiserver'],
      ports: [{ name: 'http', port: 9100, hostPort: 19100, protocol: 'TCP' }],
      envs: [{ name: 'A', value: 'b' }],
      volumes: [{ hostPath: '/srv/data', mountPath: '/data', readOnly: true }],
    },
    'docker',
  );
  const spec = buildContainerSpec(component, 'c1', new Set(['kube-apiserver']));
  assert.equal(spec.image, 'example/exporter:1');
  assert.deepEqual(spec.entrypoint, ['/bin/exporter']);
  assert.deepEqual(spec.args, ['--listen=:9100']);
  assert.deepEqual(spec.env, { A: 'b' });
  assert.deepEqual(spec.mounts, [{ hostPath: '/srv/data', containerPath: '/data', readOnly: true }]);
  assert.deepEqual(spec.ports, [{ hostIp: '127.0.0.1', hostPort: 19100, containerPort: 9100 }]);
  assert.deepEqual(spec.links, ['kwok-c1-kube-apiserver']);
});

test('a user component without an image cannot run in a container: one error naming it', () => {
  const component = buildUserComponent({ name: 'exporter', binary: '/usr/bin/x', command: [], args: [], links: [], ports: [], envs: [], volumes: [] }, 'docker');
  assert.throws(() => buildContainerSpec(component, 'c1', new Set()), /component exporter has no image/);
});

test('the CLI form of a container with a multi-word entrypoint and a working directory means what the API form means', async () => {
  const { renderArgs } = await import('../../../../runtimes/container/operations.js');
  const { DOCKER } = await import('../../../../runtimes/docker.js');
  const component = buildUserComponent(
    { name: 'job', image: 'busybox:1', command: ['/bin/sh', '-c'], args: ['echo hi'], workDir: '/work', links: [], ports: [], envs: [], volumes: [] },
    'docker',
  );
  const spec = buildContainerSpec(component, 'c1', new Set());
  assert.equal(spec.workDir, '/work');
  const args = renderArgs({ op: 'create', spec }, DOCKER);
  assert.ok(args.includes('--entrypoint=/bin/sh'), args.join(' '));
  assert.ok(args.includes('--workdir=/work'), args.join(' '));
  assert.deepEqual(args.slice(-3), ['busybox:1', '-c', 'echo hi']);
});

test("each built-in component's container runs what its upstream image has, as kwokctl names it: the control plane's binary by name, metrics-server at /metrics-server, jaeger and the kwok controller by the image's own entrypoint", async () => {
  const { buildComponents, networkPlacement } = await import('../../../../src/components/index.js');
  const { sampleSpec } = await import('../../components/sample-spec.js');
  const base = sampleSpec({ placement: networkPlacement('c1') });
  const spec = sampleSpec({
    placement: networkPlacement('c1'),
    components: [...base.components, 'metrics-server', 'jaeger', 'prometheus'],
    ports: { ...base.ports, metricsServer: 2010, jaeger: 2011, jaegerOtlpGrpc: 2012, prometheus: 2013 },
    images: Object.fromEntries(['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'metrics-server', 'jaeger', 'prometheus'].map((n) => [n, `example/${n}:1`])),
  });
  const entrypoints = Object.fromEntries(buildComponents(spec).map((c) => [c.name, buildContainerSpec(c, 'c1', new Set(spec.components)).entrypoint]));
  assert.deepEqual(entrypoints, {
    etcd: ['etcd'],
    'kube-apiserver': ['kube-apiserver'],
    'kube-controller-manager': ['kube-controller-manager'],
    'kube-scheduler': ['kube-scheduler'],
    // Ours runs node, Go kwok's image /usr/local/bin/kwok: either way the image says.
    'kwok-controller': [],
    // jaegertracing/all-in-one is FROM scratch with /go/bin/all-in-one-linux; metrics-server's
    // image is distroless with /metrics-server; prom/prometheus has /bin/prometheus on its PATH.
    'metrics-server': ['/metrics-server'],
    jaeger: [],
    prometheus: ['prometheus'],
  });
});
