import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { generateClusterPki } from '../../src/pki/index.js';
import { CONTROLLER_NODE_OPTIONS } from '../../src/components/kwok-controller.js';
import { isAlive, isListening, isListeningFor, processesMentioning, kwokts, kwoktsInstalled, recordedPids, recordedPorts, requireBinaries, sandbox, spawnKwokts, USER_KUBECONFIG, waitFor, type Sandbox, failure } from './harness.js';

/** After a delete or a rollback: no process, no port, no file, no kubeconfig entry of ours. */
async function assertNothingLeft(box: Sandbox, cluster: string, pids: number[], ports: number[]): Promise<void> {
  for (const pid of pids) await waitFor(`pid ${pid} to exit`, () => !isAlive(pid), 15_000);
  for (const port of ports) assert.equal(await isListeningFor(port, box.workdir), false, `port ${port} still listening`);
  assert.equal(existsSync(join(box.workdir, 'clusters', cluster)), false, 'cluster directory left behind');
  const kubeconfig = readFileSync(box.kubeconfig, 'utf8');
  assert.ok(!kubeconfig.includes(`kwok-${cluster}`), 'kubeconfig entry left behind');
  assert.ok(kubeconfig.includes('name: mine') && kubeconfig.includes('secret-token'), "the user's own entries were lost");
}

