/**
 * stop/start keep a cluster's data; create continues a stopped cluster; start restarts a crashed component and only it; get
 * components / get clusters -o wide report what is running; get kubeconfig --user signs an
 * identity RBAC applies to.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { INVOKED_RE, isAlive, isListeningFor, kwokts, recordedPorts, requireBinaries, sandbox, waitFor, type Sandbox, failure } from './harness.js';

const NAME = 'life';
/** Served as a custom resource (--enable-crds), so a create puts it into the cluster once it serves. */
const USAGE = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterResourceUsage
metadata:
  name: life-usage
spec:
  usages:
  - usage:
      cpu:
        value: 1m
`;

function pidOf(box: Sandbox, component: string): number {
  return Number(readFileSync(join(box.workdir, 'clusters', NAME, 'pids', `${component}.pid`), 'utf8').trim());
}

async function ok(box: Sandbox, args: string[], input?: string): Promise<string> {
  const result = await kwokts(box, ['--name', NAME, ...args], input === undefined ? {} : { input });
  assert.equal(result.exitCode, 0, `kwokts ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

function wideRow(text: string): string[] {
  const line = text.split('\n').find((l) => l.startsWith(`${NAME} `));
  assert.ok(line, `no row for ${NAME} in:\n${text}`);
  return line.trim().split(/\s+/);
}

