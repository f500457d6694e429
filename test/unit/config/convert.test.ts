import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { convertConfigFiles, convertConfigText } from '../../../src/config/convert.js';
import { parseYamlDocuments } from '../../../src/gocompat/yaml/yaml.js';
import { parseStages, type Stage } from '../../../src/kwok/api/index.js';
import { UsageError } from '../../../src/util/errors.js';
import { createLogger, LogLevel, silentLogger } from '../../../src/util/log.js';
import { templatePath } from '../../../src/util/package-root.js';

const dir = mkdtempSync(join(tmpdir(), 'kwokts-convert-'));

/** A Stage in kwok's deprecated spellings: next, a flat matchExpression, expressionFrom. */
const OLD_STAGE = `kind: Stage
metadata:
  name: pod-ready
  labels: {keep: "yes"}
spec:
  resourceRef: {kind: Pod}
  selector:
    matchLabels: {app: web}
    matchExpressions:
    - key: .metadata.deletionTimestamp
      operator: DoesNotExist
    - key: .status.phase
      operator: In
      values: [Pending]
  weightFrom:
    expressionFrom: .metadata.annotations.weight
  delay:
    durationMilliseconds: 1000
    jitterDurationFrom:
      expressionFrom: .metadata.annotations.jitter
  next:
    event: {type: Normal, reason: Ready, message: ready}
    finalizers:
      add: [{value: kwok.x-k8s.io/fake}]
    statusTemplate: |
      phase: Running
    statusPatchAs: {username: kubelet}
    delete: false
`;

const internal = (stages: Stage[]): Array<Omit<Stage, 'source'>> => stages.map(({ source: _source, ...rest }) => rest);

function stagesOf(text: string): Array<Omit<Stage, 'source'>> {
  const { stages, errors } = parseStages(parseYamlDocuments(text), 'x');
  assert.deepEqual(errors, []);
  return internal(stages);
}

