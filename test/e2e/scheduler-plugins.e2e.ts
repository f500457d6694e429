/**
 * `--enable scheduler-plugins` on the docker and podman runtimes, as kwok's own docker and podman
 * e2e create their cluster (test/e2e/kwokctl/{docker,podman}) and as its podgroup script (test/kwokctl/kwokctl_podgroup.test.sh)
 * uses it: kube-scheduler runs scheduler-plugins' scheduler with a Coscheduling profile, the
 * controller keeps PodGroup status, Prometheus scrapes the controller, and a gang is scheduled
 * only once it has its minimum members. The images are made from the binaries
 * test/engines/scheduler-plugins.ts builds (test/setup-prerequisites.sh); where the setup could not
 * build them, the engine test is skipped with its reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureManifest, manifestCachePath } from '../../src/artifacts/manifests.js';
import { RealExecutor } from '../../src/exec/real-executor.js';
import { silentLogger } from '../../src/util/log.js';
import { leftovers } from './container-runtime-scenario.js';
import { failure, freePort, kwokts, oneLinePerCommand, sandbox, unbuiltReason, waitFor, watchLines } from './harness.js';
import { startEngine } from '../engines/start-engine.js';
import { TEST_PROMETHEUS_IMAGE } from '../engines/images.js';

/** kwokctl's podgroup case: the Coscheduling plugin as the queue sort and at every extension point. */
const COSCHEDULING = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled: [{name: Coscheduling}]
    queueSort:
      enabled: [{name: Coscheduling}]
      disabled: [{name: "*"}]
`;

function gang(replicas: number): string {
  return `apiVersion: scheduling.x-k8s.io/v1alpha1
kind: PodGroup
metadata: {name: gang, namespace: default}
spec: {minMember: 3}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: gang, namespace: default}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: gang}}
  template:
    metadata:
      labels: {app: gang, scheduling.x-k8s.io/pod-group: gang}
    spec:
      containers: [{name: app, image: fake, resources: {requests: {cpu: 100m, memory: 100Mi}}}]
`;
}

for (const engine of ['docker', 'podman'] as const) {
  test(`--enable scheduler-plugins (${engine}): its scheduler gang-schedules a PodGroup, its controller sets the PodGroup Running, Prometheus scrapes it, delete leaves nothing`, { skip: unbuiltReason('scheduler-plugins') ?? false, timeout: 900_000 }, async () => {
    const under = await startEngine(engine);
    const box = sandbox();
    const name = `e2e-sp-${engine}`;
    const env = { ...box.env, ...under.env };
    const run = (args: string[], input?: string) => kwokts({ ...box, env }, ['--name', name, ...args], input === undefined ? {} : { input });
    const config = join(box.workdir, '..', 'coscheduling.yaml');
    writeFileSync(config, COSCHEDULING);
    const promPort = await freePort();
    try {
      const created = await run(['create', 'cluster', '--runtime', engine, '--enable=scheduler-plugins', '--enable=prometheus', '--prometheus-image', TEST_PROMETHEUS_IMAGE, `--prometheus-port=${promPort}`, '--kube-scheduler-config', config, '--wait', '5m']);
      assert.equal(created.exitCode, 0, failure(created));
      const image = await execa(engine, ['inspect', '--format', '{{.Config.Image}}', `kwok-${name}-kube-scheduler`], { env: { ...process.env, ...under.env }, reject: false });
      assert.equal(String(image.stdout).trim(), 'registry.k8s.io/scheduler-plugins/kube-scheduler:v0.34.7');
      // The CRDs and the scheduler's RBAC from the manifests; nothing of the in-cluster install.
      const crd = await run(['kubectl', 'get', 'crd', 'podgroups.scheduling.x-k8s.io', 'elasticquotas.scheduling.x-k8s.io', '-o', 'name']);
      assert.equal(crd.exitCode, 0, failure(crd));
      assert.equal((await run(['kubectl', 'get', 'clusterrolebinding', 'system:kube-scheduler:plugins', '-o', 'name'])).exitCode, 0);
      assert.equal((await run(['kubectl', 'get', 'deployment', '-A', '-o', 'name'])).stdout.trim(), '');

      assert.equal((await run(['scale', 'node', '--replicas', '2'])).exitCode, 0);
      // Two pods of a gang of three: Coscheduling holds them back (the default scheduler would bind
      // them). A watch sees the refusal whenever it comes.
      const pods = watchLines({ ...box, env }, ['--name', name, 'kubectl', 'get', 'pods', '-l', 'app=gang', '--watch', '-o',
        'jsonpath={.metadata.name} {.status.conditions[?(@.type=="PodScheduled")].status} {.status.conditions[?(@.type=="PodScheduled")].message}{"\\n"}']);
      try {
        const applied = await run(['kubectl', 'apply', '-f', '-'], gang(2));
        assert.equal(applied.exitCode, 0, failure(applied));
        await pods.until('a gang pod held back by Coscheduling', (line) => / False .*minMember of group: 3/.test(line));
      } finally {
        await pods.stop();
      }
      assert.equal((await run(['kubectl', 'get', 'pods', '-l', 'app=gang', '-o', 'jsonpath={.items[*].spec.nodeName}'])).stdout.trim(), '');
      // With its third member the gang is scheduled together and the controller marks the group Running.
      assert.equal((await run(['kubectl', 'scale', 'rs/gang', '--replicas=3'])).exitCode, 0);
      const group = await run(['kubectl', 'wait', '--for=jsonpath={.status.phase}=Running', 'podgroup/gang', '--timeout=240s']);
      assert.equal(group.exitCode, 0, failure(group));
      const running = await run(['kubectl', 'wait', '--for=jsonpath={.status.phase}=Running', 'pod', '-l', 'app=gang', '--timeout=240s']);
      assert.equal(running.exitCode, 0, failure(running));

      // kwok's CaseMetrics: Prometheus' target for the controller is up (polled, as kwok's suite does;
      // the deadline only guards a hang).
      let health = '';
      await waitFor('the scheduler-plugins target up in Prometheus', async () => {
        const r = await fetch(`http://127.0.0.1:${promPort}/api/v1/targets`).catch(() => undefined);
        const body = r?.ok ? ((await r.json()) as { data: { activeTargets: Array<{ labels: { job: string }; health: string }> } }) : undefined;
        health = body?.data.activeTargets.find((t) => t.labels.job === 'scheduler-plugins')?.health ?? '';
        return health === 'up';
      }, 240_000, 1_000);

      const deleted = await run(['delete', 'cluster']);
      assert.equal(deleted.exitCode, 0, failure(deleted));
      assert.deepEqual(await leftovers(under, name), []);
    } finally {
      await run(['delete', 'cluster']);
      box.cleanup();
    }
  });
}

