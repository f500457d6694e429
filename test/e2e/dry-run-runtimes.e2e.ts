/**
 * The runtimes that cannot run for real on this machine, covered as far as it allows:
 * - nerdctl (its Go module cannot be fetched here): --dry-run prints its exact command lines;
 * - kind (no kind node image): --dry-run, and a create through a test double of the kind CLI
 *   that records its calls (the create fails, as no cluster answers, and must roll back).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { kwokts, oneLinePerCommand, requireBinaries, ROOT, sandbox, type Sandbox, failure } from './harness.js';

const COMPONENTS = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller'];

describe('runtimes without an engine here', () => {
  let box: Sandbox;
  before(() => {
    requireBinaries();
    box = sandbox();
  });
  after(() => box.cleanup());

  test('nerdctl --dry-run: network, images, one container per component, started in order; nothing made', async () => {
    const r = await kwokts(box, ['--name', 'nd', 'create', 'cluster', '--runtime', 'nerdctl', '--dry-run']);
    assert.equal(r.exitCode, 0, failure(r));
    // Engine commands come one word per line (kwokctl's layout): each joined back into one line here.
    const lines = oneLinePerCommand(r.stdout).split('\n').filter((l) => l.startsWith('nerdctl '));
    assert.match(r.stdout, /^nerdctl \\\n {2}network \\\n {2}create \\$/m);
    assert.equal(lines[0], 'nerdctl network create --label=io.kwokts.cluster=nd --label=com.docker.compose.project=kwok-nd kwok-nd');
    const creates = lines.filter((l) => l.startsWith('nerdctl create '));
    assert.deepEqual(creates.map((l) => /--name=(\S+)/.exec(l)?.[1]), COMPONENTS.map((c) => `kwok-nd-${c}`));
    for (const line of creates) {
      assert.ok(!/--link|--requires/.test(line), 'nerdctl has no links');
      assert.match(line, /--publish=127\.0\.0\.1:\d+:\d+\/tcp/, 'ports only on loopback');
      assert.match(line, / --pull=never /);
    }
    assert.match(creates[1]!, /--entrypoint=kube-apiserver .* registry\.k8s\.io\/kube-apiserver:v1\.36\.1 .*--etcd-servers=https:\/\/kwok-nd-etcd:2379/);
    assert.deepEqual(lines.filter((l) => l.startsWith('nerdctl start ')), COMPONENTS.map((c) => `nerdctl start kwok-nd-${c}`));
    // Without nerdctl nothing is present, so every image would be pulled first.
    assert.ok(lines.includes('nerdctl pull ghcr.io/kwokts/kwok:v0.1.0'));
    assert.ok(!existsSync(join(box.workdir, 'clusters', 'nd')), 'dry-run writes nothing');
  });

  test('kind --dry-run: kind create cluster from the generated config, controller image loaded, manifests applied', async () => {
    const r = await kwokts(box, ['--name', 'kd', 'create', 'cluster', '--runtime', 'kind', '--dry-run']);
    assert.equal(r.exitCode, 0, failure(r));
    const dir = join(box.workdir, 'clusters', 'kd');
    const commands = r.stdout.split('\n').filter((l) => /^(kind|kubectl) /.test(l));
    assert.deepEqual(commands, [
      `kind create cluster --name=kwok-kd --config=${dir}/kind.yaml --image=docker.io/kindest/node:v1.36.1 --kubeconfig=${dir}/kind-kubeconfig.yaml`,
      'kind load docker-image ghcr.io/kwokts/kwok:v0.1.0 --name=kwok-kd',
      `kubectl --kubeconfig=${dir}/kubeconfig.yaml --namespace=kube-system create configmap kwok-controller-config --from-file=kwok.yaml=${dir}/kwok.yaml`,
      `kubectl --kubeconfig=${dir}/kubeconfig.yaml --namespace=kube-system apply -f ${dir}/manifests/kwok-controller.yaml`,
    ]);
    assert.match(r.stdout, /apiServerAddress: 127\.0\.0\.1\n\s+apiServerPort: \d+/);
    assert.match(r.stdout, /--manage-nodes-with-annotation-selector=kwok\.x-k8s\.io\/node=fake/);
    assert.match(r.stdout, /image: ghcr\.io\/kwokts\/kwok:v0\.1\.0/);
    assert.ok(!existsSync(dir));
  });

  test('kind with metrics-server, prometheus and jaeger enabled: each is deployed into the node, with no warning', async () => {
    const r = await kwokts(box, ['--name', 'kd', 'create', 'cluster', '--runtime', 'kind', '--prometheus-port=0', '--enable=prometheus,metrics-server,jaeger', '--dry-run']);
    assert.equal(r.exitCode, 0, failure(r));
    assert.doesNotMatch(r.stderr, /^warning:/m);
    const dir = join(box.workdir, 'clusters', 'kd');
    const lines = oneLinePerCommand(r.stdout);
    const kubectl = `kubectl --kubeconfig=${dir}/kubeconfig.yaml --namespace=kube-system`;
    for (const [component, image] of [['metrics-server', /registry\.k8s\.io\/metrics-server\/metrics-server:v[\d.]+/], ['prometheus', /docker\.io\/prom\/prometheus:v[\d.]+/], ['jaeger', /docker\.io\/jaegertracing\/all-in-one:[\d.]+/]] as const) {
      assert.match(lines, new RegExp(`^kind load docker-image ${image.source} --name=kwok-kd$`, 'm'), component);
      assert.ok(lines.includes(`${kubectl} apply -f ${dir}/manifests/${component}.yaml`), component);
    }
    assert.ok(lines.includes(`${kubectl} create configmap prometheus-config --from-file=prometheus.yaml=${dir}/prometheus.yaml`), lines);
    // Prometheus as soon as kind made the cluster (as kwokctl's static pod starts with the node), before the controller.
    assert.ok(lines.indexOf(`${kubectl} apply -f ${dir}/manifests/prometheus.yaml`) < lines.indexOf(`${kubectl} create configmap kwok-controller-config`), 'Prometheus first');
    // Prometheus' and jaeger's UI ports are published by kind.yaml (in-node 9090, 16686), and the
    // apiserver is given a tracing configuration through kubeadm.
    assert.match(r.stdout, /- containerPort: 9090\n\s+hostPort: \d+\n\s+listenAddress: 127\.0\.0\.1/);
    assert.match(r.stdout, /- containerPort: 16686\n\s+hostPort: \d+\n\s+listenAddress: 127\.0\.0\.1/);
    assert.match(r.stdout, /kubeadmConfigPatchesJSON6902:[\s\S]*tracing-config-file/);
  });

  test('kind through a recording double: the calls kwokts makes, and a rollback that deletes the kind cluster', async () => {
    const log = join(box.workdir, '..', 'kind-calls.log');
    rmSync(log, { force: true });
    const doubles = join(ROOT, 'test', 'e2e', 'doubles');
    const env = { ...box.env, PATH: `${doubles}:${process.env.PATH ?? ''}`, KIND_DOUBLE_LOG: log };
    const r = await kwokts({ ...box, env }, ['--name', 'kk', 'create', 'cluster', '--runtime', 'kind', '--wait', '20s']);
    // No cluster answers behind the double: create must fail and undo what it did.
    assert.notEqual(r.exitCode, 0, r.stdout);
    assert.equal(r.stderr.split('\n').filter((l) => l.startsWith('error: ')).length, 1, r.stderr);
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    const dir = join(box.workdir, 'clusters', 'kk');
    assert.deepEqual(calls, [
      'version',
      `create cluster --name=kwok-kk --config=${dir}/kind.yaml --image=docker.io/kindest/node:v1.36.1 --kubeconfig=${dir}/kind-kubeconfig.yaml`,
      'load docker-image ghcr.io/kwokts/kwok:v0.1.0 --name=kwok-kk',
      'delete cluster --name=kwok-kk',
    ]);
    const config = readFileSync(`${log}.config`, 'utf8');
    assert.match(config, /kind: Cluster/);
    assert.match(config, /apiServerAddress: 127\.0\.0\.1/);
    assert.match(config, /containerPort: 10247\n\s+hostPort: \d+\n\s+listenAddress: 127\.0\.0\.1/);
    assert.ok(!existsSync(dir), 'rolled back');
  });

  test('kind not installed: one clear error before anything is made', async () => {
    const r = await kwokts(box, ['--name', 'kn', 'create', 'cluster', '--runtime', 'kind', '--kind-binary', '/nonexistent/kind']);
    assert.equal(r.exitCode, 3, r.stderr);
    assert.match(r.stderr, /^error: kind is not installed \(looked for \/nonexistent\/kind\)$/m);
    assert.ok(!existsSync(join(box.workdir, 'clusters', 'kn')));
  });
});