describe('binary runtime: a real cluster', () => {
  let box: Sandbox;
  before(() => {
    requireBinaries();
    box = sandbox();
  });
  after(() => box.cleanup());

  test('create, use with kubectl and etcdctl, delete, nothing left', async () => {
    // A plain create runs on the fast path: with oclif made unloadable it still succeeds.
    const created = await kwokts(box, ['--name', 'e2e', 'create', 'cluster', '--wait', '2m'], { withoutOclif: true });
    assert.equal(created.exitCode, 0, failure(created));
    assert.match(created.stderr, /Cluster e2e is ready \(\d+\.\ds\); context kwok-e2e/);

    // Through `kwokts` as npm installs it (bin/kwokts): the passthroughs run without Node at all,
    // from the facts create left in the cluster directory (a `node` that only fails comes first on PATH).
    const ns = await kwoktsInstalled(box, ['--name', 'e2e', 'kubectl', 'get', 'ns'], { withoutNode: true });
    assert.equal(ns.exitCode, 0, failure(ns));
    assert.match(ns.stdout, /^default\s+Active/m);
    assert.match(ns.stdout, /^kube-system\s+Active/m);

    const keys = await kwoktsInstalled(box, ['--name=e2e', 'etcdctl', 'get', '/registry', '--prefix', '--keys-only'], { withoutNode: true });
    assert.equal(keys.exitCode, 0, failure(keys));
    assert.match(keys.stdout, /^\/registry\/namespaces\/default$/m);

    // An object round trip, through stdin (`-f -`) and back.
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: probe\n  namespace: default\ndata:\n  answer: "42"\n';
    const applied = await kwoktsInstalled(box, ['--name', 'e2e', 'kubectl', 'apply', '-f', '-'], { input: cm, withoutNode: true });
    assert.equal(applied.exitCode, 0, failure(applied));
    const read = await kwoktsInstalled(box, ['--name', 'e2e', 'kubectl', 'get', 'configmap', 'probe', '-o', 'jsonpath={.data.answer}'], { withoutNode: true });
    assert.equal(read.stdout, '42');

    // The controller's identity comes as a variable (Go's kwok has no --id flag): the node leases
    // it holds name the cluster's controller, the same after a restart.
    const scaled = await kwokts(box, ['--name', 'e2e', 'scale', 'node', 'fake', '--replicas', '1']);
    assert.equal(scaled.exitCode, 0, failure(scaled));
    const lease = ['--name', 'e2e', 'kubectl', '-n', 'kube-node-lease', 'wait', 'lease/fake-000000', '--timeout=240s'];
    const leased = await kwokts(box, [...lease, '--for=create']);
    assert.equal(leased.exitCode, 0, failure(leased));
    const held = await kwokts(box, [...lease, '--for=jsonpath={.spec.holderIdentity}=kwok-e2e-controller']);
    assert.equal(held.exitCode, 0, failure(held));

    // The tool's exit code is ours; arguments that look like our flags pass through untouched.
    for (const run of [kwokts, kwoktsInstalled]) {
      const missing = await run(box, ['--name', 'e2e', 'kubectl', 'get', 'configmap', 'nope', '--namespace', 'default']);
      assert.equal(missing.exitCode, 1);
      assert.match(missing.stderr, /NotFound|not found/);
    }

    // Without the facts the launcher hands the call to Node, which answers and writes them again.
    rmSync(join(box.workdir, 'clusters', 'e2e', 'passthrough-kubectl.args'));
    const gone = await kwoktsInstalled(box, ['--name', 'e2e', 'kubectl', 'get', 'ns', 'default', '-o', 'name'], { withoutNode: true });
    assert.equal(gone.exitCode, 97, 'fell through to node');
    assert.match(gone.stderr, /node was started/);
    const viaNode = await kwoktsInstalled(box, ['--name', 'e2e', 'kubectl', 'get', 'ns', 'default', '-o', 'name']);
    assert.equal(viaNode.stdout.trim(), 'namespace/default', viaNode.stderr);
    const again = await kwoktsInstalled(box, ['--name', 'e2e', 'kubectl', 'get', 'ns', 'default', '-o', 'name'], { withoutNode: true });
    assert.equal(again.stdout.trim(), 'namespace/default', again.stderr);

    // Kubeconfig: our context added and current, the user's entries kept, secrets 0600.
    const kubeconfig = readFileSync(box.kubeconfig, 'utf8');
    assert.match(kubeconfig, /current-context: kwok-e2e/);
    assert.ok(kubeconfig.includes('secret-token'));
    const dir = join(box.workdir, 'clusters', 'e2e');
    assert.equal(statSync(join(dir, 'kubeconfig.yaml')).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'pki', 'admin.key')).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'pki', 'front-proxy-client.key')).mode & 0o777, 0o600);

    // The aggregation layer trusts its own CA, not the cluster CA (the apiserver publishes what it loaded).
    const auth = await kwokts(box, ['--name', 'e2e', 'kubectl', '-n', 'kube-system', 'get', 'configmap', 'extension-apiserver-authentication', '-o', 'json']);
    assert.equal(auth.exitCode, 0, failure(auth));
    const authData = (JSON.parse(auth.stdout) as { data: Record<string, string> }).data;
    assert.equal(authData['requestheader-allowed-names'], '["front-proxy-client"]');
    assert.equal(authData['requestheader-client-ca-file']?.trim(), readFileSync(join(dir, 'pki', 'front-proxy-ca.crt'), 'utf8').trim());
    assert.notEqual(authData['requestheader-client-ca-file']?.trim(), authData['client-ca-file']?.trim());
    assert.equal(statSync(box.kubeconfig).mode & 0o777, 0o600);

    const list = await kwokts(box, ['get', 'clusters']);
    assert.deepEqual(list.stdout.trim().split('\n'), ['e2e']);

    // A second create of a ready cluster succeeds without touching it (kwokctl's behaviour).
    const recreate = await kwokts(box, ['--name', 'e2e', 'create', 'cluster']);
    assert.equal(recreate.exitCode, 0, failure(recreate));
    assert.match(recreate.stderr, /already exists/);

    const pids = recordedPids(box.workdir);
    const ports = recordedPorts(box.workdir, 'e2e');
    assert.ok(pids.length >= 4, `expected component pids, got ${pids}`);
    for (const pid of pids) assert.ok(isAlive(pid));

    // A delete loads neither the yaml package (its kubeconfig edit is a line cut, its record js-yaml's)
    // nor the component builders (the binary runtime's stop needs only the start order), nor Node's
    // child_process, perf_hooks, tls and crypto (spawning, the timeline and temporary names need
    // none; NODE_EXTRA_CA_CERTS, set here as on machines behind a TLS-inspecting proxy, is put back
    // for child processes without loading node:tls to trust it: nothing here connects over TLS).
    const bundle = join(box.workdir, '..', 'delete-extra-ca.pem');
    writeFileSync(bundle, (await generateClusterPki()).caCert);
    const deleted = await kwoktsInstalled({ ...box, env: { ...box.env, NODE_EXTRA_CA_CERTS: bundle } }, ['--name', 'e2e', 'delete', 'cluster'], {
      forbidSources: ['node_modules/yaml/dist/', 'src/components/prometheus.ts'],
      forbidBuiltins: ['child_process', 'perf_hooks', 'tls', 'crypto'],
    });
    assert.equal(deleted.exitCode, 0, failure(deleted));
    assert.equal(deleted.stderr.trim(), 'Cluster e2e deleted');
    await assertNothingLeft(box, 'e2e', pids, ports);
    // The user's kubeconfig is theirs again byte for byte, with current-context cleared as kubectl
    // clears a deleted context (the line edit of src/kube/kubeconfig/remove-lines.ts).
    assert.equal(readFileSync(box.kubeconfig, 'utf8'), USER_KUBECONFIG.replace('current-context: mine', 'current-context: ""'));
  });

  test("NODE_EXTRA_CA_CERTS: installed kwokts defers it; the controller starts with it deferred and serves; its Node options come before the user's", async () => {
    // Any bundle will do: this cluster's CA, written where the variable points before the create.
    const bundle = join(box.workdir, '..', 'extra-ca.pem');
    writeFileSync(bundle, (await generateClusterPki()).caCert);
    const withCa: Sandbox = { ...box, env: { ...box.env, NODE_EXTRA_CA_CERTS: bundle, NODE_OPTIONS: '--stack-trace-limit=20' } };
    const created = await kwoktsInstalled(withCa, ['--name', 'ca', 'create', 'cluster', '--wait', '2m']);
    assert.equal(created.exitCode, 0, failure(created));
    // Ready means the controller answered its health check, so it started and resumed the value.
    const controller = Number(readFileSync(join(box.workdir, 'clusters', 'ca', 'pids', 'kwok-controller.pid'), 'utf8'));
    const environ = readFileSync(`/proc/${controller}/environ`, 'utf8').split('\0');
    assert.ok(environ.includes(`KWOKTS_DEFERRED_NODE_EXTRA_CA_CERTS=${bundle}`), 'the controller was not started with the bundle deferred');
    assert.ok(!environ.some((e) => e.startsWith('NODE_EXTRA_CA_CERTS=')), 'the controller was started with NODE_EXTRA_CA_CERTS, which Node parses while it starts');
    // Its own Node options (a larger young generation) first, the user's after them, so theirs win.
    assert.ok(environ.includes(`NODE_OPTIONS=${[...CONTROLLER_NODE_OPTIONS, '--stack-trace-limit=20'].join(' ')}`), environ.filter((e) => e.startsWith('NODE_OPTIONS=')).join(', ') || 'no NODE_OPTIONS');
    const scaled = await kwoktsInstalled(withCa, ['--name', 'ca', 'scale', 'node', '--replicas', '1']);
    assert.equal(scaled.exitCode, 0, failure(scaled));
    const ready = await kwoktsInstalled(withCa, ['--name', 'ca', 'kubectl', 'wait', '--for=condition=Ready', 'node', '--all', '--timeout=180s']);
    assert.equal(ready.exitCode, 0, failure(ready));
    const deleted = await kwoktsInstalled(withCa, ['--name', 'ca', 'delete', 'cluster']);
    assert.equal(deleted.exitCode, 0, failure(deleted));
  });

  test('two clusters side by side', async (t) => {
    // A failure here must not leave clusters behind for the tests after it, which count processes.
    t.after(() => kwokts(box, ['delete', 'cluster', '--all']));
    const [a, b] = await Promise.all([
      kwokts(box, ['--name', 'left', 'create', 'cluster', '--wait', '3m']),
      kwokts(box, ['--name', 'right', 'create', 'cluster', '--wait', '3m']),
    ]);
    assert.equal(a.exitCode, 0, failure(a));
    assert.equal(b.exitCode, 0, failure(b));
    for (const name of ['left', 'right']) {
      const ns = await kwokts(box, ['--name', name, 'kubectl', 'create', 'namespace', `only-in-${name}`]);
      assert.equal(ns.exitCode, 0, failure(ns));
    }
    const left = await kwokts(box, ['--name', 'left', 'kubectl', 'get', 'ns', '-o', 'name']);
    assert.match(left.stdout, /only-in-left/);
    assert.doesNotMatch(left.stdout, /only-in-right/);
    const kubeconfig = readFileSync(box.kubeconfig, 'utf8');
    assert.ok(kubeconfig.includes('kwok-left') && kubeconfig.includes('kwok-right'));

    const pids = recordedPids(box.workdir);
    const ports = [...recordedPorts(box.workdir, 'left'), ...recordedPorts(box.workdir, 'right')];
    const deleted = await kwokts(box, ['delete', 'cluster', '--all']);
    assert.equal(deleted.exitCode, 0, failure(deleted));
    await assertNothingLeft(box, 'left', pids, ports);
    await assertNothingLeft(box, 'right', [], []);
  });

  test('a port already taken: create fails and leaves nothing behind', async () => {
    const server: Server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    try {
      const before = readFileSync(box.kubeconfig, 'utf8');
      const result = await kwokts(box, ['--name', 'clash', 'create', 'cluster', '--kube-apiserver-port', String(port), '--wait', '1m']);
      assert.equal(result.exitCode, 3, result.stderr);
      assert.match(result.stderr, new RegExp(`^error: port ${port} \\(--kube-apiserver-port\\) is already in use$`, 'm'));
      assert.equal(existsSync(join(box.workdir, 'clusters', 'clash')), false);
      assert.equal(readFileSync(box.kubeconfig, 'utf8'), before);
      assert.deepEqual(recordedPids(box.workdir), []);
    } finally {
      server.close();
    }
  });

  test('a broken binary: create fails, etcd that had started is stopped, nothing left', async () => {
    const before = readFileSync(box.kubeconfig, 'utf8');
    const result = await kwokts(box, ['--name', 'broken', 'create', 'cluster', '--kube-apiserver-binary', '/bin/false', '--wait', '1m']);
    assert.equal(result.exitCode, 1, result.stderr);
    assert.match(result.stderr, /kube-apiserver exited/);
    assert.equal(existsSync(join(box.workdir, 'clusters', 'broken')), false);
    assert.equal(readFileSync(box.kubeconfig, 'utf8'), before);
    assert.deepEqual(processesMentioning(join(box.workdir, 'clusters', 'broken')), []);
  });

  test('Ctrl-C during create rolls back', async (t) => {
    t.after(() => kwokts(box, ['delete', 'cluster', '--all']));
    const before = readFileSync(box.kubeconfig, 'utf8');
    const child = spawnKwokts(box, ['--name', 'interrupted', 'create', 'cluster', '--wait', '2m']);
    const pidsDir = join(box.workdir, 'clusters', 'interrupted', 'pids');
    await waitFor('a component to start', () => existsSync(join(pidsDir, 'etcd.pid')), 60_000, 50);
    const started = recordedPids(box.workdir);
    child.kill('SIGINT');
    const result = await child;
    assert.equal(result.exitCode, 130, String(result.stderr));
    for (const pid of started) await waitFor(`pid ${pid} to exit`, () => !isAlive(pid), 15_000);
    assert.equal(existsSync(join(box.workdir, 'clusters', 'interrupted')), false);
    assert.equal(readFileSync(box.kubeconfig, 'utf8'), before);
    assert.deepEqual(processesMentioning(join(box.workdir, 'clusters', 'interrupted')), []);
  });

  test('two creates of the same name at once: exactly one cluster', async (t) => {
    t.after(() => kwokts(box, ['delete', 'cluster', '--all']));
    const [a, b] = await Promise.all([
      kwokts(box, ['--name', 'race', 'create', 'cluster', '--wait', '2m']),
      kwokts(box, ['--name', 'race', 'create', 'cluster', '--wait', '2m']),
    ]);
    const codes = [a.exitCode, b.exitCode].sort();
    // The loser either sees the lock (conflict, exit 4) or, if it came after, a ready cluster (0).
    assert.ok(codes[0] === 0 && (codes[1] === 0 || codes[1] === 4), `exit codes ${codes}; ${a.stderr} ${b.stderr}`);
    // One process per component, not two sets fighting over the same directory.
    const running = processesMentioning(join(box.workdir, 'clusters', 'race'));
    assert.equal(running.length, recordedPids(box.workdir).length, `processes: ${running.join(' ')}`);
    const deleted = await kwokts(box, ['--name', 'race', 'delete', 'cluster']);
    assert.equal(deleted.exitCode, 0, failure(deleted));
  });
});

