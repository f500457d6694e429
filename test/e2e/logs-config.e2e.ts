/**
 * logs (-f, audit), export logs, config view/tidy/reset, --extra-args, extra components and
 * extraVolumes, on one real cluster.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, kwokts, requireBinaries, sandbox, spawnKwokts, waitFor, type Sandbox, failure } from './harness.js';

const NAME = 'logs';
const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: Metadata
`;

async function ok(box: Sandbox, args: string[], input?: string): Promise<string> {
  const result = await kwokts(box, ['--name', NAME, ...args], input === undefined ? {} : { input });
  assert.equal(result.exitCode, 0, `kwokts ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** An extra component: a tiny HTTP server that answers with an env var and an argument. */
function echoComponent(name: string, port: number, script: string): string {
  return `kind: KwokctlConfiguration
apiVersion: config.kwok.x-k8s.io/v1alpha1
components:
- name: ${name}
  binary: ${process.execPath}
  args: ["-e", ${JSON.stringify(script)}, "${port}"]
  links: [kube-apiserver]
  ports:
  - name: http
    port: ${port}
  envs:
  - name: GREETING
    value: hello-from-env
componentsPatches:
- name: kube-apiserver
  extraVolumes:
  - hostPath: /tmp
    mountPath: /var/tmp-elsewhere
    readOnly: true
`;
}

const ECHO_SERVER = "require('http').createServer((q, r) => r.end(process.env.GREETING + ' ' + process.argv[1])).listen(Number(process.argv[1]), '127.0.0.1')";

