/**
 * The cluster record in kwokctl's format: ours is readable by kwokctl (its fields and pid files),
 * and a record kwokctl wrote (a hand-written fixture in its format; CI has no kwokctl) is listed,
 * stopped, started and deleted by kwokts.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { clusterPaths, processName } from '../../../src/naming/naming.js';
import { assertManageable, listClusterNames, loadCluster, parseRecord, renderRecord, type ClusterRecord } from '../../../src/cluster/record.js';
import { deleteCluster } from '../../../src/cluster/delete.js';
import { startCluster, stopCluster } from '../../../src/cluster/lifecycle.js';
import { summarizeCluster } from '../../../src/cluster/summary.js';
import { RealExecutor } from '../../../src/exec/real-executor.js';
import { isProcessAlive } from '../../../src/exec/process.js';
import { PreflightError } from '../../../src/util/errors.js';
import { silentLogger } from '../../../src/util/log.js';
import { sampleSpec } from '../components/sample-spec.js';
import { buildComponents } from '../../../src/components/index.js';

const FIXTURE = readFileSync(join(import.meta.dirname, 'fixtures', 'kwokctl-record.yaml'), 'utf8');

test("kwokctl's executable-named pid files: the file name without extension", () => {
  assert.equal(processName('kube-apiserver', '/cache/v1.36.1/kube-apiserver'), 'kube-apiserver');
  assert.equal(processName('kwok-controller', '/pkg/bin/kwok-controller.js'), 'kwok-controller');
  assert.equal(processName('kwok-controller', '/w/bin/kwok'), 'kwok');
  assert.equal(processName('mine', undefined), 'mine');
});

describe('our record, as kwokctl reads it', () => {
  const root = '/w/clusters/c1';
  const components = buildComponents(sampleSpec(), [], []);
  const record: ClusterRecord = {
    name: 'c1',
    runtime: 'binary',
    options: { runtime: 'binary', kubeApiserverBinary: '' } as ClusterRecord['options'],
    componentsPatches: [],
    components,
    programs: { 'kube-apiserver': '/cache/kube-apiserver', etcd: '/cache/etcd', 'kube-controller-manager': '/cache/kcm', 'kube-scheduler': '/cache/ks', kubectl: '/cache/kubectl' },
    kwokDocuments: [{ kind: 'Stage', apiVersion: 'kwok.x-k8s.io/v1alpha1', metadata: { name: 's' } }],
    version: '0.1.0',
  };
  const text = renderRecord(record, root);
  const head = parse(text.split(/^---$/m)[0]!) as Record<string, any>;

  test("components carry kwokctl's fields: binary, args, workDir, envs", () => {
    const apiserver = head.components.find((c: { name: string }) => c.name === 'kube-apiserver');
    assert.equal(apiserver.binary, '/cache/kube-apiserver');
    assert.equal(apiserver.workDir, root);
    assert.deepEqual(apiserver.envs, []);
    assert.ok(Array.isArray(apiserver.args) && apiserver.args.length > 0);
    const controller = head.components.find((c: { name: string }) => c.name === 'kwok-controller');
    assert.equal(controller.binary, '/pkg/bin/kwok-controller.js');
  });

  test('a status.version kwokctl parses (kwokts- prefixes made it refuse the cluster), binaries in options', () => {
    assert.equal(head.status.version, '0.8.0');
    assert.equal(head.status.kwoktsVersion, '0.1.0');
    assert.equal(head.options.kubeApiserverBinary, '/cache/kube-apiserver');
    assert.equal(head.options.kubectlBinary, '/cache/kubectl');
    assert.equal(head.options.kwokControllerBinary, '/pkg/bin/kwok-controller.js');
  });

  test('reading it back gives the same components', () => {
    const back = parseRecord('c1', text, 'kwok.yaml');
    assert.equal(back.foreign, undefined);
    assert.equal(back.version, '0.1.0');
    const norm = (cs: readonly unknown[]): unknown => JSON.parse(JSON.stringify(cs.map((c) => ({ ...(c as object), workDir: undefined }))));
    assert.deepEqual(norm(back.components), norm(components));
    assert.deepEqual(back.kwokDocuments, record.kwokDocuments);
  });
});

describe("kwokctl's record: parsed", () => {
  test('components from binary/args/envs/workDir, ready while running (no probes), foreign', () => {
    const record = parseRecord('kwok', FIXTURE.replaceAll('<ROOT>', '/r').replaceAll('<BIN>', '/b'), 'kwok.yaml');
    assert.equal(record.foreign, true);
    assert.equal(record.runtime, 'binary');
    assert.deepEqual(record.components.map((c) => c.name), ['etcd', 'kube-apiserver']);
    const etcd = record.components[0]!;
    assert.deepEqual(etcd.program, { path: '/b/etcd' });
    assert.deepEqual(etcd.env, { STAND_IN: 'etcd' });
    assert.equal(etcd.workDir, '/r');
    assert.equal(etcd.probe, undefined);
    assert.deepEqual(record.components[1]!.links, ['etcd']);
    assert.equal(record.kwokDocuments.length, 1);
  });

  test("health endpoints from kwokctl's port names, so start waits until the cluster answers", () => {
    const withPorts = FIXTURE.replace('  envs:\n  - name: STAND_IN', '  ports:\n  - name: http\n    port: 32765\n  envs:\n  - name: STAND_IN').replace(
      '  - --etcd-servers=http://127.0.0.1:32765\n',
      '  - --etcd-servers=http://127.0.0.1:32765\n  ports:\n  - name: https\n    port: 32766\n',
    );
    const [etcd, apiserver] = parseRecord('kwok', withPorts, 'kwok.yaml').components;
    assert.deepEqual(etcd!.probe, { scheme: 'http', port: 32765, path: '/health', clientCert: false });
    assert.deepEqual(apiserver!.probe, { scheme: 'https', port: 32766, path: '/healthz', clientCert: true });
  });

  test('a kwokctl cluster in containers is refused with one clear error, not half managed', () => {
    const record = parseRecord('kwok', FIXTURE.replace('runtime: binary', 'runtime: docker'), 'kwok.yaml');
    assert.throws(() => assertManageable(record), (e: unknown) => e instanceof PreflightError && /made by kwokctl with the docker runtime/.test(e.message));
  });
});

describe("kwokctl's cluster: listed, stopped, started and deleted by kwokts", () => {
  let dir: string;
  let workdir: string;
  let root: string;
  let bin: string;
  const pidOf = (name: string): number => Number(readFileSync(join(root, 'pids', `${name}.pid`), 'utf8'));

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kwokts-record-'));
    workdir = join(dir, 'workdir');
    root = clusterPaths(workdir, 'kwok').root;
    bin = join(dir, 'bin');
    for (const d of [bin, join(root, 'pids'), join(root, 'logs')]) mkdirSync(d, { recursive: true });
    // Stand-in executables that run until killed (their path is in their command line, as a binary's is).
    for (const name of ['etcd', 'kube-apiserver']) {
      writeFileSync(join(bin, name), `#!${process.execPath}\nprocess.on('SIGTERM', () => process.exit(0));\nsetInterval(() => {}, 1000);\n`);
      chmodSync(join(bin, name), 0o755);
    }
    writeFileSync(join(root, 'kwok.yaml'), FIXTURE.replaceAll('<ROOT>', root).replaceAll('<BIN>', bin));
    // Running as kwokctl leaves it: processes whose pids are in pids/<executable>.pid, no newline.
    for (const name of ['etcd', 'kube-apiserver']) {
      const child = spawn(join(bin, name), [], { detached: true, stdio: 'ignore' });
      child.unref();
      writeFileSync(join(root, 'pids', `${name}.pid`), String(child.pid));
    }
  });
  after(() => {
    for (const name of ['etcd', 'kube-apiserver']) {
      try {
        process.kill(pidOf(name), 'SIGKILL');
      } catch {
        /* gone or never written */
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const options = () => ({ name: 'kwok', workdir, executor: new RealExecutor(silentLogger), logger: silentLogger });

  test('listed and Ready, 2/2', async () => {
    assert.deepEqual(listClusterNames(workdir), ['kwok']);
    const summary = await summarizeCluster(workdir, 'kwok');
    assert.deepEqual([summary.status, summary.ready, summary.total], ['Ready', 2, 2]);
  });

  test('stopped: processes gone, pid files removed', async () => {
    const pids = ['etcd', 'kube-apiserver'].map(pidOf);
    const { stopped } = await stopCluster(options());
    assert.deepEqual([...stopped].sort(), ['etcd', 'kube-apiserver']);
    for (const pid of pids) assert.equal(await isProcessAlive(pid), false);
    assert.equal(existsSync(join(root, 'pids', 'etcd.pid')), false);
    assert.equal((await summarizeCluster(workdir, 'kwok')).status, 'Stopped');
  });

  test("started: from kwokctl's binary, args and envs, pid files as kwokctl reads them", async () => {
    const result = await startCluster({ ...options(), waitMs: 60_000 });
    assert.deepEqual([...result.started].sort(), ['etcd', 'kube-apiserver']);
    const text = readFileSync(join(root, 'pids', 'etcd.pid'), 'utf8');
    assert.match(text, /^\d+$/, 'kwokctl parses the whole file as a number');
    assert.equal(await isProcessAlive(Number(text), join(bin, 'etcd')), true);
    const environ = readFileSync(`/proc/${text}/environ`, 'utf8').split('\0');
    assert.ok(environ.includes('STAND_IN=etcd'), 'envs reach the process');
    assert.equal((await summarizeCluster(workdir, 'kwok')).status, 'Ready');
    assert.equal((await loadCluster(workdir, 'kwok')).record.foreign, true);
  });

  test('deleted: processes gone and the directory with them', async () => {
    const pids = ['etcd', 'kube-apiserver'].map(pidOf);
    assert.equal(await deleteCluster({ ...options(), kubeconfig: '' }), 'deleted');
    for (const pid of pids) assert.equal(await isProcessAlive(pid), false);
    assert.equal(existsSync(root), false);
    assert.equal(await deleteCluster({ ...options(), kubeconfig: '' }), 'absent');
  });
});
