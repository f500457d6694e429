import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildKwokController } from '../../../src/components/kwok-controller.js';
import { networkPlacement } from '../../../src/components/index.js';
import { defaultOptionValues } from '../../../src/config/options.js';
import { sampleSpec } from './sample-spec.js';

test('options.kwokControllerBinary: that program runs as the controller, with the flags kwokctl passes (no --id, no entry script)', () => {
  const c = buildKwokController(sampleSpec({ options: { ...defaultOptionValues(), kwokControllerBinary: '/opt/kwok/kwok', heartbeatFactor: 1, nodeLeaseDurationSeconds: 200 } }));
  assert.deepEqual(c.program, { path: '/opt/kwok/kwok' });
  assert.equal(c.args[0], '--manage-all-nodes=true');
  assert.ok(c.args.includes('--node-lease-duration-seconds=200'));
  assert.ok(!c.args.some((a) => a.startsWith('--id=') || a.endsWith('main.js')));
});

test('without it, or in a container, the embedded controller runs', () => {
  const embedded = buildKwokController(sampleSpec());
  // Its own executable (bin/kwok-controller.js), so kwokctl's executable-named pid files match.
  assert.deepEqual(embedded.program, { path: '/pkg/bin/kwok-controller.js' });
  assert.equal(embedded.args[0], '--manage-all-nodes=true');
  assert.ok(embedded.args.includes('--id=kwok-c1-controller'));
  const inContainer = buildKwokController(sampleSpec({ options: { ...defaultOptionValues(), kwokControllerBinary: '/opt/kwok/kwok' }, placement: networkPlacement('c1') }));
  assert.notDeepEqual(inContainer.program, { path: '/opt/kwok/kwok' });
  assert.ok(inContainer.args.includes('--id=kwok-c1-controller'));
});

test('only the embedded controller on the host is started with NODE_EXTRA_CA_CERTS deferred (it takes it back itself)', () => {
  assert.equal(buildKwokController(sampleSpec()).defersExtraCaCerts, true);
  assert.equal(buildKwokController(sampleSpec({ options: { ...defaultOptionValues(), kwokControllerBinary: '/opt/kwok/kwok' } })).defersExtraCaCerts, undefined);
  assert.equal(buildKwokController(sampleSpec({ placement: networkPlacement('c1') })).defersExtraCaCerts, undefined);
});