async function convertError(text: string, source = 'bad.yaml'): Promise<UsageError> {
  try {
    await convertConfigText(text, source, silentLogger);
  } catch (error) {
    assert.ok(error instanceof UsageError, `expected a UsageError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the conversion to fail');
}

test('a deprecated Stage becomes the current form, and means exactly the same to the engine', async () => {
  const out = await convertConfigText(OLD_STAGE, 'old.yaml', silentLogger);
  const [doc] = parseYamlDocuments(out) as Array<Record<string, any>>;
  assert.equal(doc!.apiVersion, 'kwok.x-k8s.io/v1alpha1');
  assert.deepEqual(Object.keys(doc!).slice(0, 2), ['apiVersion', 'kind']);
  assert.equal(doc!.spec.next, undefined);
  assert.deepEqual(doc!.spec.selector.matchExpressions, [
    { jq: { key: '.metadata.deletionTimestamp', operator: 'DoesNotExist' } },
    { jq: { key: '.status.phase', operator: 'In', values: ['Pending'] } },
  ]);
  assert.deepEqual(doc!.spec.weightFrom, { jq: { expression: '.metadata.annotations.weight' } });
  assert.deepEqual(doc!.spec.delay, { durationMilliseconds: 1000, jitterDurationFrom: { jq: { expression: '.metadata.annotations.jitter' } } });
  assert.deepEqual(doc!.spec.steps, [
    { event: { type: 'Normal', reason: 'Ready', message: 'ready' } },
    { finalizers: { add: [{ value: 'kwok.x-k8s.io/fake' }] } },
    { patch: { root: 'status', template: 'phase: Running\n', subresource: 'status', impersonation: { username: 'kubelet' } } },
  ]);
  // Metadata the engine does not read is kept; "yes" stays a string for YAML 1.1 readers.
  assert.deepEqual(doc!.metadata, { name: 'pod-ready', labels: { keep: 'yes' } });
  assert.match(out, /keep: "yes"/);
  assert.deepEqual(stagesOf(out), stagesOf(OLD_STAGE));
});

test('converting is idempotent, and the shipped stage sets are already current (same meaning, same text twice)', async () => {
  const once = await convertConfigText(OLD_STAGE, 'old.yaml', silentLogger);
  assert.equal(await convertConfigText(once, 'once.yaml', silentLogger), once);
  const dirOfStages = templatePath('stages');
  for (const name of readdirSync(dirOfStages)) {
    const text = readFileSync(join(dirOfStages, name), 'utf8');
    const converted = await convertConfigText(text, name, silentLogger);
    assert.deepEqual(stagesOf(converted), stagesOf(text), name);
    assert.equal(await convertConfigText(converted, name, silentLogger), converted, name);
  }
});

test('next is dropped where steps are set (kwok ignores it there); steps are kept as written', async () => {
  const text = `kind: Stage
apiVersion: kwok.x-k8s.io/v1alpha1
metadata: {name: s}
spec:
  resourceRef: {kind: Node}
  selector: {}
  steps:
  - delete: true
  next:
    statusTemplate: "x: y"
`;
  const [doc] = parseYamlDocuments(await convertConfigText(text, 's.yaml', silentLogger)) as Array<Record<string, any>>;
  assert.deepEqual(doc!.spec.steps, [{ delete: true }]);
  assert.equal('next' in doc!.spec, false);
  assert.deepEqual(stagesOf(await convertConfigText(text, 's.yaml', silentLogger)), stagesOf(text));
});

test('every kind gets its current apiVersion; documents keep their order and their own fields', async () => {
  const text = `kind: KwokConfiguration
options: {cidr: 10.1.0.0/16}
---
apiVersion: kwok.x-k8s.io/v1alpha1
kind: KwokctlConfiguration
options:
  kubeApiserverPort: 32766
  enable: [prometheus]
componentsPatches:
- name: kube-apiserver
  extraArgs: [{key: v, value: "4"}]
---
kind: KwokctlResource
metadata: {name: widget}
parameters: {replicas: 1}
template: "x"
---
kind: ClusterLogs
metadata: {name: all}
spec: {selector: {}, logs: []}
`;
  const docs = parseYamlDocuments(await convertConfigText(text, 'mixed.yaml', silentLogger)) as Array<Record<string, any>>;
  assert.deepEqual(docs.map((d) => [d.apiVersion, d.kind]), [
    ['config.kwok.x-k8s.io/v1alpha1', 'KwokConfiguration'],
    ['config.kwok.x-k8s.io/v1alpha1', 'KwokctlConfiguration'],
    ['config.kwok.x-k8s.io/v1alpha1', 'KwokctlResource'],
    ['kwok.x-k8s.io/v1alpha1', 'ClusterLogs'],
  ]);
  assert.deepEqual(docs[1]!.options, { kubeApiserverPort: 32766, enable: ['prometheus'] }, 'no defaults are filled in');
  assert.deepEqual(docs[1]!.componentsPatches, [{ name: 'kube-apiserver', extraArgs: [{ key: 'v', value: '4' }] }]);
  assert.deepEqual(docs[2]!.parameters, { replicas: 1 });
});

test("kwokctl's first config format becomes a KwokctlConfiguration", async () => {
  const warnings: string[] = [];
  const logger = createLogger(LogLevel.WARN, (line) => warnings.push(line));
  const text = `name: kwok-old
workdir: /home/u/.kwok/clusters/old
runtime: binary
kube_apiserver_port: 32000
etcd_port: 2379
kube_feature_gates: A=true
audit_policy: /etc/audit.yaml
authorization: true
disable_kube_scheduler: true
disable_kube_controller_manager: false
docker_compose_binary: /usr/bin/docker-compose
`;
  const [doc] = parseYamlDocuments(await convertConfigText(text, 'kwok.yaml', logger)) as Array<Record<string, any>>;
  assert.deepEqual(doc, {
    apiVersion: 'config.kwok.x-k8s.io/v1alpha1',
    kind: 'KwokctlConfiguration',
    options: {
      runtime: 'binary',
      kubeApiserverPort: 32000,
      etcdPort: 2379,
      kubeFeatureGates: 'A=true',
      kubeAuditPolicy: '/etc/audit.yaml',
      kubeAuthorization: true,
      disable: ['kube-scheduler'],
    },
  });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /docker_compose_binary .* dropped/);
});

test('bad input: one UsageError naming the file', async () => {
  const cases: Array<[string, string, RegExp]> = [
    ['YAML error', 'kind: Stage\n  bad: [', /^config file bad\.yaml: invalid YAML: line \d+/],
    ['no kind', 'metadata: {name: x}\n', /^config file bad\.yaml: a document has no kind/],
    ['not a mapping', '- a\n- b\n', /^config file bad\.yaml: document 1 is not a mapping/],
    ['unknown kind', 'kind: Deployment\napiVersion: apps/v1\n', /^config file bad\.yaml: unknown kind "Deployment"/],
    ['foreign apiVersion', 'kind: Stage\napiVersion: apps/v1\nmetadata: {name: s}\nspec: {resourceRef: {kind: Pod}, selector: {}}\n', /^config file bad\.yaml: Stage "s" has apiVersion "apps\/v1", which is not a kwok API version/],
    ['unknown option', 'kind: KwokctlConfiguration\noptions: {kubeApiServerPort: 1}\n', /^config file bad\.yaml: unknown field options\.kubeApiServerPort/],
    ['invalid Stage', 'kind: Stage\nmetadata: {name: s}\nspec: {resourceRef: {kind: Pod}, selector: {}, steps: [{patch: {type: sideways}}]}\n', /^config file bad\.yaml: stage "s": spec\.steps\[0\]\.patch\.type/],
    ['bad jq in a Stage', 'kind: Stage\nmetadata: {name: s}\nspec: {resourceRef: {kind: Pod}, selector: {matchExpressions: [{key: ".a[", operator: Exists}]}}\n', /^config file bad\.yaml: stage "s": spec\.selector\.matchExpressions\[0\]/],
  ];
  for (const [what, text, message] of cases) {
    const error = await convertError(text);
    assert.match(error.message, message, what);
    assert.equal(error.message.includes('\n'), false, `${what}: one line`);
  }
});

test('an empty file converts to nothing, with a warning', async () => {
  const warnings: string[] = [];
  assert.equal(await convertConfigText('# only a comment\n', 'empty.yaml', createLogger(LogLevel.WARN, (l) => warnings.push(l))), '');
  assert.match(warnings.join('\n'), /empty\.yaml has no documents/);
});

test('files: missing one is an error before anything; mode and symlink target are kept for -w; stdin', async () => {
  const real = join(dir, 'real.yaml');
  writeFileSync(real, OLD_STAGE);
  chmodSync(real, 0o600);
  const link = join(dir, 'link.yaml');
  symlinkSync(real, link);
  const current = join(dir, 'current.yaml');
  writeFileSync(current, await convertConfigText(OLD_STAGE, 'x', silentLogger));
  const [viaLink, already] = await convertConfigFiles([link, current], silentLogger);
  assert.equal(viaLink!.target, real);
  assert.equal(viaLink!.mode, 0o600);
  assert.equal(viaLink!.changed, true);
  assert.equal(already!.changed, false);
  await assert.rejects(convertConfigFiles([current, join(dir, 'missing.yaml')], silentLogger), (error: Error) => error instanceof UsageError && /missing\.yaml does not exist/.test(error.message));
  const [fromStdin] = await convertConfigFiles(['-'], silentLogger, async () => OLD_STAGE);
  assert.equal(fromStdin!.text, viaLink!.text);
  await assert.rejects(convertConfigFiles([dir], silentLogger), /is not a file/);
});
