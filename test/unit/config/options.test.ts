import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultOptionValues, OPTION_SPECS, upstreamDefaults, type OptionSpec } from '../../../src/config/options.js';
import { applyHeartbeatFactor, componentSelection, resolveOptionValues, unsupportedOptionWarnings } from '../../../src/config/resolve.js';
import { loadConfigFiles } from '../../../src/config/load.js';
import { parseYamlDocuments } from '../../../src/gocompat/yaml/yaml.js';
import { deprecatedFlagWarnings, optionFlags } from '../../../src/cli/option-flags.js';
import { UsageError } from '../../../src/util/errors.js';
import { silentLogger } from '../../../src/util/log.js';

const specs = OPTION_SPECS as readonly OptionSpec[];
const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'kwokctl-tidy');
const linux = { goos: 'linux', goarch: 'amd64' };
const dir = mkdtempSync(join(tmpdir(), 'kwokts-options-'));
const file = (name: string, text: string): string => {
  const p = join(dir, name);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, text);
  return p;
};
const noInputs = { fileOptions: {}, optionSources: {}, env: {}, flags: {} };

test('the table: every config key, flag and variable appears once; defaults have the declared type', () => {
  for (const column of ['key', 'flag', 'env'] as const) {
    const names = specs.map((s) => s[column]).filter((n) => n !== undefined);
    assert.deepEqual(names.filter((n, i) => names.indexOf(n) !== i), [], `duplicate ${column}`);
  }
  for (const s of specs) {
    const ok = { string: typeof s.default === 'string', boolean: typeof s.default === 'boolean', strings: Array.isArray(s.default), uint: Number.isInteger(s.default) && (s.default as number) >= 0, int: Number.isInteger(s.default), float: typeof s.default === 'number' }[s.type];
    assert.ok(ok, `${s.key}: default ${JSON.stringify(s.default)} is not a ${s.type}`);
    if (s.env) assert.match(s.env, /^KWOK_[A-Z_]+$/);
    if (s.honour !== 'applied') assert.ok(s.note, `${s.key}: ${s.honour} needs a note`);
  }
  // kwokctl v0.8.0's KwokctlConfigurationOptions has 120 fields; kwokts adds buildFromSource.
  assert.equal(specs.filter((s) => !s.kwoktsOnly).length, 120);
});

test("the table's kwokctl defaults are what `kwokctl config tidy` writes", () => {
  const [doc] = parseYamlDocuments(readFileSync(join(fixtures, 'defaults.yaml'), 'utf8')) as Array<{ options: Record<string, unknown> }>;
  const upstream = upstreamDefaults({}, '/home/user/.kwok', linux);
  for (const [key, value] of Object.entries(doc!.options)) assert.deepEqual(upstream.get(key), value, key);
  // ...also when derived from other options (kubeVersion v1.33.0 moves images, binaries and etcd).
  const [, withOptions] = parseYamlDocuments(readFileSync(join(fixtures, 'options.yaml'), 'utf8')) as Array<{ options: Record<string, unknown> }>;
  const given = { kubeVersion: 'v1.33.0' };
  const derived = upstreamDefaults(given, '/home/user/.kwok', linux);
  for (const key of ['etcdVersion', 'etcdImage', 'etcdBinary', 'kubeApiserverImage', 'kubectlBinary', 'kindNodeImage']) assert.deepEqual(derived.get(key), withOptions!.options[key], key);
});

test('flags: one oclif flag per table flag; deprecated ones hidden; types shown as pflag names', () => {
  const flags = optionFlags();
  assert.deepEqual(Object.keys(flags).sort(), specs.filter((s) => s.flag).map((s) => s.flag!).sort());
  assert.equal(flags['disable-kube-scheduler']?.hidden, true);
  assert.equal(flags['kube-apiserver-port']?.hidden, false);
  assert.equal((flags['heartbeat-factor'] as { helpValue?: string }).helpValue, 'float');
  assert.deepEqual(deprecatedFlagWarnings({ disableKubeScheduler: true, dashboardPort: '1' }), ['flag --disable-kube-scheduler has been deprecated, use --disable kube-scheduler']);
});

