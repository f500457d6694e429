/**
 * port-forward on a real binary-runtime cluster (an HTTPS request with the cluster's admin
 * certificate through the tunnel to the apiserver, etcd's metrics over plain HTTP and its client port
 * with etcd's client certificate, Ctrl-C and SIGTERM
 * end it with exit 0 and free the port), the bad inputs, dry-run for the container and kind
 * runtimes, and `config convert` (print, -w in place, errors).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { parse } from 'yaml';
import { freePort, isAlive, isListening, kwokts, recordedPids, requireBinaries, sandbox, spawnKwokts, waitFor, type CliResult, type Sandbox, failure } from './harness.js';

const NAME = 'pf';

interface Forward {
  port: number;
  stop(signal: 'SIGINT' | 'SIGTERM'): Promise<CliResult>;
}

/** Start `port-forward`, wait for its "Forwarding from" line and return the local port it printed. */
async function forward(box: Sandbox, args: string[]): Promise<Forward> {
  const child = spawnKwokts(box, ['--name', NAME, 'port-forward', ...args]);
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  let exited = false;
  void child.then(() => (exited = true));
  await waitFor(`port-forward ${args.join(' ')} to listen (stderr: ${err})`, () => exited || /Forwarding from 127\.0\.0\.1:\d+/.test(out), 30_000);
  const match = /Forwarding from 127\.0\.0\.1:(\d+) -> /.exec(out);
  assert.ok(match, `no "Forwarding from" line; stdout: ${out}; stderr: ${err}`);
  return {
    port: Number(match[1]),
    stop: async (signal) => {
      child.kill(signal);
      const result = await child;
      return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
    },
  };
}

/** GET with the admin's certificate (apiserver) or with etcd's CA and the host's etcd client certificate. */
function httpsGet(box: Sandbox, port: number, path: string, to: 'apiserver' | 'etcd' = 'apiserver'): Promise<{ status: number; body: string }> {
  const pki = join(box.workdir, 'clusters', NAME, 'pki');
  const files = to === 'etcd' ? ['etcd/ca.crt', 'etcd/healthcheck-client.crt', 'etcd/healthcheck-client.key'] : ['ca.crt', 'admin.crt', 'admin.key'];
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        ca: readFileSync(join(pki, files[0]!)),
        cert: readFileSync(join(pki, files[1]!)),
        key: readFileSync(join(pki, files[2]!)),
        servername: 'localhost',
        timeout: 10_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

function oneError(result: CliResult): string {
  const errors = result.stderr.split('\n').filter((l) => l.startsWith('error:'));
  assert.equal(errors.length, 1, `exactly one error line in:\n${result.stderr}`);
  assert.match(result.stderr, /^hint: /m, `a hint in:\n${result.stderr}`);
  return errors[0]!;
}

/** The cluster's record as another runtime's, so dry-run shows that runtime's tunnel (no engine needed). */
function recordAs(box: Sandbox, name: string, runtime: string, keep: (component: string) => boolean): void {
  const source = readFileSync(join(box.workdir, 'clusters', NAME, 'kwok.yaml'), 'utf8');
  const docs = source.split(/^---$/m).map((d) => parse(d) as Record<string, any>);
  const head = docs[0]!;
  head.options.runtime = runtime;
  head.components = head.components.filter((c: { name: string }) => keep(c.name));
  // A container runtime's record: etcd listens on kwokctl's 2379 in its container, published at the host port.
  if (runtime === 'docker') head.components.find((c: { name: string }) => c.name === 'etcd').ports[0].containerPort = 2379;
  const dir = join(box.workdir, 'clusters', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'kwok.yaml'), `${JSON.stringify(head)}\n`);
}

