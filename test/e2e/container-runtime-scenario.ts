/**
 * The container runtimes' e2e scenario, once for docker and podman (each e2e file runs it
 * against its own engine, started by test/engines/*.sh): create, `kubectl get ns`, seed 000's
 * node and deployment with every pod Running, stop (data kept), start, delete, and nothing of
 * the cluster left in the engine; Prometheus (the upstream image's unprivileged user, the cluster's
 * 0600 keys) with every target up and a kwok metric queryable; `kubectl port-forward` to a fake
 * pod through the controller's container and `kwokts port-forward` to a component; then the bad
 * inputs, each one clear error with nothing left.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { freePort, isListening, kwokts, oneLinePerCommand, requireBinaries, sandbox, spawnKwokts, waitFor, type Sandbox, failure } from './harness.js';
import { DEPLOYMENT, NODE } from '../fixtures/seed-objects.js';
import { TEST_PROMETHEUS_IMAGE, type TestEngine } from '../engines/images.js';
import { engineLogTail, startEngine, type EngineUnderTest } from '../engines/start-engine.js';

const LABEL = 'io.kwokts.cluster';

/** Names of the engine's containers, networks or volumes labelled as the cluster's. */
export async function leftovers(under: EngineUnderTest, cluster: string): Promise<string[]> {
  const run = async (args: string[]): Promise<string[]> => {
    const r = await execa(under.engine, args, { env: { ...process.env, ...under.env }, reject: false });
    assert.equal(r.exitCode, 0, `${under.engine} ${args.join(' ')}: ${r.stderr}`);
    return String(r.stdout).split('\n').map((l) => l.trim()).filter(Boolean);
  };
  const filter = ['--filter', `label=${LABEL}=${cluster}`];
  return [
    ...(await run(['ps', '--all', ...filter, '--format', '{{.Names}}'])).map((n) => `container ${n}`),
    ...(await run(['network', 'ls', ...filter, '--format', '{{.Name}}'])).map((n) => `network ${n}`),
    ...(await run(['volume', 'ls', ...filter, '--format', '{{.Name}}'])).map((n) => `volume ${n}`),
  ];
}

/**
 * Start a port-forward (`kwokts kubectl port-forward` or `kwokts port-forward`), wait for its
 * "Forwarding from" line, use it, stop it with SIGTERM: kwokts' own exits 0 (kubectl's exits 143).
 */
async function throughForward<T>(box: Sandbox, args: string[], use: (localPort: number) => Promise<T>): Promise<T> {
  const own = args.includes('port-forward') && !args.includes('kubectl');
  const child = spawnKwokts(box, args);
  let out = '';
  let err = '';
  let exited = false;
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  void child.then(() => (exited = true), () => (exited = true));
  try {
    await waitFor(`${args.join(' ')} to listen`, () => exited || /Forwarding from 127\.0\.0\.1:\d+/.test(out), 60_000, 100);
    const match = /Forwarding from 127\.0\.0\.1:(\d+)/.exec(out);
    assert.ok(match, `no "Forwarding from" line; stdout: ${out}; stderr: ${err}`);
    return await use(Number(match[1]));
  } finally {
    child.kill('SIGTERM');
    const result = await child.catch((e: { exitCode?: number }) => e);
    if (own) assert.equal(result.exitCode, 0, `${args.join(' ')} on SIGTERM: ${err}`);
  }
}

/** `<name> <State.Status>` of the cluster's containers (inspect: `ps` formats differ between engines). */
async function containerStates(under: EngineUnderTest, cluster: string): Promise<string[]> {
  const env = { ...process.env, ...under.env };
  const names = String((await execa(under.engine, ['ps', '--all', '--filter', `label=${LABEL}=${cluster}`, '--format', '{{.Names}}'], { env })).stdout).split('\n').filter(Boolean);
  const states = await Promise.all(names.map(async (n) => `${n} ${String((await execa(under.engine, ['inspect', '--format', '{{.State.Status}}', n], { env })).stdout).trim()}`));
  return states.sort();
}

