/**
 * The kind runtime on real kind: kind built from its Go module, and a node image made
 * on this machine (`kwokts artifacts build kind-node-image`: Debian packages + Go-built
 * Kubernetes, etcd, CoreDNS, pause), since kindest/node cannot be pulled here.
 *   1. create --runtime kind (the fallback to the local node image is said in one line), seed 000
 *      (a fake node Ready, 10 pods Running with IPs), logs, port-forward to the apiserver pod,
 *      stop/start (the node container), delete with nothing left.
 *   2. kwok deployed into a plain kind cluster (`kwokts deploy`, the controller image built from the
 *      Dockerfile by `kwokts artifacts build controller-image` and loaded with `kind load
 *      docker-image`), seed 001: a node and pods made before kwok become Ready/Running.
 * The node image build is cached (~/.kwok/cache/kind-node and the docker image); cold it takes
 * many minutes, so the first step builds it with its own deadline.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { DEFAULT_KWOK_CONTROLLER_IMAGE, resolveImages } from '../../src/artifacts/images.js';
import { defaultOptionValues } from '../../src/config/options.js';
import { DEFAULT_KUBE_VERSION, etcdVersionForKube } from '../../src/config/versions.js';
import { ensureTestImages, goBuiltAddon, TEST_PROMETHEUS_BINARY, TEST_PROMETHEUS_IMAGE } from '../engines/images.js';
import { availableKectl, freePort, insecureHttpsStatus, jaegerServices, kwokts, requireBinaries, ROOT, sandbox, spawnKwokts, unbuiltReason, waitFor, watchLines, type Sandbox, failure } from './harness.js';
import { DEPLOYMENT, NODE } from '../fixtures/seed-objects.js';

interface EngineUnderTest {
  env: Record<string, string>;
}

/** The tests' dockerd for kind (test/engines/docker-kind.sh). */
async function startKindEngine(): Promise<EngineUnderTest> {
  const result = await execa('bash', [join(ROOT, 'test', 'engines', 'docker-kind.sh')], { reject: false, all: true });
  if (result.exitCode !== 0) throw new Error(`could not start the kind tests' dockerd:\n${String(result.all)}`);
  const env = { DOCKER_HOST: String(result.stdout).trim().split('\n').pop()! };
  Object.assign(process.env, env);
  return { env };
}

const NAME = 'kind-e2e';
/** Every fake pod uses 1m of CPU and 1Mi of memory (kwok's kustomize/metrics/usage, flat). */
const FLAT_USAGE = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterResourceUsage
metadata: {name: flat-usage}
spec:
  usages:
  - usage:
      cpu: {value: 1m}
      memory: {value: 1Mi}
