/**
 * kwok in an existing cluster. A kwokts cluster without its own kwok
 * controller stands in for "an existing cluster":
 *   1. `kwokts deploy` applies the in-cluster manifests (Stage CRD, ServiceAccount, RBAC, Service,
 *      Deployment); the Deployment is scaled to 0 because its image cannot run here.
 *   2. The controller runs with exactly the credentials its Pod would get: a token of the
 *      manifest's ServiceAccount (`kubectl create token`), the cluster CA and the namespace in a
 *      service-account directory, found through KUBERNETES_SERVICE_HOST/PORT (the in-cluster path).
 *      What it must not do is denied.
 *   3. Seed 001: a Node and a Deployment created before the controller and before any Stage
 *      exist become Ready/Running once the stages are applied.
 *   4. Two replicas with --leader-elect: one acts, the other waits; SIGKILL on the leader hands
 *      over within a lease period, and pods created afterwards get IPs no other pod has.
 *   5. SIGTERM on the leader releases the Lease; nothing is left running.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execa, type ResultPromise } from 'execa';
import https from 'node:https';
import { mkdirSync, mkdtempSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { serviceAccountDir } from '../../src/kube/kubeconfig/in-cluster.js';
import { insecureHttpsStatus, isAlive, kwokts, recordedPids, requireBinaries, ROOT, sandbox, waitFor, type Sandbox, failure } from './harness.js';
import { NODE, seedDeployment as deployment } from '../fixtures/seed-objects.js';

const NAME = 'incluster';
const SA = 'system:serviceaccount:kube-system:kwok-controller';
const LEADER_LEASE_MS = 15_000;

interface Controller {
  id: string;
  process: ResultPromise;
  log(): string;
}

describe('kwok in an existing cluster: deploy, service-account credentials, seed 001, leader election', () => {
  let box: Sandbox;
  let secrets: string;
  let apiserverPort = 0;
  let deploymentArgs: string[] = [];
  let deploymentEnv: Record<string, string> = {};
  let serviceAccountToken = '';
  const controllers: Controller[] = [];
  const k = (args: string[], input?: string) => kwokts(box, ['--name', NAME, 'kubectl', ...args], input === undefined ? {} : { input });
  const canI = async (...args: string[]): Promise<string> => (await k(['auth', 'can-i', ...args, `--as=${SA}`])).stdout.trim();
  const jsonpath = async (args: string[], path: string): Promise<string> => (await k([...args, '-o', `jsonpath=${path}`])).stdout;
  const leaderHolder = (): Promise<string> => jsonpath(['-n', 'kube-system', 'get', 'lease', 'kwok-controller'], '{.spec.holderIdentity}');
  const nodeLeaseHolder = (): Promise<string> => jsonpath(['-n', 'kube-node-lease', 'get', 'lease', 'kwok-node-0'], '{.spec.holderIdentity}');

  /** The controller as its Pod runs it: the Deployment's args, in-cluster credentials. */
  function startController(id: string): Controller {
    const args = [
      ...deploymentArgs.map((arg) => arg.replace('$(POD_IP)', '10.200.0.1')),
      '--server-address=127.0.0.1:0',
      `--id=${id}`,
    ];
    const child = execa('node', ['--import', 'tsx', join(ROOT, 'test', 'e2e', 'in-cluster-controller.ts'), ...args], {
      cwd: ROOT,
      reject: false,
      all: true,
      buffer: false,
      env: {
        // Nothing of the host's identity: no KUBECONFIG, no HOME kubeconfig; only the Pod's view.
        PATH: process.env['PATH'] ?? '',
        HOME: secrets,
        KUBERNETES_SERVICE_HOST: '127.0.0.1',
        KUBERNETES_SERVICE_PORT: String(apiserverPort),
        KWOKTS_E2E_SA_ROOT: secrets,
        // The Deployment's own variables, their service-account paths under the same root.
        ...Object.fromEntries(Object.entries(deploymentEnv).map(([name, value]) => [name, value.startsWith('/var/run/secrets/') ? join(secrets, value) : value])),
      },
      extendEnv: false,
    });
    let output = '';
    child.all?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const controller = { id, process: child, log: () => output };
    controllers.push(controller);
    return controller;
  }

  before(async () => {
    requireBinaries();
    box = sandbox();
    const created = await kwokts(box, ['--name', NAME, 'create', 'cluster', '--disable', 'kwok-controller', '--wait', '2m']);
    assert.equal(created.exitCode, 0, failure(created));
    const server = /server: https:\/\/127\.0\.0\.1:(\d+)/.exec(readFileSync(box.kubeconfig, 'utf8'));
    assert.ok(server, 'the cluster is in the sandbox kubeconfig');
    apiserverPort = Number(server[1]);
    secrets = mkdtempSync(join(tmpdir(), 'kwokts-sa-'));
  });

  after(async () => {
    for (const c of controllers) c.process.kill('SIGKILL');
    await Promise.all(controllers.map((c) => c.process.catch(() => undefined)));
    await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    box.cleanup();
    rmSync(secrets, { recursive: true, force: true });
  });

  test('deploy applies the manifests; the ServiceAccount gets exactly its rules', async () => {
    const bad = await kwokts(box, ['deploy', '--kubeconfig', box.kubeconfig, '--context', 'nope']);
    assert.equal(bad.exitCode, 2, bad.stderr);
    assert.match(bad.stderr, /^error: context "nope" is not in kubeconfig .*$/m);
    const bogus = join(secrets, 'bogus.kubeconfig');
    writeFileSync(
      bogus,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:${apiserverPort}", insecure-skip-tls-verify: true}\nusers:\n- name: u\n  user: {token: bogus}\ncontexts:\n- name: a\n  context: {cluster: c, user: u}\ncurrent-context: a\n`,
      { mode: 0o600 },
    );
    const rejected = await kwokts(box, ['deploy', '--kubeconfig', bogus]);
    assert.equal(rejected.exitCode, 3, rejected.stderr);
    assert.match(rejected.stderr, /^error: the API server at https:\/\/127\.0\.0\.1:\d+ rejected the kubeconfig's credentials$/m);
    assert.equal((await k(['get', 'crd', 'stages.kwok.x-k8s.io'])).exitCode, 1, 'nothing was applied');

    const r = await kwokts(box, ['deploy', '--kubeconfig', box.kubeconfig, '--context', `kwok-${NAME}`, '--no-stages']);
    assert.equal(r.exitCode, 0, failure(r));
    assert.match(r.stdout, /^customresourcedefinition\.apiextensions\.k8s\.io\/stages\.kwok\.x-k8s\.io serverside-applied$/m);
    assert.match(r.stdout, /^deployment\.apps\/kwok-controller serverside-applied$/m);
    assert.equal(r.stdout.trim().split('\n').length, 10, r.stdout);
    // Applying twice is harmless.
    assert.equal((await kwokts(box, ['deploy', '--kubeconfig', box.kubeconfig, '--no-stages'])).exitCode, 0);
    // The image cannot run on this machine; the test runs the controller itself, as its Pod would.
    assert.equal((await k(['-n', 'kube-system', 'scale', 'deployment', 'kwok-controller', '--replicas=0'])).exitCode, 0);
    assert.equal((await k(['get', 'stages', '-o', 'name'])).stdout.trim(), '', 'no stages yet');

    const printed = await kwokts(box, ['deploy', '-o', 'yaml', '--no-stages']);
    const objects = parseAllDocuments(printed.stdout).map((d) => d.toJS() as Record<string, any>);
    const container = objects.find((o) => o['kind'] === 'Deployment')!['spec']['template']['spec']['containers'][0];
    deploymentArgs = container['args'] as string[];
    deploymentEnv = Object.fromEntries((container['env'] as Array<{ name: string; value?: string }>).filter((e) => e.value !== undefined).map((e) => [e.name, e.value!]));
    assert.equal(deploymentEnv['KWOKTS_CLIENT_CA_FILE'], `${serviceAccountDir}/ca.crt`, "the cluster CA signs the callers' certificates");
    assert.ok(deploymentArgs.includes('--leader-elect=true'));

    // What the controller needs...
    for (const check of [
      ['watch', 'nodes'],
      ['patch', 'nodes', '--subresource=status'],
      ['delete', 'pods', '-n', 'default'],
      ['patch', 'pods', '--subresource=status', '-A'],
      ['create', 'events', '-n', 'default'],
      ['list', 'stages.kwok.x-k8s.io'],
      ['update', 'leases', '-n', 'kube-node-lease'],
      ['create', 'leases', '-n', 'kube-system'],
      ['update', 'leases/kwok-controller', '-n', 'kube-system'],
      ['get', 'configmaps/kwok-provider-config', '-n', 'default'],
      ['watch', 'configmaps/kwok-provider-templates', '-n', 'kube-system'],
      ['create', 'tokenreviews.authentication.k8s.io'],
      ['create', 'subjectaccessreviews.authorization.k8s.io'],
    ]) {
      assert.equal(await canI(...check), 'yes', `can ${check.join(' ')}`);
    }
    // ...and nothing more.
    for (const check of [
      ['create', 'pods', '-n', 'default'],
      ['get', 'secrets', '-n', 'kube-system'],
      ['delete', 'nodes'],
      ['patch', 'nodes'],
      ['update', 'leases', '-n', 'default'],
      ['update', 'leases/kube-scheduler', '-n', 'kube-system'],
      ['create', 'stages.kwok.x-k8s.io'],
      ['create', 'clusterrolebindings'],
      ['list', 'configmaps', '-n', 'default'],
      ['get', 'configmaps/kube-root-ca.crt', '-n', 'default'],
    ]) {
      assert.equal(await canI(...check), 'no', `cannot ${check.join(' ')}`);
    }

    // The Pod's service-account directory, with a real token of that ServiceAccount.
    const token = await k(['-n', 'kube-system', 'create', 'token', 'kwok-controller', '--duration=2h']);
    assert.equal(token.exitCode, 0, failure(token));
    const dir = join(secrets, serviceAccountDir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'token'), token.stdout, { mode: 0o600 });
    serviceAccountToken = token.stdout.trim();
    copyFileSync(join(box.workdir, 'clusters', NAME, 'pki', 'ca.crt'), join(dir, 'ca.crt'));
    writeFileSync(join(dir, 'namespace'), 'kube-system');
    // The token itself works for what the rules grant and is refused the rest.
    const ca = readFileSync(join(dir, 'ca.crt'));
    const status = (path: string): Promise<number> =>
      new Promise((resolve, reject) => {
        https
          .get({ host: '127.0.0.1', port: apiserverPort, path, ca, headers: { Authorization: `Bearer ${token.stdout.trim()}` } }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
          .on('error', reject);
      });
    assert.equal(await status('/api/v1/nodes'), 200);
    assert.equal(await status('/apis/kwok.x-k8s.io/v1alpha1/stages'), 200);
    assert.equal(await status('/api/v1/namespaces/kube-system/secrets'), 403);
    assert.equal(await status('/api/v1/namespaces/kube-system/configmaps'), 403);
  });

  test('seed 001: a Node and pods made before the controller and the stages come up once they are applied', async () => {
    assert.equal((await k(['apply', '-f', '-'], NODE)).exitCode, 0);
    assert.equal((await k(['apply', '-f', '-'], deployment(3))).exitCode, 0);

    const a = startController('a');
    await waitFor('controller a to lead', async () => (await leaderHolder()) === 'a', 30_000, 500);
    assert.match(a.log(), /kubeconfig: in-cluster service account \(https:\/\/127\.0\.0\.1:\d+\)/);
    // Without stages the controller has nothing to play: the node stays NotReady (seed 001's report).
    await new Promise((r) => setTimeout(r, 3_000));
    assert.notEqual(await jsonpath(['get', 'node', 'kwok-node-0'], '{.status.conditions[?(@.type=="Ready")].status}'), 'True');

    // The seed's second step: apply stage-fast.yaml, as shipped.
    const applied = await k(['apply', '-f', join(ROOT, 'templates', 'deploy', 'stage-fast.yaml')]);
    assert.equal(applied.exitCode, 0, failure(applied));
    await waitFor('node Ready', async () => (await jsonpath(['get', 'node', 'kwok-node-0'], '{.status.conditions[?(@.type=="Ready")].status}')) === 'True', 30_000, 500);
    await waitFor('3 pods Running', async () => {
      const phases = (await jsonpath(['get', 'pods', '-l', 'app=fake-pod'], '{.items[*].status.phase}')).split(' ').filter(Boolean);
      return phases.length === 3 && phases.every((p) => p === 'Running');
    }, 60_000, 500);
    assert.equal(await nodeLeaseHolder(), 'a', 'the leader holds the node lease');
    assert.doesNotMatch(a.log(), /forbidden/i, 'the ServiceAccount allowed everything the controller did');
  });

  test('leader election: the standby waits; SIGKILL on the leader hands over within a lease period; IPs stay distinct', async () => {
    const a = controllers.find((c) => c.id === 'a')!;
    const b = startController('b');
    await waitFor('b to stand by', () => /held by a; standing by/.test(b.log()), 30_000, 250);
    const port = Number(/serving \/healthz[^\n]* on 127\.0\.0\.1:(\d+)/.exec(b.log())?.[1]);
    assert.equal(await (await fetch(`http://127.0.0.1:${port}/healthz`)).text(), 'ok', "the standby's probes pass");
    // Its kubelet endpoints and metrics: HTTPS with a certificate it made (the Deployment names
    // none), callers checked against the cluster CA or by the apiserver (a token, an access review).
    const pki = join(box.workdir, 'clusters', NAME, 'pki');
    assert.equal((await fetch(`http://127.0.0.1:${port}/metrics`)).status, 401, 'plain HTTP');
    assert.equal(await insecureHttpsStatus(port, '/metrics'), 401, 'no credentials');
    assert.equal(await insecureHttpsStatus(port, '/metrics', { cert: join(pki, 'admin.crt'), key: join(pki, 'admin.key') }), 200, 'system:masters');
    assert.equal(await insecureHttpsStatus(port, '/metrics', undefined, serviceAccountToken), 403, 'a token the apiserver knows, of a ServiceAccount no role lets read /metrics');
    assert.equal(await insecureHttpsStatus(port, '/containerLogs/default/fake-pod/c', undefined, 'not-a-token'), 401, 'a token the apiserver does not know');
    await new Promise((r) => setTimeout(r, 4_000));
    assert.equal(await leaderHolder(), 'a');
    assert.doesNotMatch(b.log(), /started: manage/, 'the standby runs no controllers');

    a.process.kill('SIGKILL');
    const killedAt = Date.now();
    await waitFor('b to take over', async () => (await leaderHolder()) === 'b', LEADER_LEASE_MS + 10_000, 250);
    // acquireTime is written by b (same machine, same clock) when it takes the Lease.
    const acquired = Date.parse(await jsonpath(['-n', 'kube-system', 'get', 'lease', 'kwok-controller'], '{.spec.acquireTime}'));
    const handover = acquired - killedAt;
    process.stderr.write(`leader handover after SIGKILL: ${(handover / 1000).toFixed(1)} s (lease ${LEADER_LEASE_MS / 1000} s, retry 2 s)\n`);
    // b takes over one lease duration after a's last renewal, which came before the kill (the unit
    // tests pin this exactly on a fake clock); the slack is for timers and polls late on a busy machine.
    assert.ok(handover > 0 && handover <= LEADER_LEASE_MS + 2_500, `handover took ${handover} ms`);
    assert.match(b.log(), /acquired lease kube-system\/kwok-controller/);

    // The new leader takes the dead leader's node leases at once (not after their 40 s), then serves new pods.
    assert.match(b.log(), /taking over the node leases of a/);
    assert.equal((await k(['scale', 'deployment', 'fake-pod', '--replicas=8'])).exitCode, 0);
    await waitFor('b to hold the node lease', async () => (await nodeLeaseHolder()) === 'b', 10_000, 250);
    await waitFor('8 pods Running', async () => {
      const phases = (await jsonpath(['get', 'pods', '-l', 'app=fake-pod'], '{.items[*].status.phase}')).split(' ').filter(Boolean);
      return phases.length === 8 && phases.every((p) => p === 'Running');
    }, 60_000, 500);
    process.stderr.write(`5 new pods Running ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the SIGKILL\n`);
    const ips = (await jsonpath(['get', 'pods', '-l', 'app=fake-pod'], '{.items[*].status.podIP}')).split(' ').filter(Boolean);
    assert.equal(ips.length, 8);
    assert.equal(new Set(ips).size, 8, `duplicate pod IPs: ${ips.join(' ')}`);
    assert.doesNotMatch(b.log(), /forbidden/i);
  });

  test('SIGTERM: the leader releases its Lease and exits 0; delete leaves nothing running', async () => {
    const b = controllers.find((c) => c.id === 'b')!;
    b.process.kill('SIGTERM');
    const result = await b.process;
    assert.equal(result.exitCode, 0, b.log());
    assert.match(b.log(), /released lease kube-system\/kwok-controller/);
    assert.equal(await leaderHolder(), '', 'released: a standby could take over at once');

    const pids = recordedPids(box.workdir);
    assert.equal((await kwokts(box, ['--name', NAME, 'delete', 'cluster'])).exitCode, 0);
    assert.deepEqual(pids.filter(isAlive), []);
    for (const c of controllers) assert.ok(c.process.pid === undefined || !isAlive(c.process.pid), `controller ${c.id} is gone`);
  });
});