describe('port-forward and config convert', { timeout: 600_000 }, () => {
  let box: Sandbox;
  let record: { components: Array<{ name: string; ports: Array<{ name: string; port: number }> }> };
  const portOf = (component: string, name: string): number => record.components.find((c) => c.name === component)!.ports.find((p) => p.name === name)!.port;

  before(async () => {
    requireBinaries();
    box = sandbox();
    const result = await kwokts(box, ['--name', NAME, 'create', 'cluster', '--wait', '2m']);
    assert.equal(result.exitCode, 0, `create failed:\n${result.stderr}`);
    record = parse(readFileSync(join(box.workdir, 'clusters', NAME, 'kwok.yaml'), 'utf8').split(/^---$/m)[0]!) as typeof record;
  });
  after(async () => {
    const pids = recordedPids(box.workdir);
    await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    for (const pid of pids) assert.equal(isAlive(pid), false, `component ${pid} outlived delete`);
    box.cleanup();
  });

  test('kube-apiserver by port name: real HTTPS answers with the admin certificate; Ctrl-C exits 0 and frees the port', async () => {
    const local = await freePort();
    const fwd = await forward(box, ['kube-apiserver', `${local}:https`]);
    assert.equal(fwd.port, local);
    const version = await httpsGet(box, local, '/version');
    assert.equal(version.status, 200);
    assert.match(JSON.parse(version.body).gitVersion as string, /^v1\.\d+\.\d+/);
    const readyz = await httpsGet(box, local, '/readyz');
    assert.deepEqual(readyz, { status: 200, body: 'ok' });
    // The same certificate, the same apiserver: what the port says, the tunnel says.
    const direct = await httpsGet(box, portOf('kube-apiserver', 'https'), '/version');
    assert.equal(version.body, direct.body);
    const result = await fwd.stop('SIGINT');
    assert.equal(result.exitCode, 0, failure(result));
    assert.doesNotMatch(result.stderr, /error|rolling back/);
    assert.equal(await isListening(local), false, 'the local port is free again');
  });

  test('etcd by port name (its plain-HTTP metrics listener\'s /health) and its TLS client port by number with a free local port; SIGTERM exits 0', async () => {
    const byName = await forward(box, ['etcd', '0:metrics']);
    const health = await fetch(`http://127.0.0.1:${byName.port}/health`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { health: string }).health, 'true');
    const byNumber = await forward(box, ['etcd', `:${portOf('etcd', 'https')}`]);
    assert.notEqual(byNumber.port, byName.port);
    // Through the tunnel, etcd still wants its own CA's client certificate.
    const etcdHealth = await httpsGet(box, byNumber.port, '/health', 'etcd');
    assert.equal(etcdHealth.status, 200);
    assert.equal((JSON.parse(etcdHealth.body) as { health: string }).health, 'true');
    for (const fwd of [byName, byNumber]) {
      const result = await fwd.stop('SIGTERM');
      assert.equal(result.exitCode, 0, failure(result));
      assert.equal(await isListening(fwd.port), false);
    }
  });

  test('bad input: one error line with a hint, the right exit code, nothing left listening', async () => {
    const busy: Server = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const busyPort = (busy.address() as { port: number }).port;
    try {
      const rows: Array<[string[], number, RegExp]> = [
        [['port-forward', 'kube-nothing', '0:http'], 2, /^error: cluster pf has no component "kube-nothing"$/],
        [['port-forward', 'etcd', '0:grpc'], 2, /^error: component etcd has no port named "grpc"$/],
        [['port-forward', 'etcd', 'abc:https'], 2, /^error: invalid local port "abc"/],
        [['port-forward', 'etcd', '0:70000'], 2, /^error: invalid port "70000" in "0:70000": a port number is 1 to 65535$/],
        [['port-forward', 'etcd', '8080'], 2, /^error: invalid port mapping "8080"$/],
        [['port-forward', 'etcd', `${busyPort}:https`], 3, new RegExp(`^error: 127\\.0\\.0\\.1:${busyPort} is already in use$`)],
        [['port-forward', 'etcd', '0:https', '--address', '192.0.2.1'], 3, /^error: cannot listen on 192\.0\.2\.1:0: no such address on this machine$/],
      ];
      for (const [args, code, message] of rows) {
        const result = await kwokts(box, ['--name', NAME, ...args]);
        assert.equal(result.exitCode, code, `${args.join(' ')}: ${result.stderr}`);
        assert.match(oneError(result), message, args.join(' '));
        assert.equal(result.stdout, '');
      }
      const missing = await kwokts(box, ['--name', 'nowhere', 'port-forward', 'etcd', '0:https']);
      assert.equal(missing.exitCode, 4);
      assert.match(oneError(missing), /^error: cluster nowhere does not exist$/);
    } finally {
      await new Promise((r) => busy.close(r));
    }
  });

  test('--dry-run prints the tunnel and starts nothing: the relay as socat (binary, docker), kubectl port-forward (kind)', async () => {
    const local = await freePort();
    const binary = await kwokts(box, ['--name', NAME, '--dry-run', 'port-forward', 'kube-apiserver', `${local}:https`]);
    assert.equal(binary.exitCode, 0, failure(binary));
    assert.equal(binary.stdout, `socat TCP-LISTEN:${local},bind=127.0.0.1,reuseaddr,fork TCP:127.0.0.1:${portOf('kube-apiserver', 'https')}`);
    assert.equal(await isListening(local), false);

    recordAs(box, 'as-docker', 'docker', () => true);
    const docker = await kwokts(box, ['--name', 'as-docker', '--dry-run', 'port-forward', 'etcd', '0:2379']);
    assert.equal(docker.exitCode, 0, failure(docker));
    assert.equal(docker.stdout, `socat TCP-LISTEN:0,bind=127.0.0.1,reuseaddr,fork TCP:127.0.0.1:${portOf('etcd', 'https')}`, 'the container port 2379 is reached where it is published');
    const unpublished = await kwokts(box, ['--name', 'as-docker', '--dry-run', 'port-forward', 'etcd', '0:4001']);
    assert.equal(unpublished.exitCode, 2);
    assert.match(oneError(unpublished), /^error: port 4001 of etcd is not published by docker, so it cannot be forwarded$/);

    recordAs(box, 'as-kind', 'kind', (c) => c === 'kube-apiserver' || c === 'kwok-controller');
    const kind = await kwokts(box, ['--name', 'as-kind', '--dry-run', 'port-forward', 'kube-apiserver', `${local}:https`]);
    assert.equal(kind.exitCode, 0, failure(kind));
    const kubeconfig = join(box.workdir, 'clusters', 'as-kind', 'kubeconfig.yaml');
    assert.equal(kind.stdout, `kubectl --kubeconfig=${kubeconfig} port-forward --namespace=kube-system --address=127.0.0.1 pod/kube-apiserver-kwok-as-kind-control-plane ${local}:6443`);
    const controller = await kwokts(box, ['--name', 'as-kind', '--dry-run', 'port-forward', 'kwok-controller', ':http']);
    assert.match(controller.stdout, / deployment\/kwok-controller :10247$/);
  });

  test('config convert prints the current form, -w rewrites in place (mode kept), and bad files are one error naming them', async () => {
    const dir = join(box.workdir, '..', 'convert');
    mkdirSync(dir, { recursive: true });
    const old = `kind: Stage
metadata: {name: pod-ready}
spec:
  resourceRef: {kind: Pod}
  selector:
    matchExpressions:
    - {key: .metadata.deletionTimestamp, operator: DoesNotExist}
  next:
    statusTemplate: |
      phase: Running
---
kind: KwokctlConfiguration
options: {heartbeatFactor: 3}
`;
    const file = join(dir, 'old.yaml');
    writeFileSync(file, old);
    chmodSync(file, 0o640);
    const printed = await kwokts(box, ['config', 'convert', file]);
    assert.equal(printed.exitCode, 0, failure(printed));
    assert.match(printed.stdout, /^apiVersion: kwok\.x-k8s\.io\/v1alpha1\nkind: Stage\n/);
    assert.match(printed.stdout, /steps:\n {4}- patch:\n {8}root: status/);
    assert.match(printed.stdout, /---\napiVersion: config\.kwok\.x-k8s\.io\/v1alpha1\nkind: KwokctlConfiguration\noptions:\n {2}heartbeatFactor: 3$/);
    assert.doesNotMatch(printed.stdout, /next:/);
    assert.equal(readFileSync(file, 'utf8'), old, 'without -w the file is untouched');

    // The converted file works: create's dry-run takes the stage as it is.
    const converted = join(dir, 'converted.yaml');
    // (the harness gives stdout without its final newline)
    const printedText = `${printed.stdout}\n`;
    writeFileSync(converted, printedText);
    const again = await kwokts(box, ['config', 'convert', converted]);
    assert.equal(again.stdout, printed.stdout, 'converting twice changes nothing');
    const view = await kwokts(box, ['-c', converted, 'config', 'view']);
    assert.equal(view.exitCode, 0, failure(view));
    assert.match(view.stdout, /heartbeatFactor: 3/);

    const written = await kwokts(box, ['config', 'convert', '-w', file, converted]);
    assert.equal(written.exitCode, 0, failure(written));
    assert.equal(written.stdout, '');
    assert.match(written.stderr, /Converted .*old\.yaml/);
    assert.match(written.stderr, /converted\.yaml is already current/);
    assert.equal(readFileSync(file, 'utf8'), printedText);
    assert.equal(statSync(file).mode & 0o777, 0o640);

    const fromStdin = await kwokts(box, ['config', 'convert', '-'], { input: old });
    assert.equal(fromStdin.stdout, printed.stdout);

    const dryRun = await kwokts(box, ['--dry-run', 'config', 'convert', '-w', converted.replace('converted', 'old-again')]);
    assert.equal(dryRun.exitCode, 2, 'a missing file, also under dry-run');
    writeFileSync(join(dir, 'old-again.yaml'), old);
    const dryRunWrite = await kwokts(box, ['--dry-run', 'config', 'convert', '-w', join(dir, 'old-again.yaml')]);
    assert.equal(dryRunWrite.exitCode, 0, failure(dryRunWrite));
    assert.match(dryRunWrite.stdout, /^cat <<'EOF' >.*old-again\.yaml\napiVersion: kwok\.x-k8s\.io/);
    assert.equal(readFileSync(join(dir, 'old-again.yaml'), 'utf8'), old, 'dry-run writes nothing');

    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'kind: Stage\n  metadata: [\n');
    const unknown = join(dir, 'unknown.yaml');
    writeFileSync(unknown, 'apiVersion: apps/v1\nkind: Deployment\n');
    const rows: Array<[string[], RegExp]> = [
      [[broken], new RegExp(`^error: config file ${broken}: invalid YAML: line \\d+`)],
      [[unknown], new RegExp(`^error: config file ${unknown}: unknown kind "Deployment"$`)],
      [[join(dir, 'missing.yaml')], /^error: config file .*missing\.yaml does not exist$/],
      [['-w', '-'], /^error: -w cannot write stdin back$/],
      [['-w', file, broken], /broken\.yaml: invalid YAML/],
    ];
    const before = readFileSync(file, 'utf8');
    for (const [args, message] of rows) {
      const result = await kwokts(box, ['config', 'convert', ...args], { input: '' });
      assert.equal(result.exitCode, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(oneError(result), message);
    }
    assert.equal(readFileSync(file, 'utf8'), before, 'a bad file among several: none is written');
    assert.equal(existsSync(join(dir, 'missing.yaml')), false);
  });
});