describe('binary runtime: bad input', () => {
  let box: Sandbox;
  before(() => {
    box = sandbox();
  });
  after(() => box.cleanup());

  const cases: Array<{ args: string[]; code: number; message: RegExp }> = [
    { args: ['--name', 'ghost', 'kubectl', 'get', 'ns'], code: 4, message: /cluster ghost does not exist/ },
    { args: ['--name', 'Bad_Name', 'create', 'cluster'], code: 2, message: /invalid cluster name/ },
    { args: ['create', 'cluster', '--wait', 'soon'], code: 2, message: /invalid duration "soon"/ },
    { args: ['create', 'cluster', '--disable', 'etcd'], code: 2, message: /etcd cannot be disabled/ },
    { args: ['create', 'cluster', '--enable', 'nope'], code: 2, message: /unknown component "nope"/ },
    { args: ['create', 'cluster', '--runtime', 'nope'], code: 2, message: /unknown runtime "nope"/ },
    { args: ['create', 'cluster', '-c', '/nonexistent.yaml'], code: 2, message: /config file \/nonexistent.yaml does not exist/ },
    { args: ['create', 'cluster', '--no-such-flag'], code: 2, message: /no-such-flag/ },
  ];
  for (const { args, code, message } of cases) {
    test(`kwokts ${args.join(' ')}`, async () => {
      const result = await kwokts(box, args);
      assert.equal(result.exitCode, code, result.stderr);
      assert.match(result.stderr, message);
      assert.match(result.stderr.split('\n')[0] ?? '', /^error: /);
      assert.equal(existsSync(join(box.workdir, 'clusters', 'kwok')), false);
    });
  }

  test('delete cluster of a cluster that does not exist: one warning line and exit 0 (kwokctl, kind)', async () => {
    const result = await kwokts(box, ['--name', 'ghost', 'delete', 'cluster']);
    assert.equal(result.exitCode, 0, failure(result));
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /cluster ghost does not exist/i);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  });

  test('an invalid Stage in -c is refused before anything is made, naming file and stage', async () => {
    const file = join(box.workdir, '..', 'bad-stage.yaml');
    writeFileSync(file, 'apiVersion: kwok.x-k8s.io/v1alpha1\nkind: Stage\nmetadata: {name: typo}\nspec:\n  resourceRef: {kind: Pod}\n  selector: {}\n  delay: {durationMilliseconds: soon}\n');
    const result = await kwokts(box, ['--name', 'badstage', 'create', 'cluster', '-c', file]);
    assert.equal(result.exitCode, 2, result.stderr);
    assert.match(result.stderr, /^error: .*bad-stage\.yaml.*typo.*durationMilliseconds/m);
    assert.equal(existsSync(join(box.workdir, 'clusters', 'badstage')), false);
  });

  test('--dry-run prints the plan and changes nothing', async () => {
    const result = await kwokts(box, ['--name', 'dry', '--dry-run', 'create', 'cluster']);
    assert.equal(result.exitCode, 0, failure(result));
    assert.match(result.stdout, /^mkdir -p .*clusters\/dry$/m);
    assert.match(result.stdout, /# Generate PKI to /);
    // The apiserver reaches etcd over its unix socket in the cluster directory.
    assert.match(result.stdout, /kube-apiserver \\\n(  .* \\\n)*  --etcd-servers=unix:\/\/\/.*clusters\/dry\/etcd\.sock \\/);
    assert.match(result.stdout, /^chmod 700 .*clusters\/dry$/m);
    assert.match(result.stdout, /echo \$! >.*pids\/etcd\.pid/);
    assert.match(result.stdout, /# Add context kwok-dry to /);
    assert.equal(existsSync(join(box.workdir, 'clusters', 'dry')), false);
    assert.equal(readFileSync(box.kubeconfig, 'utf8'), USER_KUBECONFIG);
  });

  test('--components sets the base set (kwokctl): only those are started', async () => {
    const result = await kwokts(box, ['--name', 'few', '--dry-run', 'create', 'cluster', '--components', 'etcd,kube-apiserver', '--enable', 'kwok-controller']);
    assert.equal(result.exitCode, 0, failure(result));
    assert.match(result.stdout, /pids\/kwok-controller\.pid/);
    assert.doesNotMatch(result.stdout, /pids\/kube-(scheduler|controller-manager)\.pid/);
    const bad = await kwokts(box, ['--name', 'few', 'create', 'cluster', '--components', 'etcd']);
    assert.equal(bad.exitCode, 2);
    assert.match(bad.stderr, /^error: --components leaves out kube-apiserver$/m);
    assert.equal(existsSync(join(box.workdir, 'clusters', 'few')), false);
  });
});
