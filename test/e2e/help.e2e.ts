/** `kwokts --help`: every topic is described as a whole, not by the summary of one of its commands. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kwokts, sandbox, failure } from './harness.js';

test('--help lists the topics with their own descriptions, and every command', async () => {
  const box = sandbox();
  try {
    const result = await kwokts(box, ['--help']);
    assert.equal(result.exitCode, 0, failure(result));
    for (const [topic, description] of [
      ['get', /List clusters, components, artifacts, or print a kubeconfig/],
      ['config', /View, save \(tidy\), reset or convert configuration/],
      ['snapshot', /Save, restore or export a cluster's objects/],
    ] as const) {
      assert.match(result.stdout, new RegExp(`^  ${topic}\\s+${description.source}`, 'm'), `topic ${topic}`);
    }
    for (const command of ['deploy', 'etcdctl', 'kubectl', 'kwok', 'logs', 'port-forward', 'scale']) assert.match(result.stdout, new RegExp(`^  ${command}\\s`, 'm'));
  } finally {
    box.cleanup();
  }
});

test('create cluster --help: every default is the value create would use, resolved as `config view`; ignored flags say so', async () => {
  const box = sandbox();
  try {
    const plain = await kwokts(box, ['create', 'cluster', '--help']);
    assert.equal(plain.exitCode, 0, failure(plain));
    const help = plain.stdout;
    // A flag's block: its line and the indented lines under it.
    const block = (flag: string): string => new RegExp(`^  ${flag.replace(/[[\]]/g, '\\$&')}\\b.*\\n(?:      .*\\n)*`, 'm').exec(help)?.[0] ?? '';
    assert.doesNotMatch(help, /default: (securePort|kubeAuthorization)/);
    assert.match(block('--[no-]secure-port'), /\[default: true\]/);
    assert.match(block('--[no-]kube-authorization'), /\[default: true\]/);
    for (const [flag, value] of [
      ['--bind-address', '127.0.0.1'],
      ['--heartbeat-factor', '5'],
      ['--node-lease-duration-seconds', '40'],
      ['--etcd-quota-backend-size', '8Gi'],
      ['--etcd-prefix', '/registry'],
      ['--build-from-source', 'auto'],
      ['--metrics-server-image', 'registry.k8s.io/metrics-server/metrics-server:v0.9.0'],
    ] as const) {
      assert.ok(block(flag).includes(`[default: ${value}]`), `${flag}:\n${block(flag)}`);
    }
    // No list flag shows an empty default.
    assert.doesNotMatch(help, /\[default: \]/);
    // Words are not cut: the variable names stay whole.
    assert.match(block('--metrics-server-image'), /\$\{KWOK_METRICS_SERVER_IMAGE_PREFIX\}\/metrics-server:\$\{KWOK_METRICS_SERVER_VERSION\}/);
    assert.match(block('--kube-apiserver-insecure-port'), /ignored by kwokts/);
    assert.doesNotMatch(block('--kube-apiserver-insecure-port'), /kubectl proxy/);
    // Variables and config files are the defaults' source, as for `config view`.
    box.env.KWOK_KUBE_VERSION = 'v1.35.0';
    box.env.KWOK_SECURE_PORT = 'false';
    const resolved = await kwokts(box, ['create', 'cluster', '-h']);
    assert.equal(resolved.exitCode, 0, failure(resolved));
    assert.match(resolved.stdout, /\[default: registry\.k8s\.io\/kube-apiserver:v1\.35\.0\]/);
    assert.doesNotMatch(resolved.stdout, /--\[no-\]kube-authorization\n\s+\[default: true\]/);
  } finally {
    box.cleanup();
  }
});