`;
const DEFAULT_IMAGES = resolveImages(defaultOptionValues(), DEFAULT_KUBE_VERSION, etcdVersionForKube(DEFAULT_KUBE_VERSION));
const DEFAULT_METRICS_SERVER_IMAGE = DEFAULT_IMAGES['metrics-server'];
const DEFAULT_JAEGER_IMAGE = DEFAULT_IMAGES.jaeger;
/** jaeger's test image was made in the kind tests' engine (before()); else its case is left out. */
let JAEGER = false;
/** metrics-server's image, made in the kind tests' engine when its binary is built (before()); else the case is left out. */
let METRICS_SERVER_IMAGE: string | undefined;
/** Prometheus' test image was made in the kind tests' engine (before()); else its case is left out. */
let PROMETHEUS = false;
/** kectl for kwok's Hack case on kind (test/setup-prerequisites.sh builds it); skipped without one. */
const KECTL = availableKectl();
const NODE_CONTAINER = `kwok-${NAME}-control-plane`;
const BUILD_MS = 3 * 3_600_000;

/** Why this machine cannot build the node image, if it cannot (a skip, said clearly). */
function cannotBuild(): string | undefined {
  if (process.getuid?.() !== 0) return 'building the kind node image needs root (debootstrap)';
  return unbuiltReason('kind-node-image');
}

describe('kind runtime on real kind with a locally built node image', { timeout: BUILD_MS + 3_600_000, skip: cannotBuild() }, () => {
  let under: EngineUnderTest;
  let box: Sandbox;
  let kind = '';
  let image = '';
  const run = (args: string[], input?: string) => kwokts(box, ['--name', NAME, ...args], { timeoutMs: 1_800_000, ...(input === undefined ? {} : { input }) });
  const k = (args: string[], input?: string) => run(['kubectl', ...args], input);
  const docker = (args: string[]) => execa('docker', args, { env: { ...process.env, ...under.env }, reject: false });

  before(async () => {
    requireBinaries();
    under = await startKindEngine();
    box = sandbox();
    Object.assign(box.env, under.env, { KWOK_RUNTIME: 'kind' }, KECTL ? { KWOK_KECTL_BINARY: KECTL } : {});
    // The controller image the kind runtime loads and `kwokts deploy` runs: the repository's
    // Dockerfile, built on a base made from this machine's node (node:20-slim cannot be pulled).
    const controller = await kwokts(box, ['artifacts', 'build', 'controller-image'], { timeoutMs: BUILD_MS });
    assert.equal(controller.exitCode, 0, failure(controller));
    assert.equal(controller.stdout.trim(), DEFAULT_KWOK_CONTROLLER_IMAGE);
    // metrics-server's image, made from its Go-built binary in the kind tests' engine (kind loads it
    // into the node from there); without the binary the metrics-server steps are left out.
    // Prometheus' test image likewise (from Debian's package).
    const made = await ensureTestImages('docker', new Set([DEFAULT_METRICS_SERVER_IMAGE, TEST_PROMETHEUS_IMAGE, DEFAULT_JAEGER_IMAGE]));
    JAEGER = made[DEFAULT_JAEGER_IMAGE] !== undefined;
    if (!JAEGER) console.log(`# no jaeger binary (${goBuiltAddon('jaeger')}): kind's jaeger steps are left out`);
    METRICS_SERVER_IMAGE = made[DEFAULT_METRICS_SERVER_IMAGE] ? DEFAULT_METRICS_SERVER_IMAGE : undefined;
    if (!METRICS_SERVER_IMAGE) console.log(`# no metrics-server binary (${goBuiltAddon('metrics-server')}): kind's metrics-server steps are left out`);
    PROMETHEUS = made[TEST_PROMETHEUS_IMAGE] !== undefined;
    if (!PROMETHEUS) console.log(`# no ${TEST_PROMETHEUS_BINARY}: kind's Prometheus steps are left out`);
    let started = Date.now();
    const built = await kwokts(box, ['artifacts', 'build', 'kind'], { timeoutMs: BUILD_MS });
    assert.equal(built.exitCode, 0, failure(built));
    kind = built.stdout.trim();
    started = Date.now();
    const node = await kwokts(box, ['artifacts', 'build', 'kind-node-image'], { timeoutMs: BUILD_MS });
    assert.equal(node.exitCode, 0, failure(node));
    image = node.stdout.trim();
    console.log(`# kind node image ${image} ready in ${((Date.now() - started) / 1000).toFixed(0)}s (cold: a full build; warm: a fingerprint check)`);
  });
  after(async () => {
    if (!box) return;
    await run(['delete', 'cluster']);
    box.cleanup();
  });

  test('create, seed 000, logs, port-forward, stop/start, delete: nothing left', async () => {
    // A ClusterLogs document naming a file on the host: the controller runs in a pod on the kind
    // node, so the file's directory must reach it there (kind.yaml's extraMounts, a hostPath).
    const logsDir = join(box.workdir, '..', 'fake-logs');
    mkdirSync(logsDir, { recursive: true });
    writeFileSync(join(logsDir, 'app.log'), 'a line kwok serves as the fake pod\'s log\n');
    const logsConfig = join(box.workdir, '..', 'cluster-logs.yaml');
    writeFileSync(logsConfig, `apiVersion: kwok.x-k8s.io/v1alpha1\nkind: ClusterLogs\nmetadata: {name: fake-pod-logs}\nspec:\n  logs:\n  - logsFile: ${join(logsDir, 'app.log')}\n---\n${FLAT_USAGE}`);
    const started = Date.now();
    const promPort = await freePort();
    const jaegerPort = await freePort();
    const created = await run([
      '-c', logsConfig, 'create', 'cluster', '--wait', '10m',
      ...(METRICS_SERVER_IMAGE ? ['--enable', 'metrics-server'] : []),
      ...(PROMETHEUS ? ['--enable', 'prometheus', '--prometheus-image', TEST_PROMETHEUS_IMAGE, '--prometheus-port', String(promPort)] : []),
      ...(JAEGER ? ['--enable', 'jaeger', '--jaeger-port', String(jaegerPort)] : []),
    ]);
    assert.equal(created.exitCode, 0, failure(created));
    console.log(`# kind: create to ready in ${((Date.now() - started) / 1000).toFixed(1)}s (node image present)`);
    // kindest/node cannot be pulled here: the fallback is said in one line.
    assert.match(created.stderr, new RegExp(`kindest/node:v\\d+\\.\\d+\\.\\d+ cannot be pulled \\(.*\\); using ${image.replace(/[.]/g, '\\.')}, made locally`));
    assert.equal(created.stderr.split('\n').filter((l) => /cannot be pulled/.test(l)).length, 1);

    // create returns once every component's pod is ready (kwokctl's kind readiness), so the logs
    // exported at once hold every component's (kwok's MultiCluster case exports right after create).
    const componentsAfterCreate = JSON.parse((await run(['get', 'components', '-o', 'json'])).stdout) as Array<{ name: string; ready: boolean; detail?: string }>;
    assert.deepEqual(componentsAfterCreate.filter((c) => c.ready !== true), [], 'every component ready when create returned');
    const exportDir = join(box.workdir, '..', 'exported-logs');
    const exported = await run(['export', 'logs', exportDir]);
    assert.equal(exported.exitCode, 0, failure(exported));
    for (const { name } of componentsAfterCreate) {
      const log = join(exportDir, NAME, 'components', `${name}.log`);
      assert.ok(existsSync(log) && statSync(log).size > 0, `${name}'s log exported right after create`);
    }

    const nodes = await k(['get', 'nodes', '-o', 'jsonpath={.items[*].metadata.name}']);
    assert.equal(nodes.stdout, NODE_CONTAINER);
    await waitFor('the kind node Ready', async () => (await k(['get', 'node', NODE_CONTAINER, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'])).stdout === 'True', 300_000, 1000);

    // Seed 000: the fake node Ready, 10 pods Running with IPs.
    assert.equal((await k(['apply', '-f', '-'], NODE)).exitCode, 0);
    assert.equal((await k(['apply', '-f', '-'], DEPLOYMENT)).exitCode, 0);
    const pods = async (): Promise<Array<{ phase: string; ip: string }>> => {
      const out = (await k(['get', 'pod', '-l', 'app=fake-pod', '-o', 'jsonpath={range .items[*]}{.status.phase} {.status.podIP}{"\\n"}{end}'])).stdout;
      return out.split('\n').filter(Boolean).map((l) => ({ phase: l.split(' ')[0] ?? '', ip: l.split(' ')[1] ?? '' }));
    };
    const allRunning = async (): Promise<boolean> => {
      const p = await pods();
      return p.length === 10 && p.every((x) => x.phase === 'Running' && x.ip !== '');
    };
    await waitFor('10 pods Running with IPs', allRunning, 300_000, 1000);
    assert.equal(new Set((await pods()).map((p) => p.ip)).size, 10, 'each pod its own IP');
    const ready = await k(['get', 'node', 'kwok-node-0', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}']);
    assert.equal(ready.stdout, 'True');

    // metrics-server, deployed into the node (kwok's ResourceUsage case on kind): `kubectl top
    // pod` shows the usage the ClusterResourceUsage gives the fake pods, scraped from the
    // controller's per-node /metrics/resource through the APIService v1beta1.metrics.k8s.io.
    if (METRICS_SERVER_IMAGE) {
      assert.equal((await k(['annotate', 'node', 'kwok-node-0', 'metrics.k8s.io/resource-metrics-path=/metrics/nodes/kwok-node-0/metrics/resource'])).exitCode, 0);
      let top = '';
      await waitFor('kubectl top pod to show the fake pods\' usage', async () => {
        top = (await k(['top', 'pod', '-l', 'app=fake-pod', '--no-headers'])).stdout;
        return top.split('\n').filter((l) => /\s1m\s+1Mi\s*$/.test(l)).length === 10;
      }, 600_000, 2000);
      const msLogs = await run(['logs', 'metrics-server']);
      assert.equal(msLogs.exitCode, 0, failure(msLogs));
    }

    // Prometheus, deployed into the node (kwok's Metrics case on kind): every component's job up,
    // kubeadm's scraped on the node's loopback, through the port published on the host.
    if (PROMETHEUS) {
      const jobs = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'prometheus', ...(METRICS_SERVER_IMAGE ? ['metrics-server'] : [])];
      let health: Record<string, string> = {};
      await waitFor('every Prometheus target up', async () => {
        health = await prometheusTargets(promPort).catch(() => ({}));
        return jobs.every((j) => health[j] === 'up');
      }, 600_000, 2000).catch((error: unknown) => assert.fail(`${(error as Error).message}: ${JSON.stringify(health)}`));
      assert.deepEqual(Object.keys(health).sort(), [...jobs].sort());
    }

    // jaeger, deployed into the node (kwok's Workable case on kind asks its /api/services): kind's
    // apiserver, given the tracing configuration through kubeadm, sends it its traces.
    if (JAEGER) {
      await waitFor('jaeger lists the apiserver service', async () => {
        const listed = await jaegerServices(jaegerPort);
        return listed.includes('apiserver') || listed.includes('kube-apiserver');
      }, 600_000, 3000);
    }

    // kubeadm in the node took the cluster's CA (kind.yaml mounts it): a kubeconfig for another
    // user, signed with the cluster's ca.key, is accepted, and its group's rights apply.
    const other = await run(['get', 'kubeconfig', '--user=cluster-admin', '--group=system:masters']);
    assert.equal(other.exitCode, 0, failure(other));
    const otherFile = join(box.workdir, '..', 'other-user.kubeconfig');
    writeFileSync(otherFile, other.stdout, { mode: 0o600 });
    const whoami = await k([`--kubeconfig=${otherFile}`, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
    assert.equal(whoami.exitCode, 0, failure(whoami));
    assert.equal(whoami.stdout, 'cluster-admin');

    // kubectl logs of a fake pod: the ClusterLogs file, read by the controller in its pod.
    const podName = (await k(['get', 'pod', '-l', 'app=fake-pod', '-o', 'jsonpath={.items[0].metadata.name}'])).stdout;
    const fakeLogs = await k(['logs', podName]);
    assert.equal(fakeLogs.exitCode, 0, failure(fakeLogs));
    assert.equal(fakeLogs.stdout, "a line kwok serves as the fake pod's log");
    // The apiserver got those logs with kubeadm's kubelet client certificate; a caller with none,
    // on the controller's published port, gets nothing (and Prometheus and metrics-server above
    // got in with their service accounts' tokens).
    const record = readFileSync(join(box.workdir, 'clusters', NAME, 'kwok.yaml'), 'utf8');
    // Its host port, as its component records it (kind publishes that port on the host's loopback).
    const controllerPort = Number(/--node-port=(\d+)/.exec(record)?.[1]);
    assert.ok(controllerPort > 0, 'the controller has a published port');
    assert.equal(await insecureHttpsStatus(controllerPort, `/containerLogs/default/${podName}/fake`), 401);
    assert.equal(await insecureHttpsStatus(controllerPort, '/metrics'), 401);
    assert.equal(await insecureHttpsStatus(controllerPort, '/healthz'), 200);

    // kind's etcd, from the host (kwok's kind suite: Hack, Recording): its client port published
    // at the cluster's etcd port, its certificates made by kubeadm from the cluster's etcd CA, so
    // the host's etcd client certificate is good for it.
    const etcdKeys = await run(['etcdctl', 'get', '/registry/namespaces/default', '--keys-only']);
    assert.equal(etcdKeys.exitCode, 0, failure(etcdKeys));
    assert.equal(etcdKeys.stdout.trim(), '/registry/namespaces/default');
    const etcdLogs = await run(['logs', 'etcd']);
    assert.equal(etcdLogs.exitCode, 0, failure(etcdLogs));
    assert.match(etcdLogs.stdout, /"msg":"/, "etcd's own (JSON) log, from its pod");
    if (KECTL) {
      // kwok's CaseHack, on an object nothing else writes: get, delete and put back through etcd.
      assert.equal((await k(['create', 'configmap', 'hack-cm', '--from-literal=k=v'])).exitCode, 0);
      const before = await run(['kectl', 'get', 'cm', 'hack-cm', '-n', 'default', '-o', 'yaml']);
      assert.equal(before.exitCode, 0, failure(before));
      assert.match(before.stdout, /name: hack-cm/);
      const deleted = await run(['kectl', 'delete', 'cm', 'hack-cm', '-n', 'default']);
      assert.equal(deleted.exitCode, 0, failure(deleted));
      assert.equal(deleted.stdout.trim(), '/registry/configmaps/default/hack-cm');
      assert.notEqual((await k(['get', 'cm', 'hack-cm'])).exitCode, 0, 'gone from the apiserver too');
      const put = await run(['kectl', 'put', 'cm', 'hack-cm', '-n', 'default', '--path', '-'], before.stdout);
      assert.equal(put.exitCode, 0, failure(put));
      const again = await run(['kectl', 'get', 'cm', 'hack-cm', '-n', 'default', '-o', 'yaml']);
      assert.equal(again.stdout, before.stdout);
      assert.equal((await k(['get', 'cm', 'hack-cm', '-o', 'jsonpath={.data.k}'])).stdout, 'v');
    }
    // Snapshots on kind. etcd format: saved through etcd's published port, restored into the node
    // (etcd alone is stopped there, its data swapped, the apiserver keeps running and serves the
    // snapshot's objects). YAML format: restored through the apiserver with the controller-manager,
    // scheduler and controller paused in the node and started again.
    const cm = (name: string) => k(['get', 'cm', name, '-o', 'name']);
    assert.equal((await k(['create', 'configmap', 'in-snapshot', '--from-literal=k=v'])).exitCode, 0);
    const snapshot = join(box.workdir, '..', 'kind.db');
    const saved = await run(['snapshot', 'save', '--path', snapshot, '--format', 'etcd']);
    assert.equal(saved.exitCode, 0, failure(saved));
    assert.ok(statSync(snapshot).size > 0);
    assert.equal((await k(['delete', 'configmap', 'in-snapshot'])).exitCode, 0);
    assert.equal((await k(['create', 'configmap', 'after-snapshot', '--from-literal=k=v'])).exitCode, 0);
    // Two restores in a row take both ways of restarting etcd: killed (the kubelet restarts a
    // container it never restarted at once), then through its manifest (a second kill would wait
    // out the kubelet's crash back-off). -v=debug says which.
    const restored = await run(['snapshot', 'restore', '--path', snapshot, '--format', 'etcd', '-v=debug']);
    assert.equal(restored.exitCode, 0, failure(restored));
    assert.match(restored.stderr, /etcd restarts on the swapped data by a kill/);
    assert.equal((await cm('in-snapshot')).stdout, 'configmap/in-snapshot');
    assert.notEqual((await cm('after-snapshot')).exitCode, 0, 'made after the snapshot: gone');
    assert.notEqual((await docker(['exec', NODE_CONTAINER, 'ls', '/var/lib/etcd.previous'])).exitCode, 0, 'the replaced data is not kept');
    assert.equal((await k(['create', 'configmap', 'after-first-restore', '--from-literal=k=v'])).exitCode, 0);
    const restoredAgain = await run(['snapshot', 'restore', '--path', snapshot, '--format', 'etcd', '-v=debug']);
    assert.equal(restoredAgain.exitCode, 0, failure(restoredAgain));
    assert.match(restoredAgain.stderr, /etcd restarts on the swapped data by its manifest/);
    assert.equal((await cm('in-snapshot')).stdout, 'configmap/in-snapshot');
    assert.notEqual((await cm('after-first-restore')).exitCode, 0, 'made after the first restore: gone');
    const yamlSnapshot = join(box.workdir, '..', 'kind.yaml-snapshot');
    // Every controller pod the cluster has from here on, as `name uid` lines of a watch: the
    // snapshot holds the controller's pod of the day, and a restore that created it again would
    // run a second controller (for as long as kube-controller-manager takes to delete it) that
    // could answer the restore's readiness check in place of the Deployment's new pod.
    const controllerPods = watchLines(box, ['--name', NAME, 'kubectl', '-n', 'kube-system', 'get', 'pods', '-l', 'app=kwok-controller', '--watch', '-o', 'jsonpath={.metadata.name} {.metadata.uid}{"\\n"}']);
    const savedPod = (await controllerPods.until('the running controller pod', () => true)).split(' ');
    const savedYaml = await run(['snapshot', 'save', '--path', yamlSnapshot, '--format', 'k8s']);
    assert.equal(savedYaml.exitCode, 0, failure(savedYaml));
    assert.equal((await k(['delete', 'configmap', 'in-snapshot'])).exitCode, 0);
    const restoredYaml = await run(['snapshot', 'restore', '--path', yamlSnapshot, '--format', 'k8s']);
    assert.equal(restoredYaml.exitCode, 0, failure(restoredYaml));
    assert.equal((await cm('in-snapshot')).stdout, 'configmap/in-snapshot');
    assert.equal((await k(['-n', 'kube-system', 'get', 'deployment', 'kwok-controller', '-o', 'jsonpath={.spec.replicas}'])).stdout, '1', 'the paused controller runs again');
    // A pod that is neither the saved one nor of its name: the Deployment's new one, seen by the
    // same watch after everything the restore did (the watch's events come in order).
    await controllerPods.until("the Deployment's new controller pod", (line) => !line.startsWith(`${savedPod[0]} `));
    await controllerPods.stop();
    const recreated = controllerPods.lines.filter((line) => line.startsWith(`${savedPod[0]} `) && line !== savedPod.join(' '));
    assert.deepEqual(recreated, [], 'the restore created the saved controller pod again (same name, another uid)');
    const manifests = String((await docker(['exec', NODE_CONTAINER, 'ls', '/etc/kubernetes/manifests'])).stdout).split('\n').filter(Boolean).sort();
    assert.deepEqual(manifests, ['etcd.yaml', 'kube-apiserver.yaml', 'kube-controller-manager.yaml', 'kube-scheduler.yaml'], 'every static pod back');
    assert.equal(String((await docker(['inspect', '--format', '{{.State.Status}}', NODE_CONTAINER])).stdout).trim(), 'running');

    // Logs through the cluster (kubectl logs of the component's pod), followed: right after the
    // restore the controller's pod may have started without having logged yet (one CI run read an
    // empty log here), so the log is watched until its start line comes.
    const controllerLogs = watchLines(box, ['--name', NAME, 'logs', '-f', 'kwok-controller']);
    try {
      await controllerLogs.until("the controller's start line in its log", (line) => /kwok controller .* started/.test(line), 120_000);
    } catch (error) {
      const pods = await k(['-n', 'kube-system', 'get', 'pods', '-l', 'app=kwok-controller', '-o', 'wide']);
      throw new Error(`${(error as Error).message}\nits pods: ${pods.stdout}${pods.stderr}`);
    } finally {
      await controllerLogs.stop();
    }
    const apiserverLogs = await run(['logs', 'kube-apiserver']);
    assert.equal(apiserverLogs.exitCode, 0, failure(apiserverLogs));
    assert.ok(apiserverLogs.stdout.length > 0);

    // port-forward to the apiserver's pod: /readyz with the cluster's admin credentials.
    const fwd = spawnKwokts(box, ['--name', NAME, 'port-forward', 'kube-apiserver', '0:6443']);
    let out = '';
    fwd.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await waitFor('port-forward to listen', () => /Forwarding from 127\.0\.0\.1:\d+/.test(out), 120_000);
      const port = Number(/Forwarding from 127\.0\.0\.1:(\d+)/.exec(out)![1]);
      const readyz = await adminGet(box, port, '/readyz');
      assert.equal(readyz.status, 200, readyz.body);
      assert.equal(readyz.body, 'ok');
    } finally {
      fwd.kill('SIGINT');
      await fwd.catch(() => undefined);
    }

    // stop: the node container stops, the cluster's objects survive a start.
    const stopped = await run(['stop', 'cluster']);
    assert.equal(stopped.exitCode, 0, failure(stopped));
    assert.equal(String((await docker(['inspect', '--format', '{{.State.Status}}', NODE_CONTAINER])).stdout).trim(), 'exited');
    // An etcd restore into a stopped kind cluster: refused in one line (nothing runs in the node to swap its data).
    const refused = await run(['snapshot', 'restore', '--path', snapshot, '--format', 'etcd']);
    assert.equal(refused.exitCode, 2, failure(refused));
    assert.match(refused.stderr, /^error: cluster kind-e2e is not running: an etcd snapshot is restored into a kind cluster while it runs$/m);
    assert.equal(String((await docker(['inspect', '--format', '{{.State.Status}}', NODE_CONTAINER])).stdout).trim(), 'exited', 'left stopped');
    const components = JSON.parse((await run(['get', 'components', '-o', 'json'])).stdout) as Array<{ state: string }>;
    assert.ok(components.every((c) => c.state === 'stopped'), JSON.stringify(components));
    const restarted = await run(['start', 'cluster', '--wait', '10m']);
    assert.equal(restarted.exitCode, 0, failure(restarted));
    await waitFor('10 pods Running with IPs after start', allRunning, 600_000, 2000);

    // delete: no container, no network, no kubeconfig context, no cluster directory.
    const deleted = await run(['delete', 'cluster']);
    assert.equal(deleted.exitCode, 0, failure(deleted));
    const containers = String((await docker(['ps', '--all', '--filter', `name=${NODE_CONTAINER}`, '--format', '{{.Names}}'])).stdout).trim();
    assert.equal(containers, '');
    assert.notEqual((await docker(['network', 'inspect', 'kind'])).exitCode, 0, 'kind\'s network is gone with its last cluster');
    assert.doesNotMatch(readFileSync(box.kubeconfig, 'utf8'), new RegExp(`kwok-${NAME}`));
    assert.ok(!existsSync(join(box.workdir, 'clusters', NAME)));
  });

  test('kwok deployed into a plain kind cluster (kwokts deploy), seed 001: node Ready and pods Running', async () => {
    const cluster = 'kwokts-kind-deploy';
    const dir = join(box.workdir, '..', 'plain-kind');
    mkdirSync(dir, { recursive: true });
    const kubeconfig = join(dir, 'kubeconfig');
    const config = join(dir, 'kind.yaml');
    // The kubelet refuses cgroup v1 hosts since 1.35 unless told otherwise.
    const v1 = !existsSync('/sys/fs/cgroup/cgroup.controllers');
    writeFileSync(config, `kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\n${v1 ? 'kubeadmConfigPatches:\n- |\n  kind: KubeletConfiguration\n  failCgroupV1: false\n' : ''}`);
    const env = { ...process.env, ...under.env };
    const kindRun = (args: string[]) => execa(kind, args, { env, reject: false, all: true, timeout: 1_800_000 });
    // kubectl inside the node, with kubeadm's admin credentials.
    const kc = (args: string[], input?: string) =>
      execa('docker', ['exec', '-i', `${cluster}-control-plane`, 'kubectl', '--kubeconfig=/etc/kubernetes/admin.conf', ...args], { env, reject: false, ...(input === undefined ? {} : { input }) });
    try {
      const made = await kindRun(['create', 'cluster', `--name=${cluster}`, `--image=${image}`, `--config=${config}`, `--kubeconfig=${kubeconfig}`, '--wait=5m']);
      assert.equal(made.exitCode, 0, String(made.all));
      // Seed 001: the node and the workload exist before kwok does.
      assert.equal((await kc(['apply', '-f', '-'], NODE)).exitCode, 0);
      assert.equal((await kc(['apply', '-f', '-'], DEPLOYMENT)).exitCode, 0);
      const loaded = await kindRun(['load', 'docker-image', DEFAULT_KWOK_CONTROLLER_IMAGE, `--name=${cluster}`]);
      assert.equal(loaded.exitCode, 0, String(loaded.all));
      const deployed = await kwokts(box, ['deploy', '--kubeconfig', kubeconfig]);
      assert.equal(deployed.exitCode, 0, failure(deployed));
      await waitFor('the kwok controller Deployment available', async () => (await kc(['-n', 'kube-system', 'get', 'deployment', 'kwok-controller', '-o', 'jsonpath={.status.availableReplicas}'])).stdout === '1', 300_000, 2000);
      await waitFor('kwok-node-0 Ready', async () => (await kc(['get', 'node', 'kwok-node-0', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'])).stdout === 'True', 300_000, 1000);
      await waitFor('10 pods Running', async () => {
        const phases = (await kc(['get', 'pod', '-l', 'app=fake-pod', '-o', 'jsonpath={.items[*].status.phase}'])).stdout.split(' ').filter(Boolean);
        return phases.length === 10 && phases.every((p) => p === 'Running');
      }, 300_000, 1000);
    } finally {
      await kindRun(['delete', 'cluster', `--name=${cluster}`, `--kubeconfig=${kubeconfig}`]);
      // Plain kind keeps its `kind` network; the tests' engine is left as it was found.
      await docker(['network', 'rm', 'kind']);
    }
    assert.equal(String((await docker(['ps', '--all', '--filter', `name=${cluster}-control-plane`, '--format', '{{.Names}}'])).stdout).trim(), '');
  });
});

/** GET with the cluster's admin certificate (kind's CA, adopted into the cluster's pki). */
function adminGet(box: Sandbox, port: number, path: string): Promise<{ status: number; body: string }> {
  const pki = join(box.workdir, 'clusters', NAME, 'pki');
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      { host: '127.0.0.1', port, path, ca: readFileSync(join(pki, 'ca.crt')), cert: readFileSync(join(pki, 'admin.crt')), key: readFileSync(join(pki, 'admin.key')), servername: 'localhost', timeout: 30_000 },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** Each Prometheus job's health, from its targets API on the host. */
async function prometheusTargets(port: number): Promise<Record<string, string>> {
  const response = await fetch(`http://127.0.0.1:${port}/api/v1/targets`);
  const body = (await response.json()) as { data: { activeTargets: Array<{ labels: Record<string, string>; health: string }> } };
  return Object.fromEntries(body.data.activeTargets.map((t) => [t.labels['job'] ?? '', t.health]));
}