test('--enable scheduler-plugins on the binary runtime: one line saying where it runs, exit 2, nothing made', async () => {
  const box = sandbox();
  try {
    const r = await kwokts(box, ['--name', 'e2e-sp-binary', 'create', 'cluster', '--runtime', 'binary', '--enable', 'scheduler-plugins']);
    assert.equal(r.exitCode, 2, failure(r));
    assert.match(r.stderr, /^error: scheduler-plugins runs only on the docker, podman and nerdctl runtimes, not on binary\n/);
    assert.ok(!existsSync(join(box.workdir, 'clusters', 'e2e-sp-binary')));
  } finally {
    box.cleanup();
  }
});

test("--dry-run --enable scheduler-plugins (docker): kwokctl's Download lines and cache paths, the scheduler's image, the controller's container, the manifest applied", async () => {
  const box = sandbox();
  try {
    const r = await kwokts(box, ['--name', 'e2e-sp-dry', 'create', 'cluster', '--runtime', 'docker', '--enable', 'scheduler-plugins', '--dry-run']);
    assert.equal(r.exitCode, 0, failure(r));
    const cache = box.env.KWOK_CACHE_DIR;
    // Engine commands come one word per line (kwokctl's layout); one line each to match them.
    const flat = oneLinePerCommand(r.stdout);
    // The same cache file names kwokctl's own dry-run prints (kwok's create_cluster_with_verbosity.txt).
    assert.ok(r.stdout.includes(`# Download https://github.com/kubernetes-sigs/scheduler-plugins/raw/refs/tags/v0.34.7/manifests/install/all-in-one.yaml to ${cache}/manifest/309ba2d77709ffdefe8aa82c544005c5956165abce45a44c8ce42dfdd5701780.yaml`), r.stdout);
    assert.equal(r.stdout.match(/^# Download https:\/\/github\.com\/kubernetes-sigs\/scheduler-plugins\//gm)?.length, 7);
    // (No `docker pull` asserted: it is printed only where the engine lacks the image.)
    assert.match(flat, /^docker create --name=kwok-e2e-sp-dry-kube-scheduler .* registry\.k8s\.io\/scheduler-plugins\/kube-scheduler:v0\.34\.7 /m);
    assert.match(flat, /^docker create --name=kwok-e2e-sp-dry-scheduler-plugins .*--entrypoint=controller .*registry\.k8s\.io\/scheduler-plugins\/controller:v0\.34\.7 --kubeconfig=\S+ --metricsAddr=:8080$/m);
    assert.match(r.stdout, /apply -f \S+\/clusters\/e2e-sp-dry\/scheduler-plugins\.yaml$/m);
    assert.ok(!existsSync(join(box.workdir, 'clusters', 'e2e-sp-dry')));
  } finally {
    box.cleanup();
  }
});

test('a scheduler-plugins manifest URL is taken from the Go module proxy into an empty cache (no GitHub), then read from the cache', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'kwokts-e2e-manifests-'));
  const url = 'https://github.com/kubernetes-sigs/scheduler-plugins/raw/refs/tags/v0.34.7/manifests/coscheduling/crd.yaml';
  try {
    const ctx = { cacheDir: cache, executor: new RealExecutor(silentLogger), kubectl: 'kubectl' };
    const text = await ensureManifest(url, ctx);
    assert.match(text, /name: podgroups\.scheduling\.x-k8s\.io/);
    assert.equal(readFileSync(manifestCachePath(cache, url), 'utf8'), text);
    assert.equal(await ensureManifest(url, ctx), text);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});