test('precedence flag > env > config > default, for every type; lists are replaced, not merged', () => {
  const v = resolveOptionValues(
    { heartbeatFactor: 2, enable: ['prometheus'], quietPull: false, kubeFeatureGates: 'A=true' },
    { KWOK_QUIET_PULL: 'T', KWOK_KUBE_FEATURE_GATES: 'B=true' },
    { heartbeatFactor: '1.5', kubeFeatureGates: 'C=true' },
  );
  assert.equal(v.heartbeatFactor, 1.5);
  assert.equal(v.quietPull, true);
  assert.equal(v.kubeFeatureGates, 'C=true');
  assert.deepEqual(v.enable, ['prometheus']);
  assert.deepEqual(resolveOptionValues({ enable: ['prometheus'] }, {}, { enable: ['kube-scheduler'] }).enable, ['kube-scheduler']);
  assert.throws(() => resolveOptionValues({}, {}, { heartbeatFactor: 'x' }), (e: unknown) => e instanceof UsageError && e.message === 'flag --heartbeat-factor: expected a number, got "x"');
  assert.throws(() => resolveOptionValues({}, {}, { kubeApiserverPort: '-1' }), /flag --kube-apiserver-port: expected a non-negative integer/);
});

test("kwokctl's derived values: authorization follows securePort, admission follows authorization; archives feed the binaries", () => {
  const v = resolveOptionValues({ kubeAuthorization: false }, {}, {});
  assert.equal(v.kubeAdmission, false);
  // KWOK_KUBE_AUTHORIZATION is read after admission took its default (kwokctl v0.8.0).
  assert.equal(resolveOptionValues({}, { KWOK_KUBE_AUTHORIZATION: 'false' }, {}).kubeAdmission, true);
  const tar = resolveOptionValues({}, { KWOK_ETCD_BINARY_TAR: '/opt/etcd.tar.gz' }, {});
  assert.equal(tar.etcdBinary, '/opt/etcd.tar.gz#etcd');
  assert.equal(tar.etcdctlBinary, '/opt/etcd.tar.gz#etcdctl');
  assert.equal(resolveOptionValues({ kwokBinaryPrefix: '/opt/kwok' }, {}, {}).kwokControllerBinary, `/opt/kwok/kwok-${process.platform === 'darwin' ? 'darwin' : 'linux'}-${process.arch === 'x64' ? 'amd64' : process.arch}`);
  assert.equal(resolveOptionValues({ runtimes: ['binary'] }, {}, {}).runtime, 'binary');
});

test('heartbeat factor: applied once at create, truncated like Go, then 1', () => {
  const v = applyHeartbeatFactor({ ...defaultOptionValues(), heartbeatFactor: 0.3 });
  assert.equal(v.nodeLeaseDurationSeconds, 12);
  assert.equal(v.kubeControllerManagerNodeMonitorGracePeriodMilliseconds, 12000);
  assert.equal(v.heartbeatFactor, 1);
  assert.equal(applyHeartbeatFactor(v), v);
});

test('component selection: base set, enable, disable and the deprecated switches', () => {
  const v = { ...defaultOptionValues(), disable: ['kube-controller-manager'], disableKubeScheduler: true, prometheusPort: 9090 };
  assert.deepEqual(componentSelection(v), { base: [], enable: ['prometheus'], disable: ['kube-controller-manager', 'kube-scheduler'] });
});

test('a file written by kwokctl config tidy loads; its pinned defaults change nothing and warn nothing', async () => {
  const loaded = await loadConfigFiles([join(fixtures, 'defaults.yaml')], silentLogger);
  const values = resolveOptionValues(loaded.fileOptions, {}, {});
  // Go kwok's image and binary, kind's download and the runtime order mean "the default" here.
  assert.equal(values.kwokControllerImage, '');
  assert.equal(values.kwokControllerBinary, '');
  assert.equal(values.kindBinary, '');
  assert.deepEqual(values.runtimes, []);
  assert.equal(values.runtime, '');
  // kwokctl's 0.0.0.0, pinned by tidy, is no choice: kwokts stays on loopback. A variable is a choice.
  assert.equal(values.bindAddress, '127.0.0.1');
  assert.equal(resolveOptionValues(loaded.fileOptions, { KWOK_BIND_ADDRESS: '0.0.0.0' }, {}).bindAddress, '0.0.0.0');
  assert.equal(resolveOptionValues(loaded.fileOptions, { KWOK_CONTROLLER_IMAGE: 'registry.k8s.io/kwok/kwok:v0.8.0' }, {}).kwokControllerImage, 'registry.k8s.io/kwok/kwok:v0.8.0');
  assert.equal(values.etcdVersion, '3.6.10-0');
  assert.deepEqual(unsupportedOptionWarnings({ ...noInputs, ...loaded }, '/home/user/.kwok'), []);
});

