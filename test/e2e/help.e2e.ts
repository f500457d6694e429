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
