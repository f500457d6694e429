/**
 * `kwokts kubectl exec`, `attach` and `port-forward` on fake pods, end to end with the real
 * kubectl: kubectl talks to kube-apiserver (WebSocket or SPDY), which dials the kwok controller's
 * kubelet endpoint over SPDY/3.1. The Exec, Attach and PortForward rules come from the cluster's
 * config, or (with --enable-crds) from custom resources.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { BIN, freePort, kwokts, oneLinePerCommand, requireBinaries, sandbox, spawnKwokts, waitFor, type Sandbox, failure } from './harness.js';
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

describe('kubectl exec, attach and port-forward for fake pods', { timeout: 900_000 }, () => {
  let box: Sandbox;
  let dir = '';
  let attachLog = '';
  let web: http.Server;
  let webPort = 0;
  let cluster = '';
  const k = (args: string[], input?: string) => kwokts(box, ['--name', cluster, 'kubectl', ...args], input === undefined ? {} : { input });

  async function runningPod(name: string, namespace = 'default'): Promise<void> {
    const applied = await k(['apply', '-f', '-'], pod(name, namespace));
    assert.equal(applied.exitCode, 0, failure(applied));
    await waitFor(`pod ${namespace}/${name} Running`, async () => (await k(['get', 'pod', '-n', namespace, name, '-o', 'jsonpath={.status.phase}'])).stdout === 'Running', 120_000, 500);
  }

  async function create(name: string, config: string, flags: string[] = []): Promise<void> {
    cluster = name;
    const created = await kwokts(box, ['--name', name, '-c', config, 'create', 'cluster', '--wait', '3m', ...flags]);
    assert.equal(created.exitCode, 0, failure(created));
    assert.equal((await k(['apply', '-f', '-'], NODE)).exitCode, 0);
    // node-initialize writes the addresses and kubelet port the apiserver dials.
    await waitFor('node Ready', async () => (await k(['get', 'node', 'kwok-node-0', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'])).stdout === 'True', 120_000);
  }

  /** kubectl port-forward in the background until `use` is done; returns what `use` returned. */
  async function withPortForward<T>(target: string, remotePort: number, use: (localPort: number) => Promise<T>): Promise<T> {
    const local = await freePort();
    const forwarding = spawnKwokts(box, ['--name', cluster, 'kubectl', 'port-forward', target, `${local}:${remotePort}`]);
    let out = '';
    forwarding.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    try {
      await waitFor('port-forward to listen', () => out.includes(`Forwarding from 127.0.0.1:${local}`), 60_000, 100);
      return await use(local);
    } finally {
      forwarding.kill('SIGTERM');
      await forwarding;
    }
  }

  before(async () => {
    requireBinaries();
    box = sandbox();
    dir = join(box.workdir, '..', 'fake-files');
    mkdirSync(dir, { recursive: true });
    attachLog = join(dir, 'attach.log');
    writeFileSync(attachLog, '2024-01-01T00:00:00Z stdout F written before attaching\n');
    web = http.createServer((req, res) => res.end(`hello from the test server: ${req.url ?? ''}`));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    webPort = (web.address() as AddressInfo).port;
  });
  after(async () => {
    for (const name of ['kl-stream', 'kl-stream-crd']) await kwokts(box, ['--name', name, 'delete', 'cluster']);
    web.close();
    box.cleanup();
  });

  describe('rules from the cluster config', () => {
    before(async () => {
      const config = join(box.workdir, '..', 'streaming.yaml');
      writeFileSync(config, `apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterExec
metadata: {name: default-namespace}
spec:
  selector: {matchNamespaces: [default]}
  execs:
  - local:
      envs: [{name: TEST_ENV, value: test}]
---
apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterAttach
metadata: {name: default-namespace}
spec:
  selector: {matchNamespaces: [default]}
  attaches:
  - logsFile: ${attachLog}
---
apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterPortForward
metadata: {name: default-namespace}
spec:
  selector: {matchNamespaces: [default]}
  forwards:
  - ports: [8080]
    target: {port: ${webPort}, address: 127.0.0.1}
`);
      await create('kl-stream', config);
      await runningPod('web-0');
    });
    after(async () => {
      await kwokts(box, ['--name', 'kl-stream', 'delete', 'cluster']);
    });

    test('the rules reached the controller config', () => {
      const kwokYaml = readFileSync(join(box.workdir, 'clusters', 'kl-stream', 'kwok.yaml'), 'utf8');
      for (const kind of ['ClusterExec', 'ClusterAttach', 'ClusterPortForward']) assert.match(kwokYaml, new RegExp(`kind: ${kind}`));
    });

    test('kubectl exec runs the command: stdout, stderr, the ClusterExec env and the exit code', async () => {
      const env = await k(['exec', 'web-0', '--', 'env']);
      assert.equal(env.exitCode, 0, failure(env));
      assert.match(env.stdout, /^TEST_ENV=test$/m);
      const failing = await k(['exec', 'web-0', '--', 'sh', '-c', 'echo to-stdout; echo to-stderr >&2; exit 3']);
      assert.equal(failing.exitCode, 3, failing.stderr);
      assert.equal(failing.stdout, 'to-stdout');
      assert.match(failing.stderr, /^to-stderr$/m);
      assert.match(failing.stderr, /command terminated with exit code 3/);
    });

    test('kubectl exec -i passes stdin through', async () => {
      const r = await k(['exec', '-i', 'web-0', '--', 'sh', '-c', 'tr a-z A-Z'], 'through stdin\n');
      assert.equal(r.exitCode, 0, failure(r));
      assert.equal(r.stdout, 'THROUGH STDIN');
    });

    test('kubectl on SPDY (its fallback): the apiserver passes the upgrade through unchanged', async () => {
      // Without these kubectl speaks WebSocket and kube-apiserver translates; with them the
      // apiserver proxies kubectl's own SPDY/3.1 session to the controller.
      process.env.KUBECTL_REMOTE_COMMAND_WEBSOCKETS = 'false';
      process.env.KUBECTL_PORT_FORWARD_WEBSOCKETS = 'false';
      try {
        const r = await k(['exec', '-i', 'web-0', '--', 'sh', '-c', 'cat; exit 5'], 'over spdy\n');
        assert.equal(r.exitCode, 5, r.stderr);
        assert.equal(r.stdout, 'over spdy');
        const body = await withPortForward('pod/web-0', 8080, async (local) => (await fetch(`http://127.0.0.1:${local}/spdy`)).text());
        assert.equal(body, 'hello from the test server: /spdy');
      } finally {
        delete process.env.KUBECTL_REMOTE_COMMAND_WEBSOCKETS;
        delete process.env.KUBECTL_PORT_FORWARD_WEBSOCKETS;
      }
    });

    test('kubectl exec -it gets a terminal of kubectl\'s size', async () => {
      // kubectl asks for a TTY only when its own stdin is one: run it in a pseudo-terminal.
      const pty = await import('@lydell/node-pty');
      const term = pty.spawn(process.execPath, [BIN, '--name', cluster, 'kubectl', 'exec', '-it', 'web-0', '--', 'sh', '-c', 'tty; stty size; exit 4'], {
        cols: 101,
        rows: 31,
        env: { ...process.env, ...box.env } as Record<string, string>,
      });
      let out = '';
      term.onData((data) => (out += data));
      const exit = await new Promise<{ exitCode: number }>((resolve) => term.onExit(resolve));
      assert.match(out, /\/dev\/pts\/\d+/, out);
      assert.match(out, /31 101/, out);
      assert.equal(exit.exitCode, 4, out);
    });

    test('kubectl attach shows what is appended to the ClusterAttach logsFile', async () => {
      const attaching = spawnKwokts(box, ['--name', cluster, 'kubectl', 'attach', 'web-0']);
      let out = '';
      attaching.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      try {
        // Attaching starts at the end of the file: keep appending until a line shows up.
        await waitFor(
          'an appended line',
          () => {
            appendFileSync(attachLog, '2024-01-01T00:00:01Z stdout F appended after attaching\n');
            return out.includes('appended after attaching\n');
          },
          60_000,
          250,
        );
        assert.doesNotMatch(out, /written before attaching/);
        assert.equal(attaching.exitCode, null, 'still attached');
      } finally {
        attaching.kill('SIGTERM');
        await attaching;
      }
    });

    test('kubectl port-forward reaches the ClusterPortForward target', async () => {
      const body = await withPortForward('pod/web-0', 8080, async (local) => (await fetch(`http://127.0.0.1:${local}/through-the-pod`)).text());
      assert.equal(body, 'hello from the test server: /through-the-pod');
    });

    test('port-forward to a port nothing forwards: kwok\'s error, and kubectl gives up the forward', async () => {
      const local = await freePort();
      const forwarding = spawnKwokts(box, ['--name', cluster, 'kubectl', 'port-forward', 'pod/web-0', `${local}:81`]);
      let out = '';
      forwarding.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      try {
        await waitFor('port-forward to listen', () => out.includes(`Forwarding from 127.0.0.1:${local}`), 60_000, 100);
        await assert.rejects(fetch(`http://127.0.0.1:${local}/`));
        // client-go closes the whole forward after an error from the kubelet.
        const done = await forwarding;
        assert.notEqual(done.exitCode, 0);
        assert.match(String(done.stderr), /error forwarding port 81 to pod web-0\/default, uid : no forward found for port 81 in pod \\?"default\/web-0\\?"/);
      } finally {
        forwarding.kill('SIGTERM');
        await forwarding;
      }
    });

    test('a pod no Exec or ClusterExec matches: kwok\'s error and a non-zero exit', async () => {
      assert.equal((await k(['create', 'namespace', 'other'])).exitCode, 0);
      await runningPod('stray', 'other');
      const r = await k(['exec', '-n', 'other', 'stray', '--', 'true']);
      assert.notEqual(r.exitCode, 0);
      assert.match(r.stderr, /no exec found for container "app" in pod "other\/stray"/);
    });
  });

  test('container runtimes mount the attach file\'s directory read-only into the controller (dry-run)', async () => {
    const config = join(box.workdir, '..', 'dry-run-attach.yaml');
    writeFileSync(config, `kind: ClusterAttach
metadata: {name: all}
spec:
  attaches:
  - logsFile: ${attachLog}
`);
    const r = await kwokts(box, ['--name', 'kl-dry', '-c', config, 'create', 'cluster', '--runtime', 'docker', '--dry-run']);
    assert.equal(r.exitCode, 0, failure(r));
    const controller = oneLinePerCommand(r.stdout).split('\n').find((l) => l.startsWith('docker create ') && l.includes('--name=kwok-kl-dry-kwok-controller'));
    assert.ok(controller, r.stdout);
    assert.ok(controller.includes(` --volume=${dir}:${dir}:ro `), controller);
  });

  describe('--enable-crds: rules as custom resources', () => {
    before(async () => {
      // A ClusterExec in the config becomes a custom resource, not controller config.
      const config = join(box.workdir, '..', 'streaming-crd.yaml');
      writeFileSync(config, `apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterExec
metadata: {name: from-config}
spec:
  execs:
  - local:
      envs: [{name: FROM, value: config}]
`);
      await create('kl-stream-crd', config, ['--enable-crds=Exec,ClusterExec,Attach,ClusterAttach,PortForward,ClusterPortForward']);
      await runningPod('web-0');
    });

    test('the CRDs are served; the config object was created in the cluster instead of written to kwok.yaml', async () => {
      const listed = await k(['get', 'clusterexecs', '-o', 'name']);
      assert.equal(listed.exitCode, 0, failure(listed));
      assert.equal(listed.stdout.trim(), 'clusterexec.kwok.x-k8s.io/from-config');
      for (const resource of ['execs', 'attaches', 'clusterattaches', 'portforwards', 'clusterportforwards']) {
        assert.equal((await k(['get', resource, '-A'])).exitCode, 0, resource);
      }
      assert.doesNotMatch(readFileSync(join(box.workdir, 'clusters', 'kl-stream-crd', 'kwok.yaml'), 'utf8'), /kind: ClusterExec/);
      const fromConfig = await k(['exec', 'web-0', '--', 'sh', '-c', 'echo $FROM']);
      assert.equal(fromConfig.stdout, 'config', fromConfig.stderr);
    });

    test('an Exec and a PortForward applied at run time answer for their pod', async () => {
      const applied = await k(['apply', '-f', '-'], `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Exec
metadata: {name: web-0, namespace: default}
spec:
  execs:
  - local:
      workDir: ${dir}
      envs: [{name: FROM, value: exec-object}]
---
apiVersion: kwok.x-k8s.io/v1alpha1
kind: PortForward
metadata: {name: web-0, namespace: default}
spec:
  forwards:
  - target: {port: ${webPort}, address: 127.0.0.1}
`);
      assert.equal(applied.exitCode, 0, failure(applied));
      // The controller's watch picks the object up; the Exec then decides over the ClusterExec.
      await waitFor('exec from the Exec object', async () => (await k(['exec', 'web-0', '--', 'sh', '-c', 'echo $FROM']).then((r) => r.stdout)) === 'exec-object', 60_000, 500);
      const pwd = await k(['exec', 'web-0', '--', 'pwd']);
      assert.equal(pwd.stdout, dir, pwd.stderr);
      const body = await withPortForward('pod/web-0', 9999, async (local) => (await fetch(`http://127.0.0.1:${local}/crd`)).text());
      assert.equal(body, 'hello from the test server: /crd');
    });

    test('a misspelt field is refused by the API server', async () => {
      const r = await k(['apply', '-f', '-'], `apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterPortForward
metadata: {name: typo}
spec:
  forwards:
  - port: [80]
`);
      assert.notEqual(r.exitCode, 0);
      assert.match(r.stderr, /unknown field "spec\.forwards\[0\]\.port"/);
    });
  });
});
