import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigFiles, resolveOptionValues } from '../../../src/config/load.js';
import { UsageError } from '../../../src/util/errors.js';
import { silentLogger } from '../../../src/util/log.js';

const dir = mkdtempSync(join(tmpdir(), 'kwokts-config-'));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

test('documents are routed by kind; apiVersion is not required', async () => {
  const p = file('a.yaml', `kind: KwokctlConfiguration
options:
  kubeApiserverPort: 31000
  disableQPSLimits: yes
componentsPatches:
- name: kube-apiserver
  extraArgs:
  - key: v
    value: "4"
---
kind: Stage
apiVersion: kwok.x-k8s.io/v1alpha1
metadata: {name: s}
---
kind: KwokConfiguration
options: {cidr: 10.1.0.0/16}
`);
  const loaded = await loadConfigFiles([p], silentLogger);
  assert.equal(loaded.fileOptions.kubeApiserverPort, 31000);
  // YAML 1.1, as sigs.k8s.io/yaml: yes is true.
  assert.equal(loaded.fileOptions.disableQPSLimits, true);
  assert.deepEqual(loaded.componentsPatches[0]?.extraArgs, [{ key: 'v', value: '4', override: false }]);
  assert.deepEqual(loaded.kwokDocuments.map((d) => d.kind), ['Stage', 'KwokConfiguration']);
});

test('a key given twice in a document takes its last value, as kwokctl v0.8.0 reads it', async () => {
  // kwok's shell e2e suite appends its resources file to a kwok.yaml without a trailing `---`,
  // which joins two documents into one with every key twice; kwokctl creates the cluster.
  const p = file('dup.yaml', 'kind: KwokctlConfiguration\noptions:\n  kubeApiserverPort: 1234\n  kubeApiserverPort: 5678\n');
  const loaded = await loadConfigFiles([p], silentLogger);
  assert.equal(loaded.fileOptions.kubeApiserverPort, 5678);
});

test('later files win over earlier ones', async () => {
  const a = file('b1.yaml', 'kind: KwokctlConfiguration\noptions: {etcdPort: 1, kubeApiserverPort: 2}\n');
  const b = file('b2.yaml', 'kind: KwokctlConfiguration\noptions: {etcdPort: 3}\n');
  const loaded = await loadConfigFiles([a, b], silentLogger);
  assert.equal(loaded.fileOptions.etcdPort, 3);
  assert.equal(loaded.fileOptions.kubeApiserverPort, 2);
});

test('precedence: flag > env > file > default', () => {
  const file = { kubeApiserverPort: 1, etcdPort: 1, kwokControllerPort: 1 };
  const env = { KWOK_KUBE_APISERVER_PORT: '2', KWOK_ETCD_PORT: '2', KWOK_CONTROLLER_PORT: '' };
  const v = resolveOptionValues(file, env, { kubeApiserverPort: 3 });
  assert.equal(v.kubeApiserverPort, 3);
  assert.equal(v.etcdPort, 2);
  // An empty env value counts as unset.
  assert.equal(v.kwokControllerPort, 1);
  assert.equal(v.kubeSchedulerPort, 0);
});

test('bad input names the file and the field', async () => {
  const unknownField = file('c.yaml', 'kind: KwokctlConfiguration\noptions: {noSuchOption: 1}\n');
  await assert.rejects(loadConfigFiles([unknownField], silentLogger), (e: unknown) => e instanceof UsageError && /c\.yaml.*options\.noSuchOption/.test(e.message));
  const badType = file('d.yaml', 'kind: KwokctlConfiguration\noptions: {etcdPort: abc}\n');
  await assert.rejects(loadConfigFiles([badType], silentLogger), (e: unknown) => e instanceof UsageError && /d\.yaml.*etcdPort.*integer/.test(e.message));
  const badYaml = file('e.yaml', 'kind: [\n');
  await assert.rejects(loadConfigFiles([badYaml], silentLogger), (e: unknown) => e instanceof UsageError && /e\.yaml.*invalid YAML/.test(e.message));
  await assert.rejects(loadConfigFiles([join(dir, 'missing.yaml')], silentLogger), (e: unknown) => e instanceof UsageError && /does not exist/.test(e.message));
  assert.throws(() => resolveOptionValues({}, { KWOK_ETCD_PORT: 'x' }, {}), /KWOK_ETCD_PORT: expected a non-negative integer/);
});

test('stdin is read for -', async () => {
  const loaded = await loadConfigFiles(['-'], silentLogger, async () => 'kind: KwokctlConfiguration\noptions: {etcdPort: 7}\n');
  assert.equal(loaded.fileOptions.etcdPort, 7);
  assert.deepEqual(loaded.sources, ['<stdin>']);
});

test('extra components and extraVolumes are parsed strictly; relative paths are taken from the file', async () => {
  const p = file('components.yaml', `kind: KwokctlConfiguration
options:
  components: [etcd, kube-apiserver, kwok-controller]
  enable: [prometheus]
  disable: kube-scheduler
  enableCRDs: [Stage]
componentsPatches:
- name: kube-apiserver
  extraVolumes:
  - hostPath: ./audit
    mountPath: /etc/audit
    readOnly: true
  extraEnvs:
  - name: MODE
    value: 1
components:
- name: echo
  binary: ./bin/echo
  args: ["--port", 8080]
  links: [kube-apiserver]
  ports:
  - name: http
    port: 8080
`);
  const loaded = await loadConfigFiles([p], silentLogger);
  assert.deepEqual(loaded.fileOptions.components, ['etcd', 'kube-apiserver', 'kwok-controller']);
  assert.deepEqual(loaded.fileOptions.enable, ['prometheus']);
  assert.deepEqual(loaded.fileOptions.disable, ['kube-scheduler']);
  assert.deepEqual(loaded.fileOptions.enableCRDs, ['Stage']);
  assert.deepEqual(loaded.componentsPatches[0]?.extraVolumes, [{ hostPath: join(dir, 'audit'), mountPath: '/etc/audit', readOnly: true }]);
  assert.deepEqual(loaded.componentsPatches[0]?.extraEnvs, [{ name: 'MODE', value: '1' }]);
  const [echo] = loaded.components;
  assert.equal(echo?.binary, join(dir, 'bin', 'echo'));
  assert.deepEqual(echo?.args, ['--port', '8080']);
  assert.deepEqual(echo?.ports, [{ name: 'http', port: 8080, hostPort: 0, protocol: 'TCP' }]);
});

