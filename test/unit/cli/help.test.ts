import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTagsOnly, wrapWords } from '../../../src/cli/help.js';
import { flagDescription } from '../../../src/cli/option-flags.js';
import { optionFlagDefaults } from '../../../src/cluster/option-defaults.js';
import { OPTION_SPECS, type OptionSpec } from '../../../src/config/options.js';
import { resolveOptionValues, unsupportedOptionWarnings } from '../../../src/config/resolve.js';

const LINUX = { os: 'linux', arch: 'amd64' };
const defaults = (env: NodeJS.ProcessEnv = {}, files = {}): Map<string, string> => optionFlagDefaults(resolveOptionValues(files, env, {}), '/w', LINUX);

test('help defaults are the values create uses, not field names, and none is missing', () => {
  const shown = defaults();
  // Once shown as `(default: securePort)` and `(default: kubeAuthorization)`.
  assert.equal(shown.get('secure-port'), 'true');
  assert.equal(shown.get('kube-authorization'), 'true');
  assert.equal(shown.get('kube-admission'), 'true');
  // Once shown with no default at all.
  for (const [flag, value] of [
    ['bind-address', '127.0.0.1'],
    ['heartbeat-factor', '5'],
    ['node-lease-duration-seconds', '40'],
    ['etcd-quota-backend-size', '8Gi'],
    ['etcd-prefix', '/registry'],
    ['build-from-source', 'auto'],
    ['components', 'etcd,kube-apiserver,kube-controller-manager,kube-scheduler,kwok-controller'],
    ['kube-apiserver-image', 'registry.k8s.io/kube-apiserver:v1.36.1'],
    ['kwok-controller-image', 'ghcr.io/kwokts/kwok:v0.1.0'],
    ['kube-apiserver-binary', 'https://dl.k8s.io/release/v1.36.1/bin/linux/amd64/kube-apiserver'],
    ['etcd-binary', 'https://github.com/etcd-io/etcd/releases/download/v3.6.10/etcd-v3.6.10-linux-amd64.tar.gz#etcd'],
  ] as const) {
    assert.equal(shown.get(flag), value, flag);
  }
  // A random port has no one value to name.
  assert.equal(shown.get('kube-apiserver-port'), '');
});

test('help defaults are resolved as `config view` resolves them: config files, then KWOK_* variables', () => {
  const shown = defaults({ KWOK_KUBE_VERSION: 'v1.35.0', KWOK_SECURE_PORT: 'false', KWOK_BIND_ADDRESS: '0.0.0.0' }, { etcdPrefix: '/mine', bindAddress: '10.0.0.1' });
  assert.equal(shown.get('kube-apiserver-image'), 'registry.k8s.io/kube-apiserver:v1.35.0');
  assert.equal(shown.get('kube-apiserver-binary'), 'https://dl.k8s.io/release/v1.35.0/bin/linux/amd64/kube-apiserver');
  assert.equal(shown.get('etcd-prefix'), '/mine');
  assert.equal(shown.get('bind-address'), '0.0.0.0');
  // kwokctl: authorization follows securePort, admission follows authorization.
  assert.equal(shown.get('kube-authorization'), 'false');
  assert.equal(shown.get('kube-admission'), 'false');
  // A mirror, or building instead of downloading, is where the binary comes from.
  assert.equal(defaults({ KWOK_KUBE_BINARY_PREFIX: 'https://mirror.example/k8s' }).get('kube-scheduler-binary'), 'https://mirror.example/k8s/kube-scheduler');
  assert.match(defaults({ KWOK_BUILD_FROM_SOURCE: 'always' }).get('kube-scheduler-binary')!, /^go build k8s\.io\/kubernetes\/cmd\/kube-scheduler@v1\.36\.1/);
});

test('every flag whose value create ignores says so in its help', () => {
  const ignoring: string[] = [];
  for (const spec of OPTION_SPECS as readonly OptionSpec[]) {
    if (!spec.flag) continue;
    // Values a user might give: create warns (and ignores) for each one kwokts does not honour.
    const tries: unknown[] = spec.type === 'boolean' ? [!spec.default] : spec.type === 'strings' ? [['x']] : spec.type === 'string' ? ['https://example.com/x', '/some/path'] : [12345];
    const warned = tries.some((value) => unsupportedOptionWarnings({ fileOptions: {}, optionSources: {}, env: {}, flags: { [spec.key]: value } }, '/w').length > 0);
    if (!warned) continue;
    ignoring.push(spec.flag);
    assert.match(flagDescription(spec), /ignored by kwokts|kwokts ignores/, `--${spec.flag}: ${flagDescription(spec)}`);
  }
  // The ones the issue named, and the partial ones.
  for (const flag of ['kube-apiserver-insecure-port', 'kueueviz-port', 'secure-port', 'kwok-controller-binary', 'kind-binary']) assert.ok(ignoring.includes(flag), flag);
  assert.doesNotMatch(flagDescription(OPTION_SPECS.find((s) => s.key === 'kubeApiserverInsecurePort')!), /kubectl proxy/);
});

test('help text wraps at spaces: a variable name or URL longer than the line stays whole', () => {
  const long = '${KWOK_METRICS_SERVER_IMAGE_PREFIX}/metrics-server:${KWOK_METRICS_SERVER_VERSION}';
  const wrapped = wrapWords(`Image of metrics-server, for docker/podman/nerdctl/kind (${long} when unset)`, 40);
  assert.ok(wrapped.split('\n').includes(`(${long}`), wrapped);
  for (const line of wrapped.split('\n')) assert.ok(line.length <= 40 || !line.includes(' '), `${line.length}: ${line}`);
  assert.equal(wrapWords('one two three\nfour', 9), 'one two\nthree\nfour');
});

test('help texts go through EJS only when they have a tag', () => {
  const rendered: string[] = [];
  const render = renderTagsOnly((input) => {
    rendered.push(input);
    return input.replace('<%= config.bin %>', 'kwokts');
  });
  assert.equal(render('where kubeconfig <is> kept (default: 50%)'), 'where kubeconfig <is> kept (default: 50%)');
  assert.equal(render('<%= config.bin %> create cluster'), 'kwokts create cluster');
  assert.deepEqual(rendered, ['<%= config.bin %> create cluster']);
});