test('a tidy file with options: applied, paths taken from the file', async () => {
  const loaded = await loadConfigFiles([join(fixtures, 'options.yaml')], silentLogger);
  const v = resolveOptionValues(loaded.fileOptions, {}, {});
  assert.equal(v.kubeVersion, 'v1.33.0');
  assert.equal(v.runtime, 'binary');
  assert.equal(v.kubeApiserverPort, 32100);
  assert.equal(v.heartbeatFactor, 2.5);
  assert.deepEqual(v.kubeApiserverCertSANs, ['kwok.example', '10.0.0.9']);
  assert.equal(v.kubeAuditPolicy, join(fixtures, 'audit-policy.yaml'));
  assert.deepEqual(loaded.logFiles, ['/var/log/kwok-fixture/logs.log']);
  assert.deepEqual(unsupportedOptionWarnings({ ...noInputs, ...loaded }, '/home/user/.kwok'), []);
});

test('unsupported values: one warning line each, naming where the value came from', async () => {
  const p = file('unsupported.yaml', 'kind: KwokctlConfiguration\noptions:\n  dashboardImage: me/dashboard:1\n  kwokVersion: v0.8.0\n  securePort: false\n');
  const loaded = await loadConfigFiles([p], silentLogger);
  const flags = { dashboardPort: '8000' };
  const env = { KWOK_KUEUE_VERSION: 'v0.1.0' };
  assert.deepEqual(unsupportedOptionWarnings({ ...loaded, env, flags }, dir), [
    'environment variable KWOK_KUEUE_VERSION (kueueVersion) is not supported by kwokts and is ignored: kwokts has no such component yet',
    `config file ${p}: options.securePort is not supported by kwokts and is ignored: the apiserver always serves TLS; false is not supported`,
    `config file ${p}: options.dashboardImage is not supported by kwokts and is ignored: kwokts has no such component yet`,
    'flag --dashboard-port (dashboardPort) is not supported by kwokts and is ignored: kwokts has no such component yet',
  ]);
  // Honoured in part: a kwok binary given as a URL is not downloaded (kwokctl's own default URL means the embedded controller).
  assert.deepEqual(unsupportedOptionWarnings({ ...noInputs, flags: { kwokControllerBinary: 'https://example.invalid/kwok' } }, dir), [
    "flag --kwok-controller-binary (kwokControllerBinary) is not supported by kwokts and is ignored: a path runs that program with kwokctl's controller flags; a URL other than kwokctl's default is not downloaded (warned)",
  ]);
  assert.equal(resolveOptionValues({}, {}, { kwokControllerBinary: 'https://example.invalid/kwok' }).kwokControllerBinary, '');
  // kectl: a path is the kectl `kwokts kectl` runs; a URL is not downloaded.
  assert.deepEqual(unsupportedOptionWarnings({ ...noInputs, env: { KWOK_KECTL_BINARY: '/opt/kectl' } }, dir), []);
  assert.equal(resolveOptionValues({}, { KWOK_KECTL_BINARY: '/opt/kectl' }, {}).kectlBinary, '/opt/kectl');
  assert.deepEqual(unsupportedOptionWarnings({ ...noInputs, fileOptions: { kectlBinary: 'https://example.invalid/kectl' }, optionSources: { kectlBinary: 'my.yaml' } }, dir), [
    'config file my.yaml: options.kectlBinary is not supported by kwokts and is ignored: the kectl `kwokts kectl` runs (unset: kectl on PATH); a URL is not downloaded (warned)',
  ]);
  assert.equal(resolveOptionValues({ kectlBinary: 'https://example.invalid/kectl' }, {}, {}).kectlBinary, '');
});

test('relative paths in a config file are taken from its directory; bare program names and URLs stay', async () => {
  const p = file('sub/paths.yaml', `kind: KwokctlConfiguration
options:
  kubeSchedulerConfig: scheduler.yaml
  kubeAuditPolicy: ../audit.yaml
  kubeApiserverBinary: ./bin/kube-apiserver
  etcdBinary: ./etcd.tar.gz#etcd
  kindBinary: kind
  kectlBinary: ../tools/kectl
  kubectlBinary: https://example.invalid/kubectl
`);
  const { fileOptions } = await loadConfigFiles([p], silentLogger);
  assert.equal(fileOptions.kubeSchedulerConfig, join(dir, 'sub', 'scheduler.yaml'));
  assert.equal(fileOptions.kubeAuditPolicy, join(dir, 'audit.yaml'));
  assert.equal(fileOptions.kubeApiserverBinary, join(dir, 'sub', 'bin', 'kube-apiserver'));
  assert.equal(fileOptions.etcdBinary, `${join(dir, 'sub', 'etcd.tar.gz')}#etcd`);
  assert.equal(fileOptions.kindBinary, 'kind');
  assert.equal(fileOptions.kectlBinary, join(dir, 'tools', 'kectl'));
  assert.equal(fileOptions.kubectlBinary, 'https://example.invalid/kubectl');
});