for (const [what, body, message] of [
  ['a misspelt field', 'components:\n- name: a\n  binary: /x\n  arg: [1]\n', /components\[0\]: unknown field "arg"/],
  ['a built-in name', 'components:\n- name: etcd\n  binary: /x\n', /"etcd" is a built-in component/],
  ['no program', 'components:\n- name: a\n', /has neither binary nor image/],
  ['a bad port', 'components:\n- name: a\n  binary: /x\n  ports: [{port: 70000}]\n', /ports\[0\]\.port must be a port number/],
  ['a relative mountPath', 'componentsPatches:\n- name: etcd\n  extraVolumes: [{hostPath: /a, mountPath: b}]\n', /mountPath must be an absolute path/],
  ['a URL binary', 'components:\n- name: a\n  binary: https://example.invalid/a\n', /downloading extra components is not supported/],
] as const) {
  test(`KwokctlConfiguration with ${what} is refused, naming the file and field`, async () => {
    const p = file(`bad-${what.replace(/ /g, '-')}.yaml`, `kind: KwokctlConfiguration\n${body}`);
    await assert.rejects(loadConfigFiles([p], silentLogger), (error: unknown) => error instanceof UsageError && error.message.includes(p) && message.test(error.message));
  });
}

test('Logs and ClusterLogs: checked where the file is known, their files collected', async () => {
  const good = file('logs-good.yaml', `kind: ClusterLogs
metadata: {name: all}
spec:
  logs:
  - logsFile: /var/log/fake/a.log
    previousLogsFile: /var/log/old/a.log
`);
  const loaded = await loadConfigFiles([good], silentLogger);
  assert.deepEqual(loaded.logFiles, ['/var/log/fake/a.log', '/var/log/old/a.log']);
  assert.deepEqual(loaded.kwokDocuments.map((d) => d.kind), ['ClusterLogs']);

  const typo = file('logs-typo.yaml', 'kind: Logs\nmetadata: {name: p}\nspec:\n  logs:\n  - logfile: /x.log\n');
  await assert.rejects(loadConfigFiles([typo], silentLogger), (e: unknown) => e instanceof UsageError && e.message === `config file ${typo}: Logs "p": unknown field "spec.logs[0].logfile"`);
  // kwok's e2e has `logsFile: ./logs.log` in test/e2e/ and writes the file where the test runs:
  // as kwokctl v0.8.0 does, a relative log file is taken from the current directory, not the file's.
  const relative = file('logs-relative.yaml', 'kind: ClusterLogs\nmetadata: {name: r}\nspec:\n  logs:\n  - logsFile: ./logs/app.log\n    previousLogsFile: old.log\n');
  const rel = await loadConfigFiles([relative], silentLogger);
  assert.notEqual(dir, process.cwd());
  assert.deepEqual(rel.logFiles, [join(process.cwd(), 'logs', 'app.log'), join(process.cwd(), 'old.log')]);
  assert.equal((rel.kwokDocuments[0]?.spec as { logs: Array<{ logsFile: string }> }).logs[0]?.logsFile, join(process.cwd(), 'logs', 'app.log'));
});

test('Exec, Attach and PortForward kinds: checked where the file is known, attach files collected', async () => {
  const good = file('streaming-good.yaml', `kind: ClusterAttach
metadata: {name: all}
spec:
  attaches:
  - logsFile: /var/log/fake/attach.log
---
kind: ClusterExec
metadata: {name: all}
spec:
  execs:
  - local: {envs: [{name: A, value: b}]}
---
kind: PortForward
metadata: {name: web-0, namespace: default}
spec:
  forwards:
  - ports: [80]
    target: {port: 8080, address: 127.0.0.1}
`);
  const loaded = await loadConfigFiles([good], silentLogger);
  assert.deepEqual(loaded.logFiles, ['/var/log/fake/attach.log']);
  assert.deepEqual(loaded.kwokDocuments.map((d) => d.kind), ['ClusterAttach', 'ClusterExec', 'PortForward']);

  const typo = file('exec-typo.yaml', 'kind: ClusterExec\nmetadata: {name: e}\nspec:\n  execs:\n  - local: {workdir: /tmp}\n');
  await assert.rejects(
    loadConfigFiles([typo], silentLogger),
    (e: unknown) => e instanceof UsageError && e.message === `config file ${typo}: ClusterExec "e": unknown field "spec.execs[0].local.workdir"` && /selector\.matchNamespaces/.test(e.hint ?? ''),
  );
  const relative = file('attach-relative.yaml', 'kind: Attach\nmetadata: {name: p}\nspec:\n  attaches:\n  - logsFile: attach.log\n');
  // A relative attach file, like a relative log file, is taken from the current directory (kwokctl v0.8.0).
  assert.deepEqual((await loadConfigFiles([relative], silentLogger)).logFiles, [join(process.cwd(), 'attach.log')]);
});