describe('cluster lifecycle', { timeout: 600_000 }, () => {
  let box: Sandbox;
  before(async () => {
    requireBinaries();
    box = sandbox();
    const config = join(box.workdir, '..', 'usage.yaml');
    writeFileSync(config, USAGE);
    await ok(box, ['create', 'cluster', '--enable-crds', 'ClusterResourceUsage', '-c', config, '--wait', '2m']);
  });
  after(async () => {
    await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    box.cleanup();
  });

  test('stop keeps the data, start brings the same cluster back', async () => {
    await ok(box, ['kubectl', 'create', 'configmap', 'keep-me', '--from-literal=answer=42']);
    const pids = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller'].map((c) => pidOf(box, c));
    const stop = await kwokts(box, ['--name', NAME, 'stop', 'cluster']);
    assert.equal(stop.exitCode, 0, failure(stop));
    for (const pid of pids) assert.equal(isAlive(pid), false, `pid ${pid} still alive after stop`);
    for (const port of recordedPorts(box.workdir, NAME)) assert.equal(await isListeningFor(port, box.workdir), false, `port ${port} still open after stop`);
    assert.ok(existsSync(join(box.workdir, 'clusters', NAME, 'etcd')), 'etcd data removed by stop');
    assert.deepEqual(wideRow(await ok(box, ['get', 'clusters', '-o', 'wide'])).slice(1, 3), ['0/5', 'Stopped']);

    const again = await kwokts(box, ['--name', NAME, 'stop', 'cluster']);
    assert.equal(again.exitCode, 0, failure(again));
    assert.match(again.stderr, /already stopped/);

    // A snapshot of a stopped cluster is refused in one line, saying it is stopped, and writes nothing.
    for (const format of ['etcd', 'k8s']) {
      const path = join(box.workdir, '..', `stopped-${format}.snapshot`);
      const saved = await kwokts(box, ['--name', NAME, 'snapshot', 'save', '--format', format, '--path', path]);
      assert.equal(saved.exitCode, 1, failure(saved));
      assert.match(saved.stderr, new RegExp(`^error: snapshot save: cluster ${NAME} is stopped$`, 'm'));
      assert.match(saved.stderr, new RegExp(`^hint: start it with \`${INVOKED_RE} --name ${NAME} start cluster\`$`, 'm'));
      assert.equal(existsSync(path), false);
    }

    await ok(box, ['start', 'cluster', '--wait', '2m']);
    assert.deepEqual(wideRow(await ok(box, ['get', 'clusters', '-o', 'wide'])).slice(1, 3), ['5/5', 'Ready']);
    assert.equal((await ok(box, ['kubectl', 'get', 'configmap', 'keep-me', '-o', 'jsonpath={.data.answer}'])).trim(), '42');
  });

  test('create of a cluster that exists and is not ready continues it, as kwokctl does: started, ready, data kept, its CRDs and objects applied again', async () => {
    assert.equal((await ok(box, ['kubectl', 'get', 'clusterresourceusage', 'life-usage', '-o', 'jsonpath={.spec.usages[0].usage.cpu.value}'])).trim(), '1m');
    // As a create killed before it applied them would leave the cluster.
    await ok(box, ['kubectl', 'delete', 'crd', 'clusterresourceusages.kwok.x-k8s.io', '--wait']);
    await ok(box, ['stop', 'cluster']);
    const created = await kwokts(box, ['--name', NAME, 'create', 'cluster', '--wait', '2m']);
    assert.equal(created.exitCode, 0, failure(created));
    assert.match(created.stderr, /already exists and is not ready yet; continuing it/);
    assert.deepEqual(wideRow(await ok(box, ['get', 'clusters', '-o', 'wide'])).slice(1, 3), ['5/5', 'Ready']);
    assert.equal((await ok(box, ['kubectl', 'get', 'configmap', 'keep-me', '-o', 'jsonpath={.data.answer}'])).trim(), '42');
    assert.equal((await ok(box, ['kubectl', 'get', 'clusterresourceusage', 'life-usage', '-o', 'jsonpath={.spec.usages[0].usage.cpu.value}'])).trim(), '1m');
  });

  test('a crashed component is shown as exited and start restarts only it', async () => {
    const before = Object.fromEntries(['etcd', 'kube-apiserver', 'kube-scheduler', 'kwok-controller'].map((c) => [c, pidOf(box, c)]));
    process.kill(pidOf(box, 'kube-controller-manager'), 'SIGKILL');
    // kwokctl's -o wide says Stopped; -o json tells a crash (exited) from a stop.
    await waitFor('kube-controller-manager reported stopped', async () => /^kube-controller-manager\s+Stopped$/m.test(await ok(box, ['get', 'components', '-o', 'wide'])), 20_000);
    assert.deepEqual(wideRow(await ok(box, ['get', 'clusters', '-o', 'wide'])).slice(1, 3), ['4/5', 'NotReady']);
    const json = JSON.parse(await ok(box, ['get', 'components', '-o', 'json'])) as Array<{ name: string; state: string; ready: boolean }>;
    assert.equal(json.find((c) => c.name === 'kube-controller-manager')?.state, 'exited');
    assert.equal(json.filter((c) => c.ready).length, 4);

    const start = await kwokts(box, ['--name', NAME, 'start', 'cluster', '--wait', '2m']);
    assert.equal(start.exitCode, 0, failure(start));
    assert.match(start.stderr, /restarted crashed kube-controller-manager/);
    for (const [component, pid] of Object.entries(before)) assert.equal(pidOf(box, component), pid, `${component} was restarted needlessly`);
    assert.ok(isAlive(pidOf(box, 'kube-controller-manager')));
    assert.deepEqual(wideRow(await ok(box, ['get', 'clusters', '-o', 'wide'])).slice(1, 3), ['5/5', 'Ready']);

    const noop = await kwokts(box, ['--name', NAME, 'start', 'cluster']);
    assert.equal(noop.exitCode, 0, failure(noop));
    assert.match(noop.stderr, /already running/);
  });

  test('get kubeconfig --user signs an identity that RBAC applies to', async () => {
    const file = join(box.workdir, 'alice.kubeconfig');
    writeFileSync(file, await ok(box, ['get', 'kubeconfig', '--user', 'alice', '--group', 'devs']), { mode: 0o600 });
    const kubectl = (args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> => kwokts(box, ['--name', NAME, 'kubectl', '--kubeconfig', file, ...args]);
    const who = await kubectl(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.groups}']);
    assert.equal(who.exitCode, 0, failure(who));
    assert.match(who.stdout, /^alice \[.*"devs".*\]/);
    const secrets = await kubectl(['get', 'secrets', '-A']);
    assert.notEqual(secrets.exitCode, 0);
    assert.match(secrets.stderr, /Forbidden|forbidden/);
  });

  test('start and stop of a cluster that does not exist', async () => {
    for (const verb of ['start', 'stop']) {
      const result = await kwokts(box, ['--name', 'nope', verb, 'cluster']);
      assert.equal(result.exitCode, 4, `${verb}: ${result.stderr}`);
      assert.match(result.stderr, /cluster nope does not exist/);
    }
  });
});
