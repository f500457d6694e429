/**
 * What kubernetes-sigs/kwok's own e2e suites for the binary runtime (test/e2e/kwokctl/binary and
 * test/kwokctl/kwokctl_binary.test.sh) check, where no other e2e file already guards it, on one
 * real cluster: a config whose ClusterLogs names `./logs.log` (taken from the directory `create
 * cluster` runs in), the explicitly chosen component ports answering their health checks, scaled
 * fake nodes and pods running, `--dry-run export logs` printing kwokctl's transcript, and `kectl`
 * against the cluster's etcd. As in kwok's suite, the
 * controller is given with --kwok-controller-binary: a #! wrapper that execs `kwokts kwok`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { delimiter, join } from 'node:path';
import { availableKectl, BIN, freePort, kwokts, requireBinaries, sandbox, waitFor, watchLines, type CliResult, type Sandbox, failure } from './harness.js';

const NAME = 'kwok-accept';

const CONFIG = `kind: ClusterLogs
apiVersion: kwok.x-k8s.io/v1alpha1
metadata:
  name: cluster-logs-rules
spec:
  logs:
  - logsFile: ./logs.log
    follow: true
`;

const NODE = `apiVersion: v1
kind: Node
metadata:
  name: accept-node
  annotations: {kwok.x-k8s.io/node: fake}
  labels: {type: kwok}
spec:
  taints: [{key: kwok.x-k8s.io/node, value: fake, effect: NoSchedule}]
`;

const POD = `apiVersion: v1
kind: Pod
metadata: {name: pod0, namespace: default}
spec:
  nodeName: accept-node
  tolerations: [{key: kwok.x-k8s.io/node, operator: Exists, effect: NoSchedule}]
  containers: [{name: app, image: fake-image}]
`;

/** GET over https without verifying the serving certificate (the components' self-signed ones). */
function insecureGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port, path, rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const KECTL = availableKectl();

/** PATH without any directory that holds a kectl, so only the cluster's kectlBinary can name one. */
function pathWithoutKectl(): string {
  return (process.env.PATH ?? '').split(delimiter).filter((dir) => dir && !existsSync(join(dir, 'kectl'))).join(delimiter);
}