test('-c DIR: the kustomization\'s resources, depth first; relative paths from each resource file', async () => {
  file('kdir/kustomization.yaml', 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- options.yaml\n- nested\n');
  file('kdir/options.yaml', 'kind: KwokctlConfiguration\noptions: {etcdPort: 2400, kubeAuditPolicy: audit.yaml}\n');
  file('kdir/nested/kustomization.yml', 'resources:\n- logs.yaml\n');
  file('kdir/nested/logs.yaml', 'kind: ClusterLogs\nmetadata: {name: l}\nspec:\n  logs:\n  - logsFile: ./logs.log\n    follow: true\n---\nkind: ClusterAttach\nmetadata: {name: a}\nspec:\n  attaches:\n  - logsFile: attach.log\n');
  const loaded = await loadConfigFiles([join(dir, 'kdir')], silentLogger);
  assert.equal(loaded.fileOptions.etcdPort, 2400);
  assert.equal(loaded.fileOptions.kubeAuditPolicy, join(dir, 'kdir', 'audit.yaml'));
  // Log and attach files are the exception: from the current directory, as kwokctl takes them.
  assert.deepEqual(loaded.logFiles, [join(process.cwd(), 'logs.log'), join(process.cwd(), 'attach.log')]);
  const attach = loaded.kwokDocuments.find((d) => d.kind === 'ClusterAttach') as { spec: { attaches: Array<{ logsFile: string }> } };
  assert.equal(attach.spec.attaches[0]?.logsFile, join(process.cwd(), 'attach.log'));
  assert.deepEqual(loaded.sources, [join(dir, 'kdir', 'options.yaml'), join(dir, 'kdir', 'nested', 'logs.yaml')]);
});

for (const [what, files, message] of [
  ['no kustomization', { 'k1/a.yaml': 'kind: Stage\n' }, /config directory .*k1 has no kustomization\.yaml/],
  ['a kustomize field kwokts does not apply', { 'k2/kustomization.yaml': 'resources: []\nnamePrefix: x-\n' }, /k2\/kustomization\.yaml: kustomization field namePrefix is not supported by kwokts/],
  ['a missing resource', { 'k3/kustomization.yaml': 'resources: [gone.yaml]\n' }, /k3\/kustomization\.yaml: resource gone\.yaml does not exist/],
  ['a cycle', { 'k4/kustomization.yaml': "resources: ['.']\n" }, /includes itself/],
] as const) {
  test(`-c DIR with ${what}: one UsageError naming the file`, async () => {
    for (const [name, text] of Object.entries(files)) file(name, text);
    const root = join(dir, Object.keys(files)[0]!.split('/')[0]!);
    await assert.rejects(loadConfigFiles([root], silentLogger), (e: unknown) => e instanceof UsageError && message.test(e.message));
  });
}

test('a field kwokctl does not have is refused, naming file and field; a null is unset; the old secureport is securePort', async () => {
  const typo = file('typo.yaml', 'kind: KwokctlConfiguration\noptions: {securPort: true}\n');
  await assert.rejects(loadConfigFiles([typo], silentLogger), (e: unknown) => e instanceof UsageError && e.message === `config file ${typo}: unknown field options.securPort in KwokctlConfiguration`);
  const old = file('old.yaml', 'kind: KwokctlConfiguration\noptions: {secureport: true}\n');
  const warnings: string[] = [];
  const loadedOld = await loadConfigFiles([old], { ...silentLogger, warn: (m: string) => warnings.push(m) });
  assert.equal(loadedOld.fileOptions.securePort, true);
  assert.deepEqual(warnings, [`config file ${old}: options.secureport is read as options.securePort, kwokctl's spelling; write that instead`]);
  const nulls = file('null.yaml', 'kind: KwokctlConfiguration\noptions: {etcdPort: null}\n');
  assert.equal((await loadConfigFiles([nulls], silentLogger)).fileOptions.etcdPort, undefined);
});