describe('logs, export logs, config, --extra-args and extra components', { timeout: 600_000 }, () => {
  let box: Sandbox;
  let echoPort = 0;
  let createStderr = '';
  before(async () => {
    requireBinaries();
    box = sandbox();
    const policy = join(box.workdir, '..', 'audit-policy.yaml');
    writeFileSync(policy, AUDIT_POLICY);
    echoPort = await freePort();
    const extra = join(box.workdir, '..', 'extra-components.yaml');
    writeFileSync(extra, echoComponent('echo', echoPort, ECHO_SERVER));
    const result = await kwokts(box, ['--name', NAME, '-c', extra, 'create', 'cluster', '--wait', '2m', '--extra-args', 'kube-apiserver=v=3', '--kube-audit-policy', policy]);
    assert.equal(result.exitCode, 0, `create failed:\n${result.stderr}`);
    createStderr = result.stderr;
  });
  after(async () => {
    await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    box.cleanup();
  });

  test('--extra-args reaches the component command line', () => {
    const pid = readFileSync(join(box.workdir, 'clusters', NAME, 'pids', 'kube-apiserver.pid'), 'utf8').trim();
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    assert.ok(args.includes('--v=3'), `no --v=3 in ${args.join(' ')}`);
  });

  test('an extra component runs with its args and env, and is listed with the others', async () => {
    const response = await fetch(`http://127.0.0.1:${echoPort}/`);
    assert.equal(await response.text(), `hello-from-env ${echoPort}`);
    // -o wide is kwokctl's NAME STATUS table; -o json carries the process state, pid and ports.
    assert.match(await ok(box, ['get', 'components', '-o', 'wide']), /^echo\s+Ready$/m);
    const echo = (JSON.parse(await ok(box, ['get', 'components', '-o', 'json'])) as Array<{ name: string; state: string; ready: boolean; id?: string; ports: number[] }>).find((c) => c.name === 'echo');
    assert.equal(echo?.state, 'running');
    assert.equal(echo?.ready, true);
    assert.match(echo?.id ?? '', /^\d+$/);
    assert.deepEqual(echo?.ports, [echoPort]);
  });

  test('an extraVolume the binary runtime cannot mount is a warning naming it', () => {
    assert.match(createStderr, /kube-apiserver: volume \/tmp → \/var\/tmp-elsewhere is not mounted by the binary runtime/);
  });

  test('an extra component that exits at once fails the create, which rolls back', async () => {
    const config = join(box.workdir, '..', 'crashing-component.yaml');
    writeFileSync(config, echoComponent('crasher', await freePort(), 'process.exit(3)'));
    const result = await kwokts(box, ['--name', 'crash', '-c', config, 'create', 'cluster', '--wait', '1m']);
    assert.notEqual(result.exitCode, 0);
    assert.match(result.stderr, /crasher/);
    assert.equal(existsSync(join(box.workdir, 'clusters', 'crash')), false);
  });

  test('logs prints a component log, and the audit log', async () => {
    assert.match(await ok(box, ['logs', 'kube-apiserver']), /Serving securely|apiserver|I\d{4}/);
    await ok(box, ['kubectl', 'get', 'ns']);
    await waitFor('audit entries', async () => /"kind":"Event"/.test(await ok(box, ['logs', 'audit'])), 20_000);
  });

  test('logs -f follows new lines until Ctrl-C, then exits 0', async () => {
    const child = spawnKwokts(box, ['--name', NAME, 'logs', '-f', 'kube-apiserver']);
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await waitFor('initial log', () => out.length > 0, 20_000);
    const before = out.length;
    await ok(box, ['kubectl', 'create', 'namespace', 'follow-me']);
    // The apiserver logs each request at -v=3.
    await waitFor('new lines after the namespace was created', () => out.length > before && /follow-me|namespaces/.test(out.slice(before)), 20_000);
    child.kill('SIGINT');
    const result = await child;
    assert.equal(result.exitCode, 0, String(result.stderr));
    assert.doesNotMatch(String(result.stderr), /error|rolling back/);
  });

  test('export logs collects the config and every log, and no key', async () => {
    // kwokctl's layout: DIR/<cluster name>.
    const dir = join(box.workdir, '..', 'exported', NAME);
    await ok(box, ['export', 'logs', join(dir, '..')]);
    const files = listFiles(dir).map((f) => f.slice(dir.length + 1)).sort();
    for (const want of ['kwok.yaml', 'components.txt', 'binary-info.txt', 'components/etcd.log', 'components/kube-apiserver.log', 'components/kwok-controller.log', 'components/audit.log']) {
      assert.ok(files.includes(want), `${want} missing from ${files.join(', ')}`);
    }
    for (const file of listFiles(dir)) assert.doesNotMatch(readFileSync(file, 'utf8'), /PRIVATE KEY/, file);
    const again = await kwokts(box, ['--name', NAME, 'export', 'logs', join(dir, '..')]);
    assert.equal(again.exitCode, 2);
    assert.match(again.stderr, /is not empty/);
  });

  test('config view merges files and KWOK_* variables; tidy saves it; reset removes it', async () => {
    const file = join(box.workdir, '..', 'my-config.yaml');
    writeFileSync(file, 'kind: KwokctlConfiguration\napiVersion: config.kwok.x-k8s.io/v1alpha1\noptions:\n  heartbeatFactor: 3\n  kubeApiserverPort: 31000\n');
    const env = { ...box, env: { ...box.env, KWOK_KUBE_APISERVER_PORT: '32000' } };
    const view = await kwokts(env, ['-c', file, 'config', 'view']);
    assert.equal(view.exitCode, 0, failure(view));
    assert.match(view.stdout, /heartbeatFactor: 3/);
    assert.match(view.stdout, /kubeApiserverPort: 32000/, 'env overrides the file');
    const tidy = await kwokts(box, ['-c', file, 'config', 'tidy']);
    assert.equal(tidy.exitCode, 0, failure(tidy));
    const saved = join(box.workdir, 'kwok.yaml');
    assert.match(readFileSync(saved, 'utf8'), /heartbeatFactor: 3/);
    // The saved file is read back by every command.
    assert.match((await kwokts(box, ['config', 'view'])).stdout, /kubeApiserverPort: 31000/);
    assert.equal((await kwokts(box, ['config', 'reset'])).exitCode, 0);
    assert.equal(existsSync(saved), false);
    assert.match((await kwokts(box, ['config', 'view'])).stdout, /heartbeatFactor: 5/);
  });

  test('bad input: one line, non-zero, nothing made', async () => {
    const rows: Array<[string[], RegExp]> = [
      [['logs', 'kube-nothing'], /has no component "kube-nothing"/],
      [['--name', 'other', 'create', 'cluster', '--extra-args', 'kube-apiserver=v'], /invalid --extra-args/],
      [['--name', 'other', 'create', 'cluster', '--extra-args', 'kube-foo=v=1'], /unknown component "kube-foo"/],
    ];
    for (const [args, message] of rows) {
      const result = await kwokts(box, args[0] === '--name' ? args : ['--name', NAME, ...args]);
      assert.equal(result.exitCode, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message);
      assert.equal(result.stderr.trim().split('\n').filter((l) => l.startsWith('error:')).length, 1);
    }
    assert.equal(existsSync(join(box.workdir, 'clusters', 'other')), false);
  });
});