export function containerRuntimeSuite(engine: TestEngine): void {
  describe(`${engine} runtime`, () => {
    let under: EngineUnderTest;
    let box: Sandbox;
    const name = `e2e-${engine}`;
    const run = (args: string[], input?: string) => kwokts(box, ['--name', name, ...args], input === undefined ? {} : { input });
    const k = (args: string[], input?: string) => run(['kubectl', ...args], input);

    before(async () => {
      requireBinaries();
      under = await startEngine(engine);
      box = sandbox();
      Object.assign(box.env, under.env, { KWOK_RUNTIME: engine });
    });
    after(async () => {
      if (box) {
        await run(['delete', 'cluster']);
        box.cleanup();
      }
    });

    test('create, kubectl, seed 000 (pods Running), stop, start, delete; nothing left', async () => {
      const started = Date.now();
      const created = await run(['create', 'cluster', '--wait', '2m']);
      assert.equal(created.exitCode, 0, `${created.stderr}\n${engineLogTail(engine)}`);
      console.log(`# ${engine}: create to ready in ${((Date.now() - started) / 1000).toFixed(1)}s (CLI wall time, images present)`);

      const ns = await k(['get', 'ns']);
      assert.equal(ns.exitCode, 0, failure(ns));
      assert.match(ns.stdout, /^kube-system\s+Active/m);
      const states = await containerStates(under, name);
      assert.deepEqual(states, ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller'].map((c) => `kwok-${name}-${c} running`));

      assert.equal((await k(['apply', '-f', '-'], NODE)).exitCode, 0);
      assert.equal((await k(['apply', '-f', '-'], DEPLOYMENT)).exitCode, 0);
      const phases = async (): Promise<string[]> => (await k(['get', 'pod', '-l', 'app=fake-pod', '-o', 'jsonpath={.items[*].status.phase}'])).stdout.split(' ').filter(Boolean);
      await waitFor('10 pods Running', async () => {
        const p = await phases();
        return p.length === 10 && p.every((x) => x === 'Running');
      }, 60_000, 500);
      const node = await k(['get', 'node', 'kwok-node-0', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}']);
      assert.equal(node.stdout, 'True');

      // etcd snapshot restore under the engine: etcd's container restarts (the live restore), then
      // kcm's (src/snapshot/etcd-restore.ts, RESTARTED_AFTER_RESTORE); the apiserver keeps running,
      // and what was made after the save is gone once the command returns.
      const startedAt = async (component: string): Promise<string> =>
        String((await execa(under.engine, ['inspect', '--format', '{{.State.StartedAt}}', `kwok-${name}-${component}`], { env: { ...process.env, ...under.env } })).stdout).trim();
      const snapshot = join(box.workdir, '..', `${name}-snapshot.db`);
      const saved = await run(['snapshot', 'save', '--path', snapshot]);
      assert.equal(saved.exitCode, 0, failure(saved));
      assert.equal((await k(['create', 'configmap', 'made-after-save'])).exitCode, 0);
      const [apiserverBefore, etcdBefore, kcmBefore] = [await startedAt('kube-apiserver'), await startedAt('etcd'), await startedAt('kube-controller-manager')];
      const restored = await run(['snapshot', 'restore', '--path', snapshot]);
      assert.equal(restored.exitCode, 0, failure(restored));
      assert.equal((await k(['get', 'configmap', 'made-after-save', '--ignore-not-found', '-o', 'name'])).stdout.trim(), '', 'the config map made after the save is gone');
      assert.equal(await startedAt('kube-apiserver'), apiserverBefore, 'the apiserver kept running');
      assert.notEqual(await startedAt('etcd'), etcdBefore, 'etcd was restarted on the restored data');
      assert.notEqual(await startedAt('kube-controller-manager'), kcmBefore, 'kube-controller-manager was restarted on the restored data');
      await waitFor('10 pods Running after the restore', async () => {
        const p = await phases();
        return p.length === 10 && p.every((x) => x === 'Running');
      }, 60_000, 500);

      // Logs come from the engine; export logs collects them.
      const logs = await run(['logs', 'kwok-controller']);
      assert.equal(logs.exitCode, 0, failure(logs));
      assert.match(logs.stdout, /kwok controller .* started/);
      const exportDir = join(box.workdir, '..', 'exported');
      const exported = await run(['export', 'logs', exportDir]);
      assert.equal(exported.exitCode, 0, failure(exported));
      assert.match(readFileSync(join(exportDir, name, 'components', 'kube-apiserver.log'), 'utf8'), /Serving securely|serving/i);
      // As kwokctl's: what the engine's CLI says of itself, not only the platform.
      assert.match(readFileSync(join(exportDir, name, `${engine}-info.txt`), 'utf8'), /Server Version|APIVersion/);
      const planned = await run(['--dry-run', 'export', 'logs']);
      assert.match(planned.stdout, new RegExp(`^${engine} \\\\\n  logs \\\\\n  kwok-${name}-etcd \\\\$`, 'm'));

      // Passthrough uses the host's binaries against the ports published on loopback.
      const etcd = await run(['etcdctl', 'get', '/registry/namespaces/default', '--keys-only']);
      assert.equal(etcd.exitCode, 0, failure(etcd));
      assert.equal(etcd.stdout.trim(), '/registry/namespaces/default');
      const wide = await run(['get', 'clusters', '-o', 'wide']);
      assert.match(wide.stdout, new RegExp(`^${name}\\s+5\\/5\\s+Ready$`, 'm'));
      const listed = JSON.parse((await run(['get', 'clusters', '-o', 'json'])).stdout) as Array<{ name: string; runtime: string; apiserver: string }>;
      assert.equal(listed.find((c) => c.name === name)?.runtime, engine);

      // kwok's TestRestart compares these transcripts byte for byte: kwokctl's order (start
      // groups reversed, a group in list order), one word per line, stopped at once.
      const word = (verb: string, c: string, extra = ''): string => `${engine} \\\n  ${verb} \\\n  kwok-${name}-${c}${extra}`;
      const stopPlan = await run(['stop', 'cluster', '--dry-run']);
      assert.equal(stopPlan.stdout.trim(), ['kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'kube-apiserver', 'etcd'].map((c) => word('stop', c, ' \\\n  --time=0')).join('\n'));
      const stopped = await run(['stop', 'cluster']);
      assert.equal(stopped.exitCode, 0, failure(stopped));
      const startPlan = await run(['start', 'cluster', '--dry-run']);
      assert.equal(startPlan.stdout.trim(), ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller'].map((c) => word('start', c)).join('\n'));
      for (const s of await containerStates(under, name)) assert.match(s, / exited$/, 'stop keeps the containers, stopped');
      const components = await run(['get', 'components', '-o', 'json']);
      assert.ok((JSON.parse(components.stdout) as Array<{ state: string }>).every((c) => c.state === 'stopped'), components.stdout);

      const restarted = await run(['start', 'cluster', '--wait', '2m']);
      assert.equal(restarted.exitCode, 0, failure(restarted));
      // The objects survived: same deployment, pods Running again.
      await waitFor('10 pods Running after start', async () => {
        const p = await phases();
        return p.length === 10 && p.every((x) => x === 'Running');
      }, 60_000, 500);

      const deleted = await run(['delete', 'cluster']);
      assert.equal(deleted.exitCode, 0, failure(deleted));
      assert.deepEqual(await leftovers(under, name), []);
      assert.ok(!existsSync(join(box.workdir, 'clusters', name)));
    });

    test('prometheus (its image\'s user is nobody) scrapes every target, a kwok metric is queryable; kubectl port-forward to a fake pod and kwokts port-forward to a component', async () => {
      const cluster = `containers-${engine}-prom`;
      const etcd = `kwok-${cluster}-etcd`;
      // The forward's target is another container of the cluster: the controller, in its own
      // container, dials it by name on the cluster's network.
      const config = join(box.workdir, '..', `${cluster}.yaml`);
      writeFileSync(config, `apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterPortForward
metadata: {name: to-etcd-metrics}
spec:
  forwards:
  - ports: [8080]
    target: {port: 2381, address: ${etcd}}
`);
      const promPort = await freePort();
      const c = (args: string[], input?: string) => kwokts(box, ['--name', cluster, ...args], input === undefined ? {} : { input });
      try {
        const created = await c(['-c', config, 'create', 'cluster', '--enable', 'prometheus', '--prometheus-image', TEST_PROMETHEUS_IMAGE, '--prometheus-port', String(promPort), '--wait', '2m']);
        assert.equal(created.exitCode, 0, failure(created));
        const env = { ...process.env, ...under.env };
        const user = String((await execa(under.engine, ['inspect', '--format', '{{.Config.User}}', `kwok-${cluster}-prometheus`], { env })).stdout).trim();
        assert.equal(user, `${process.getuid!()}:${process.getgid!()}`, 'prometheus runs as the owner of the cluster\'s files');
        assert.equal(statSync(join(box.workdir, 'clusters', cluster, 'pki', 'prometheus.key')).mode & 0o777, 0o600);

        const api = async <T>(path: string): Promise<T> => ((await (await fetch(`http://127.0.0.1:${promPort}${path}`)).json()) as { data: T }).data;
        let targets: Array<{ labels: { job: string }; health: string; lastError: string }> = [];
        await waitFor('every target up', async () => {
          targets = (await api<{ activeTargets: typeof targets }>('/api/v1/targets').catch(() => ({ activeTargets: [] }))).activeTargets;
          return targets.length === 6 && targets.every((t) => t.health === 'up');
        }, 180_000, 1000).catch((error: Error) => assert.fail(`${error.message}: ${JSON.stringify(targets)}`));
        assert.deepEqual(targets.map((t) => t.labels.job).sort(), ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'prometheus']);

        assert.equal((await c(['kubectl', 'apply', '-f', '-'], NODE)).exitCode, 0);
        await waitFor('kwok_managed_nodes reports the node', async () => {
          const result = await api<{ result: Array<{ value: [number, string] }> }>('/api/v1/query?query=kwok_managed_nodes');
          return result.result.some((r) => Number(r.value[1]) >= 1);
        }, 180_000, 2000);

        const pod = `apiVersion: v1
kind: Pod
metadata: {name: web-0, namespace: default}
spec:
  nodeName: kwok-node-0
  tolerations: [{key: kwok.x-k8s.io/node, operator: Exists, effect: NoSchedule}]
  containers: [{name: app, image: fake-image}]
`;
        assert.equal((await c(['kubectl', 'apply', '-f', '-'], pod)).exitCode, 0);
        await waitFor('pod web-0 Running', async () => (await c(['kubectl', 'get', 'pod', 'web-0', '-o', 'jsonpath={.status.phase}'])).stdout === 'Running', 120_000, 500);
        const local = await freePort();
        const health = await throughForward(box, ['--name', cluster, 'kubectl', 'port-forward', 'pod/web-0', `${local}:8080`], async (port) => {
          assert.equal(port, local);
          return (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as { health: string };
        });
        assert.equal(health.health, 'true', 'etcd\'s /health, reached through the pod\'s forward');

        const ready = await throughForward(box, ['--name', cluster, 'port-forward', 'prometheus', '0:http'], async (port) => {
          assert.notEqual(port, promPort);
          return (await fetch(`http://127.0.0.1:${port}/-/ready`)).status;
        });
        assert.equal(ready, 200);
        const byContainerPort = await throughForward(box, ['--name', cluster, 'port-forward', 'kube-apiserver', ':6443'], async (port) => (await execa('curl', ['-sk', '-o', '/dev/null', '-w', '%{http_code}', `https://127.0.0.1:${port}/livez`], { reject: false })).stdout);
        assert.match(byContainerPort, /^(200|401|403)$/, 'the apiserver answers HTTPS through the forward of its container port');

        assert.equal((await c(['delete', 'cluster'])).exitCode, 0);
        assert.deepEqual(await leftovers(under, cluster), []);
        assert.equal(await isListening(promPort), false);
      } finally {
        await c(['delete', 'cluster']);
      }
    });

    test('metrics-server (its image\'s user is nobody) serves kubectl top node', async () => {
      const cluster = `containers-${engine}-ms`;
      const config = join(box.workdir, '..', `${cluster}.yaml`);
      writeFileSync(config, `apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterResourceUsage
metadata: {name: flat}
spec:
  usages:
  - usage:
      cpu: {value: 250m}
      memory: {value: 64Mi}
`);
      const c = (args: string[], input?: string) => kwokts(box, ['--name', cluster, ...args], input === undefined ? {} : { input });
      try {
        const created = await c(['-c', config, 'create', 'cluster', '--enable', 'metrics-server', '--wait', '3m']);
        assert.equal(created.exitCode, 0, failure(created));
        const env = { ...process.env, ...under.env };
        const user = String((await execa(under.engine, ['inspect', '--format', '{{.Config.User}}', `kwok-${cluster}-metrics-server`], { env })).stdout).trim();
        assert.equal(user, `${process.getuid!()}:${process.getgid!()}`, 'metrics-server runs as the owner of the cluster\'s files');
        const objects = `apiVersion: v1
kind: Node
metadata:
  name: ms-node-0
  annotations:
    kwok.x-k8s.io/node: fake
    metrics.k8s.io/resource-metrics-path: /metrics/nodes/ms-node-0/metrics/resource
status:
  allocatable: {cpu: "32", memory: 256Gi, pods: "110"}
  capacity: {cpu: "32", memory: 256Gi, pods: "110"}
---
apiVersion: v1
kind: Pod
metadata: {name: ms-pod-0, namespace: default}
spec:
  nodeName: ms-node-0
  containers: [{name: app, image: fake}]
`;
        assert.equal((await c(['kubectl', 'apply', '-f', '-'], objects)).exitCode, 0);
        // metrics-server needs two scrapes (15 s apart) for a CPU rate: poll, with a generous deadline.
        let top = '';
        await waitFor('kubectl top node', async () => {
          top = (await c(['kubectl', 'top', 'node', 'ms-node-0', '--no-headers'])).stdout;
          return /^ms-node-0\s/.test(top);
        }, 300_000, 5000).catch((error: Error) => assert.fail(`${error.message}: ${top}`));
        assert.match(top, /^ms-node-0\s+\d+m\s+\S+\s+64Mi\s/);
        assert.equal((await c(['delete', 'cluster'])).exitCode, 0);
        assert.deepEqual(await leftovers(under, cluster), []);
      } finally {
        await c(['delete', 'cluster']);
      }
    });

    test('a network of that name that is not the cluster\'s: one clear error, nothing made', async () => {
      const taken = `${name}-net`;
      const network = `kwok-${taken}`;
      const env = { ...process.env, ...under.env };
      await execa(under.engine, ['network', 'create', network], { env });
      try {
        const r = await kwokts(box, ['--name', taken, 'create', 'cluster']);
        assert.equal(r.exitCode, 3, r.stderr);
        assert.match(r.stderr, new RegExp(`error: ${engine} network ${network} already exists and does not belong to cluster ${taken}`));
        assert.match(r.stderr, /hint: remove it/);
        assert.deepEqual(await leftovers(under, taken), []);
        assert.ok(!existsSync(join(box.workdir, 'clusters', taken)));
        // The user's network is untouched.
        assert.equal((await execa(under.engine, ['network', 'inspect', network], { env, reject: false })).exitCode, 0);
      } finally {
        await execa(under.engine, ['network', 'rm', network], { env, reject: false });
      }
    });

    test('a container left by an earlier cluster of that name (its directory gone): one clear error, nothing made, the container kept', async () => {
      const taken = `${name}-left`;
      const container = `kwok-${taken}-etcd`;
      const env = { ...process.env, ...under.env };
      await execa(under.engine, ['create', '--name', container, '--label', `${LABEL}=${taken}`, TEST_PROMETHEUS_IMAGE], { env });
      try {
        const r = await kwokts(box, ['--name', taken, 'create', 'cluster']);
        assert.equal(r.exitCode, 3, r.stderr);
        assert.match(r.stderr, new RegExp(`error: ${engine} still has a container of an earlier cluster named ${taken} that kwokts has no record of: ${container}`));
        assert.match(r.stderr, new RegExp(`hint: remove it \\(\`${engine} rm -f ${container}\`\\)`));
        assert.ok(!existsSync(join(box.workdir, 'clusters', taken)));
        assert.deepEqual(await leftovers(under, taken), [`container ${container}`]);
      } finally {
        await execa(under.engine, ['rm', '-f', container], { env, reject: false });
      }
    });

    test('an image that is missing and cannot be pulled: one clear error, rolled back', async () => {
      const bad = `${name}-img`;
      const r = await kwokts(box, ['--name', bad, 'create', 'cluster', '--quiet-pull', '--kube-scheduler-image', 'registry.invalid/kwokts/missing:v0']);
      assert.equal(r.exitCode, 3, r.stderr);
      assert.match(r.stderr, /error: image registry\.invalid\/kwokts\/missing:v0 of kube-scheduler is not present and could not be pulled/);
      assert.deepEqual(await leftovers(under, bad), []);
      assert.ok(!existsSync(join(box.workdir, 'clusters', bad)));
    });

    test('a port in use: one clear error before anything is made', async () => {
      const server: Server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as { port: number }).port;
      try {
        const busy = `${name}-port`;
        const r = await kwokts(box, ['--name', busy, 'create', 'cluster', '--kube-apiserver-port', String(port)]);
        assert.equal(r.exitCode, 3, r.stderr);
        assert.match(r.stderr, new RegExp(`error: port ${port} \\(--kube-apiserver-port\\) is already in use`));
        assert.deepEqual(await leftovers(under, busy), []);
      } finally {
        server.close();
      }
    });

    test('without --runtime the answering engine is chosen (kwokctl order: docker, then podman)', async () => {
      // Only this engine answers: the other one's variable points nowhere.
      const other: Record<string, string> = engine === 'docker' ? { CONTAINER_HOST: 'unix:///nonexistent/podman.sock' } : { DOCKER_HOST: 'unix:///nonexistent/docker.sock' };
      const r = await kwokts({ ...box, env: { ...box.env, KWOK_RUNTIME: '', ...other } }, ['--name', `${name}-auto`, 'create', 'cluster', '--dry-run']);
      assert.equal(r.exitCode, 0, failure(r));
      assert.match(oneLinePerCommand(r.stdout), new RegExp(`^${engine} network create .* kwok-${name}-auto$`, 'm'));
    });

    test('without --runtime an engine that lacks the images and cannot pull them is passed over (offline: binary)', async () => {
      // No test image exists for this version, and no registry is reachable from this machine.
      const other: Record<string, string> = engine === 'docker' ? { CONTAINER_HOST: 'unix:///nonexistent/podman.sock' } : { DOCKER_HOST: 'unix:///nonexistent/docker.sock' };
      const env = { ...box.env, KWOK_RUNTIME: '', KWOK_KUBE_VERSION: 'v1.35.0', ...other };
      const r = await kwokts({ ...box, env }, ['--name', `${name}-offline`, 'create', 'cluster', '--dry-run']);
      assert.equal(r.exitCode, 0, failure(r));
      assert.match(r.stderr, new RegExp(`not using ${engine}: image registry\\.k8s\\.io/\\S+ is not in ${engine} and registry\\.k8s\\.io cannot be reached \\(pass --runtime ${engine} to use it anyway\\)`));
      assert.doesNotMatch(oneLinePerCommand(r.stdout), new RegExp(`^${engine} network create`, 'm'));
      assert.match(r.stdout, /^# Use kube-apiserver from /m, 'the binary runtime plans its programs');
    });

    test('Ctrl-C during create: rolled back, no container or network left', async () => {
      const interrupted = `${name}-int`;
      const child = spawnKwokts(box, ['--name', interrupted, 'create', 'cluster']);
      await waitFor('a container of the create', async () => (await leftovers(under, interrupted)).some((l) => l.startsWith('container ')), 60_000, 100);
      child.kill('SIGINT');
      const result = await child;
      assert.equal(result.exitCode, 130, String(result.stderr));
      assert.deepEqual(await leftovers(under, interrupted), []);
      assert.ok(!existsSync(join(box.workdir, 'clusters', interrupted)));
    });

    test('the engine not running: one clear error naming where it looked', async () => {
      const down = { ...box, env: { ...box.env, DOCKER_HOST: 'unix:///nonexistent/docker.sock', CONTAINER_HOST: 'unix:///nonexistent/podman.sock' } };
      const r = await kwokts(down, ['--name', `${name}-down`, 'create', 'cluster']);
      assert.equal(r.exitCode, 3, r.stderr);
      assert.match(r.stderr, new RegExp(`error: ${engine} is not running or not installed \\(tried unix:///nonexistent/`));
      assert.ok(!existsSync(join(box.workdir, 'clusters', `${name}-down`)));
    });
  });
}
