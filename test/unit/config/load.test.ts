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
  assert.throws(() => resolveOptionValues({}, { KWOK_ETCD_PORT: 'x' }, {}), /KWOK_ETCD_PORT: expected integer/);
});

test('stdin is read for -', async () => {
  const loaded = await loadConfigFiles(['-'], silentLogger, async () => 'kind: KwokctlConfiguration\noptions: {etcdPort: 7}\n');
  assert.equal(loaded.fileOptions.etcdPort, 7);
  assert.deepEqual(loaded.sources, ['<stdin>']);
});
