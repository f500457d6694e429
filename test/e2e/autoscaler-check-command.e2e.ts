/** `kwokts autoscaler check` as a user runs it: the built CLI, no cluster. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { kwokts, ROOT, sandbox, type Sandbox } from './harness.js';

const EXAMPLE = join(ROOT, 'templates', 'autoscaler', 'kwok-provider-configmaps.yaml');

describe('kwokts autoscaler check', () => {
  let box: Sandbox;
  before(() => (box = sandbox()));
  after(() => box.cleanup());

  test('the shipped example is fine and names its nodegroups', async () => {
    const r = await kwokts(box, ['autoscaler', 'check', '-f', EXAMPLE]);
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout, 'default: ok, nodegroups small, large');
  });

  test('templates without the nodegroup label: each problem on stdout, one error line, exit 2', async () => {
    const broken = readFileSync(EXAMPLE, 'utf8').replace(/^\s+kwok-nodegroup: large\n/m, '');
    const r = await kwokts(box, ['autoscaler', 'check', '-n', 'autoscaling', '-f', '-'], { input: broken });
    assert.equal(r.exitCode, 2);
    assert.equal(r.stdout, 'problem: autoscaling/kwok-provider-templates: template node "large" lacks the label "kwok-nodegroup" (nodegroups.fromNodeLabelKey); the kwok provider skips it silently');
    assert.match(r.stderr, /^error: 1 problem in the kwok provider ConfigMaps$/m);
  });

  test('bad input: a file without the config, a missing file', async () => {
    const none = await kwokts(box, ['autoscaler', 'check', '-f', join(ROOT, 'templates', 'autoscaler', 'workload.yaml')]);
    assert.equal(none.exitCode, 2);
    assert.match(none.stderr, /^error: no ConfigMap named kwok-provider-config in .*workload\.yaml$/m);
    const missing = await kwokts(box, ['autoscaler', 'check', '-f', '/nonexistent.yaml']);
    assert.equal(missing.exitCode, 2);
    assert.match(missing.stderr, /^error: \/nonexistent\.yaml does not exist$/m);
  });
});