describe("kwok's own binary-runtime e2e checks", { timeout: 900_000 }, () => {
  let box: Sandbox;
  let cwd = '';
  const ports = { etcd: 0, scheduler: 0, kcm: 0, controller: 0 };

  /** The CLI run from `cwd`, as kwok's suites run kwokctl from their test directory. */
  async function run(args: string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
    const r = await execa(process.execPath, [BIN, '--name', NAME, ...args], {
      cwd,
      env: { ...process.env, ...box.env, ...options.env },
      reject: false,
      timeout: 300_000,
      ...(options.input === undefined ? {} : { input: options.input }),
    });
    return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
  }
  async function ok(args: string[], input?: string): Promise<string> {
    const r = await run(args, input === undefined ? {} : { input });
    assert.equal(r.exitCode, 0, `kwokts ${args.join(' ')} failed:\n${r.stderr}`);
    return r.stdout;
  }

  before(async () => {
    requireBinaries();
    box = sandbox();
    cwd = join(box.workdir, '..', 'suite-dir');
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(cwd, 'kwok-e2e.yaml'), CONFIG);
    // kwokctl's kectlBinary, relative to its config file: `kwokts kectl` runs that kectl later.
    const kectlConfig = KECTL === undefined ? [] : ['-c', join('tools', 'kectl.yaml')];
    if (KECTL !== undefined) {
      mkdirSync(join(cwd, 'tools'), { recursive: true });
      symlinkSync(KECTL, join(cwd, 'tools', 'kectl'));
      writeFileSync(join(cwd, 'tools', 'kectl.yaml'), 'kind: KwokctlConfiguration\napiVersion: config.kwok.x-k8s.io/v1alpha1\noptions:\n  kectlBinary: ./kectl\n');
    }
    ports.etcd = await freePort();
    ports.scheduler = await freePort();
    ports.kcm = await freePort();
    ports.controller = await freePort();
    // kwok's e2e builds its own kwok binary and passes it; ours is the embedded controller behind
    // a wrapper that execs it, so the process never shows the wrapper's path.
    const wrapper = join(cwd, 'kwok');
    writeFileSync(wrapper, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} kwok "$@"\n`);
    chmodSync(wrapper, 0o755);
    // A relative -c path and a relative logsFile, both from the working directory.
    await ok([
      '-c', 'kwok-e2e.yaml', ...kectlConfig, 'create', 'cluster', '--wait', '5m', `--kwok-controller-binary=${wrapper}`,
      `--etcd-port=${ports.etcd}`, `--kube-scheduler-port=${ports.scheduler}`,
      `--kube-controller-manager-port=${ports.kcm}`, `--controller-port=${ports.controller}`,
    ]);
  });
  after(async () => {
    await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    box.cleanup();
  });

  // kwok's testEtcdPort GETs plain http://127.0.0.1:<--etcd-port>/health. etcd here serves TLS with
  // client certificates (a listed difference from kwokctl), so that request must not be answered.
  test('--etcd-port speaks TLS only: kwok\'s plain-HTTP /health gets no health answer (a listed difference)', async () => {
    const status = await fetch(`http://127.0.0.1:${ports.etcd}/health`).then((r) => r.status, () => 0);
    assert.notEqual(status, 200);
  });

  test('the ports given on the command line answer health checks (scheduler, controller-manager, kwok controller)', async () => {
    for (const port of [ports.scheduler, ports.kcm]) {
      await waitFor(`https://127.0.0.1:${port}/healthz ok`, async () => {
        const r = await insecureGet(port, '/healthz').catch(() => ({ status: 0, body: '' }));
        return r.status === 200 && r.body === 'ok';
      }, 120_000, 500);
    }
    const controller = await fetch(`http://127.0.0.1:${ports.controller}/healthz`);
    assert.equal(controller.status, 200);
    assert.equal(await controller.text(), 'ok');
  });

  test('the kwok controller runs from --kwok-controller-binary and counts as running', async () => {
    assert.match(await ok(['get', 'components', '-o', 'wide']), /^kwok-controller\s+Ready\b/m);
    assert.match(await ok(['get', 'clusters', '-o', 'wide']), new RegExp(`^${NAME}\\s+\\S+\\s+Ready$`, 'm'));
  });

  // kwok's TestDryrunExportLogs compares this transcript with its golden file line for line.
  test("--dry-run export logs prints kwokctl's lines and nothing else", async () => {
    const root = join(box.workdir, 'clusters', NAME);
    const out = join(root, 'export', 'logs');
    const components = (JSON.parse(await ok(['get', 'components', '-o', 'json'])) as Array<{ name: string }>).map((c) => c.name);
    assert.deepEqual(components.slice(0, 5), ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller']);
    const arch = process.arch === 'x64' ? 'amd64' : process.arch;
    assert.deepEqual((await ok(['--dry-run', 'export', 'logs'])).trimEnd().split('\n'), [
      `mkdir -p ${out}`,
      `cp ${join(root, 'kwok.yaml')} ${join(out, 'kwok.yaml')}`,
      `mkdir -p ${join(out, 'components')}`,
      `echo ${process.platform}/${arch} >${join(out, 'binary-info.txt')}`,
      ...components.map((c) => `cp ${join(root, 'logs', `${c}.log`)} ${join(out, 'components', `${c}.log`)}`),
    ]);
    assert.ok(!existsSync(join(root, 'export')), 'a dry run writes nothing');
  });

  test('etcdctl reads the default namespace key', async () => {
    assert.match(await ok(['etcdctl', 'get', '/registry/namespaces/default', '--keys-only']), /\/registry\/namespaces\/default/);
  });

  test('scale node fake-node and scale pod fake-pod give a Running pod', async () => {
    await ok(['scale', 'node', 'fake-node', '--replicas=1']);
    await ok(['scale', 'pod', 'fake-pod', '--replicas=1']);
    await waitFor('a Running pod', async () => /Running/.test((await run(['kubectl', 'get', 'pod'])).stdout), 120_000, 500);
  });

  test('kubectl logs -f follows ./logs.log of the directory create ran in', async () => {
    await ok(['kubectl', 'apply', '-f', '-'], NODE);
    await waitFor('node Ready', async () => (await run(['kubectl', 'get', 'node', 'accept-node', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'])).stdout === 'True', 120_000, 500);
    await ok(['kubectl', 'apply', '-f', '-'], POD);
    await waitFor('pod0 Running', async () => (await run(['kubectl', 'get', 'pod', 'pod0', '-o', 'jsonpath={.status.phase}'])).stdout === 'Running', 120_000, 500);
    const logFile = join(cwd, 'logs.log');
    writeFileSync(logFile, '');
    const following = execa(process.execPath, [BIN, '--name', NAME, 'kubectl', 'logs', '-f', 'pod0'], { cwd: '/', env: { ...process.env, ...box.env }, reject: false });
    let out = '';
    following.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    try {
      // CRI lines, as kwok's test writes them; kubectl shows only the text.
      writeFileSync(logFile, ['1', '2', '3'].map((n) => `2016-10-06T00:00:00Z stdout F log content ${n}\n`).join(''));
      const want = 'log content 1\nlog content 2\nlog content 3\n';
      await waitFor('the three lines', () => out === want, 60_000, 200);
    } finally {
      following.kill('SIGTERM');
      await following;
    }
  });

  test('kectl that cannot be found: a preflight error that says how to get one', async () => {
    // KWOK_KECTL_BINARY wins over the cluster's kectlBinary; a bare name is looked up on PATH.
    const r = await run(['kectl', 'get', 'no'], { env: { PATH: '/nonexistent-dir', KWOK_KECTL_BINARY: 'kectl' } });
    assert.equal(r.exitCode, 3, r.stderr);
    assert.match(r.stderr, /kectl was not found: KWOK_KECTL_BINARY names "kectl", which is not on PATH/);
    assert.match(r.stderr, /go install github\.com\/kwok-ci\/kectl/);
  });

  test("kectl get / delete / put round-trips a node through etcd, with the kectl the cluster's config names", { skip: KECTL === undefined ? 'no kectl (bash test/setup-prerequisites.sh builds one; or set KWOK_KECTL_BINARY or put kectl on PATH)' : false }, async () => {
    // kwok's CaseHack creates its node and waits for it to be Ready first. Until the node has
    // settled, kube-controller-manager still writes it (the not-ready taint, added then removed,
    // and the TTL annotation), and one such write between the two gets is a difference that says
    // nothing about kectl. The watch starts once the node exists (a named get of a missing node
    // fails) and shows its state then and every change after, so the settled state is seen
    // however late it comes on a loaded machine.
    //
    // kube-controller-manager's node lifecycle controller takes the not-ready taint off in one
    // pass per node event and does not retry a pass that failed (its "TODO: add nodeName back to
    // the queue"); the next event is the heartbeat, ten minutes on. A failed pass (once in
    // CI) left the taint on for good. So once the node is Ready, a label is written: one more
    // event, one more pass, whose outcome the watch waits for.
    // A timeout says what kube-controller-manager logged about the node, so a CI failure can be read.
    const withLifecycleLog = (error: Error): never => {
      const log = join(box.workdir, 'clusters', NAME, 'logs', 'kube-controller-manager.log');
      const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((l) => /hack-node|aint/.test(l)).slice(-20) : [];
      throw new Error(`${error.message}\nkube-controller-manager on hack-node and taints:\n${lines.join('\n')}`);
    };
    await ok(['kubectl', 'apply', '-f', '-'], NODE.replace('accept-node', 'hack-node'));
    const watch = watchLines(box, ['--name', NAME, 'kubectl', 'get', 'node', 'hack-node', '--watch', '-o',
      'jsonpath={.status.conditions[?(@.type=="Ready")].status} {.metadata.annotations.node\\.alpha\\.kubernetes\\.io/ttl} {.metadata.labels.settle} {.spec.taints[*].key}{"\\n"}']);
    const settled = /^True \d+ 1 kwok\.x-k8s\.io\/node$/;
    try {
      await watch.until('hack-node Ready, with the TTL annotation', (line) => /^True \d+ /.test(line)).catch(withLifecycleLog);
      await ok(['kubectl', 'label', 'node', 'hack-node', 'settle=1']);
      await watch.until('hack-node labelled, with no not-ready taint', (line) => settled.test(line)).catch(withLifecycleLog);
    } finally {
      await watch.stop();
    }
    const env = { KWOK_KECTL_BINARY: '', PATH: pathWithoutKectl() };
    const get = async (): Promise<CliResult> => run(['kectl', 'get', 'no', 'hack-node', '-o', 'yaml'], { env });
    const before = await get();
    assert.equal(before.exitCode, 0, failure(before));
    assert.match(before.stdout, /name: hack-node/);
    const deleted = await run(['kectl', 'delete', 'no', 'hack-node'], { env });
    assert.equal(deleted.exitCode, 0, failure(deleted));
    assert.equal(deleted.stdout.trim(), '/registry/minions/hack-node');
    const put = await run(['kectl', 'put', 'no', 'hack-node', '--path', '-'], { env, input: before.stdout });
    assert.equal(put.exitCode, 0, failure(put));
    const after = await get();
    assert.equal(after.stdout, before.stdout);
  });
});
