/**
 * `kwokts kubectl logs` on fake pods, end to end: kube-apiserver asks the kwok controller's
 * kubelet endpoint, which answers from the files named by ClusterLogs/Logs, given in the
 * cluster's config or (with --enable-crds) as custom resources applied with kubectl.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kwokts, oneLinePerCommand, requireBinaries, sandbox, spawnKwokts, waitFor, type Sandbox, failure } from './harness.js';
import { NODE } from '../fixtures/seed-objects.js';

function pod(name: string, namespace = 'default'): string {
  return `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  nodeName: kwok-node-0
  tolerations: [{key: kwok.x-k8s.io/node, operator: Exists, effect: NoSchedule}]
  containers: [{name: app, image: fake-image}]
`;
}

const LINES = 'first line\nsecond line\nthird line\n';

describe('kubectl logs for fake pods', { timeout: 600_000 }, () => {
  let box: Sandbox;
  let logDir = '';
  let appLog = '';
  let cluster = '';
  const k = (args: string[], input?: string) => kwokts(box, ['--name', cluster, 'kubectl', ...args], input === undefined ? {} : { input });

  async function runningPod(name: string, namespace = 'default'): Promise<void> {
    assert.equal((await k(['apply', '-f', '-'], pod(name, namespace))).exitCode, 0);
    await waitFor(`pod ${namespace}/${name} Running`, async () => (await k(['get', 'pod', '-n', namespace, name, '-o', 'jsonpath={.status.phase}'])).stdout === 'Running', 60_000, 500);
  }

  async function create(name: string, config: string, flags: string[] = []): Promise<void> {
    cluster = name;
    const created = await kwokts(box, ['--name', name, '-c', config, 'create', 'cluster', '--wait', '2m', ...flags]);
    assert.equal(created.exitCode, 0, failure(created));
    assert.equal((await k(['apply', '-f', '-'], NODE)).exitCode, 0);
    // node-initialize writes the addresses and kubelet port the apiserver dials for logs.
    await waitFor('node Ready', async () => (await k(['get', 'node', 'kwok-node-0', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'])).stdout === 'True', 30_000);
  }

  before(() => {
    requireBinaries();
    box = sandbox();
    logDir = join(box.workdir, '..', 'fake-logs');
    mkdirSync(logDir, { recursive: true });
    appLog = join(logDir, 'app.log');
    writeFileSync(appLog, LINES);
  });
  after(async () => {
    for (const name of ['logs', 'logs-crd']) await kwokts(box, ['--name', name, 'delete', 'cluster']);
    box.cleanup();
  });

  describe('ClusterLogs from the cluster config', () => {
    before(async () => {
      const config = join(box.workdir, '..', 'cluster-logs.yaml');
      writeFileSync(config, `apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterLogs
metadata: {name: default-namespace}
spec:
  selector: {matchNamespaces: [default]}
  logs:
  - logsFile: ${appLog}
    follow: true
`);
      await create('logs', config);
      await runningPod('web-0');
    });
    after(async () => {
      await kwokts(box, ['--name', 'logs', 'delete', 'cluster']);
    });

    test('the ClusterLogs reached the controller config', () => {
      const kwokYaml = readFileSync(join(box.workdir, 'clusters', 'logs', 'kwok.yaml'), 'utf8');
      assert.match(kwokYaml, /kind: ClusterLogs/);
    });

    test('kubectl logs prints the file; --tail=1 its last line', async () => {
      const all = await k(['logs', 'web-0']);
      assert.equal(all.exitCode, 0, failure(all));
      // The harness drops the output's final newline, as a shell's $(...) would.
      assert.equal(all.stdout, LINES.trimEnd());
      const tail = await k(['logs', 'web-0', '--tail=1']);
      assert.equal(tail.exitCode, 0, failure(tail));
      assert.equal(tail.stdout, 'third line');
    });

    test('kubectl logs -f shows a line appended after it started', async () => {
      const following = spawnKwokts(box, ['--name', 'logs', 'kubectl', 'logs', '-f', 'web-0']);
      let out = '';
      following.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      try {
        await waitFor('the existing lines', () => out === LINES, 30_000, 100);
        appendFileSync(appLog, 'appended while following\n');
        await waitFor('the appended line', () => out === `${LINES}appended while following\n`, 30_000, 100);
        assert.equal(following.exitCode, null, 'still following');
      } finally {
        following.kill('SIGTERM');
        await following;
      }
    });

    test('a pod no Logs or ClusterLogs matches: an error and a non-zero exit', async () => {
      assert.equal((await k(['create', 'namespace', 'other'])).exitCode, 0);
      await runningPod('stray', 'other');
      const r = await k(['logs', '-n', 'other', 'stray']);
      assert.notEqual(r.exitCode, 0);
      assert.match(r.stderr, /no logs found for container "app" in pod "other\/stray"/);
      assert.equal(r.stdout, '');
    });
  });

  describe('--enable-crds=Stage,Logs: Logs objects applied with kubectl', () => {
    before(async () => {
      // A Logs document in the config becomes a custom resource, not controller config.
      const configLog = join(logDir, 'from-config.log');
      writeFileSync(configLog, LINES);
      const config = join(box.workdir, '..', 'logs-crd.yaml');
      writeFileSync(config, `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Logs
metadata: {name: from-config, namespace: default}
spec:
  logs:
  - containers: [app]
    logsFile: ${configLog}
`);
      await create('logs-crd', config, ['--enable-crds=Stage,Logs']);
    });

    test('the CRD is served; the config object was created in the cluster instead of written to kwok.yaml', async () => {
      const listed = await k(['get', 'logs', '-A', '-o', 'name']);
      assert.equal(listed.exitCode, 0, failure(listed));
      assert.equal(listed.stdout.trim(), 'logs.kwok.x-k8s.io/from-config');
      assert.doesNotMatch(readFileSync(join(box.workdir, 'clusters', 'logs-crd', 'kwok.yaml'), 'utf8'), /kind: Logs/);
      const components = readFileSync(join(box.workdir, 'clusters', 'logs-crd', 'kwok.yaml'), 'utf8');
      assert.match(components, /--enable-crds=Stage,Logs/);
      // Installed in one go with the Stage CRD, whose default stages made the node Ready.
      assert.match((await k(['get', 'stages', '-o', 'name'])).stdout, /^stage\.kwok\.x-k8s\.io\/node-initialize$/m);
    });

    test('a Logs object applied at run time answers kubectl logs for its pod', async () => {
      const other = join(logDir, 'crd.log');
      writeFileSync(other, 'served from a custom resource\n');
      await runningPod('crd-pod');
      const before = await k(['logs', 'crd-pod']);
      assert.notEqual(before.exitCode, 0, 'nothing configures it yet');
      const applied = await k(['apply', '-f', '-'], `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Logs
metadata: {name: crd-pod, namespace: default}
spec:
  logs:
  - logsFile: ${other}
`);
      assert.equal(applied.exitCode, 0, failure(applied));
      await waitFor('logs from the custom resource', async () => (await k(['logs', 'crd-pod'])).stdout === 'served from a custom resource', 30_000, 500);
      await runningPod('from-config');
      const fromConfig = await k(['logs', 'from-config']);
      assert.equal(fromConfig.stdout, LINES.trimEnd(), fromConfig.stderr);
    });

    test('a misspelt field is refused by the API server', async () => {
      const r = await k(['apply', '-f', '-'], `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Logs
metadata: {name: typo, namespace: default}
spec:
  logs:
  - logFile: /nope
`);
      assert.notEqual(r.exitCode, 0);
      assert.match(r.stderr, /unknown field "spec\.logs\[0\]\.logFile"/);
    });
  });

  test('container runtimes mount each log directory read-only into the controller (dry-run)', async () => {
    const config = join(box.workdir, '..', 'dry-run-logs.yaml');
    writeFileSync(config, `kind: ClusterLogs
metadata: {name: all}
spec:
  logs:
  - logsFile: ${appLog}
    previousLogsFile: /var/tmp/kwok-previous/app.log
`);
    const r = await kwokts(box, ['--name', 'dry', '-c', config, 'create', 'cluster', '--runtime', 'docker', '--dry-run']);
    assert.equal(r.exitCode, 0, failure(r));
    const controller = oneLinePerCommand(r.stdout).split('\n').find((l) => l.startsWith('docker create ') && l.includes('--name=kwok-dry-kwok-controller'));
    assert.ok(controller, r.stdout);
    assert.ok(controller.includes(` --volume=${logDir}:${logDir}:ro `), controller);
    assert.ok(controller.includes(' --volume=/var/tmp/kwok-previous:/var/tmp/kwok-previous:ro '), controller);
    const apiserver = oneLinePerCommand(r.stdout).split('\n').find((l) => l.startsWith('docker create ') && l.includes('--name=kwok-dry-kube-apiserver'));
    assert.ok(apiserver && !apiserver.includes(logDir), 'only the controller sees the log files');
    assert.match(controller, /--node-name=kwok-dry-kwok-controller/);
  });
});
