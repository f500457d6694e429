import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildKwokController, CONTROLLER_NODE_OPTIONS } from '../../../src/components/kwok-controller.js';
import { withNodeOptions } from '../../../src/exec/real-executor.js';
import { networkPlacement } from '../../../src/components/index.js';
import { defaultOptionValues } from '../../../src/config/options.js';
import { sampleSpec } from './sample-spec.js';

/** The flags Go's kwok v0.8.0 takes (pkg/kwok/cmd/root.go): it stops at any other. */
const goKwokFlags = new Set(['manage-all-nodes', 'kubeconfig', 'config', 'tls-cert-file', 'tls-private-key-file', 'node-ip', 'node-name', 'node-port', 'server-address', 'node-lease-duration-seconds', 'enable-crds', 'v']);

test('options.kwokControllerBinary: that program runs as the controller, with the flags kwokctl passes (no --id, no entry script)', () => {
  const c = buildKwokController(sampleSpec({ options: { ...defaultOptionValues(), kwokControllerBinary: '/opt/kwok/kwok', heartbeatFactor: 1, nodeLeaseDurationSeconds: 200 } }));
  assert.deepEqual(c.program, { path: '/opt/kwok/kwok' });
  assert.equal(c.args[0], '--manage-all-nodes=true');
  assert.ok(c.args.includes('--node-lease-duration-seconds=200'));
  assert.ok(!c.args.some((a) => a.startsWith('--id=') || a.endsWith('main.js')));
});

test("every flag is one Go's kwok knows, on the host and in a container (a user's --kwok-controller-image may be Go's kwok); the identity goes as a variable", () => {
  for (const spec of [sampleSpec(), sampleSpec({ placement: networkPlacement('c1') }), sampleSpec({ enableCrds: ['Stage'], logLevel: -4 })]) {
    const c = buildKwokController(spec);
    for (const arg of c.args) assert.ok(goKwokFlags.has(/^--([^=]+)/.exec(arg)?.[1] ?? ''), `${arg} is not a flag of Go's kwok`);
    assert.equal(c.env['KWOKTS_CONTROLLER_ID'], `kwok-${spec.name}-controller`);
  }
});

test('without it, or in a container, the embedded controller runs', () => {
  const embedded = buildKwokController(sampleSpec());
  // Its own executable (bin/kwok-controller.js), so kwokctl's executable-named pid files match.
  assert.deepEqual(embedded.program, { path: '/pkg/bin/kwok-controller.js' });
  assert.equal(embedded.args[0], '--manage-all-nodes=true');
  const inContainer = buildKwokController(sampleSpec({ options: { ...defaultOptionValues(), kwokControllerBinary: '/opt/kwok/kwok' }, placement: networkPlacement('c1') }));
  assert.notDeepEqual(inContainer.program, { path: '/opt/kwok/kwok' });
});

test('only the embedded controller on the host is started with NODE_EXTRA_CA_CERTS deferred (it takes it back itself)', () => {
  assert.equal(buildKwokController(sampleSpec()).defersExtraCaCerts, true);
  assert.equal(buildKwokController(sampleSpec({ options: { ...defaultOptionValues(), kwokControllerBinary: '/opt/kwok/kwok' } })).defersExtraCaCerts, undefined);
  assert.equal(buildKwokController(sampleSpec({ placement: networkPlacement('c1') })).defersExtraCaCerts, undefined);
});

test("the embedded controller's Node options: on the host through NODE_OPTIONS, in the image through the Dockerfile's entrypoint, the same", () => {
  assert.ok(CONTROLLER_NODE_OPTIONS.length > 0);
  assert.deepEqual(buildKwokController(sampleSpec()).nodeOptions, CONTROLLER_NODE_OPTIONS);
  // Go's kwok is no Node program; in a container the image's entrypoint has them.
  assert.equal(buildKwokController(sampleSpec({ options: { ...defaultOptionValues(), kwokControllerBinary: '/opt/kwok/kwok' } })).nodeOptions, undefined);
  assert.equal(buildKwokController(sampleSpec({ placement: networkPlacement('c1') })).nodeOptions, undefined);
  const dockerfile = readFileSync(join(import.meta.dirname, '..', '..', '..', 'Dockerfile'), 'utf8');
  const entrypoint = /^ENTRYPOINT (.*)$/m.exec(dockerfile)?.[1];
  assert.deepEqual(JSON.parse(entrypoint ?? 'null'), ['node', ...CONTROLLER_NODE_OPTIONS, '/app/dist/src/kwok/main.js']);
});

test("withNodeOptions puts ours before the user's NODE_OPTIONS, so that theirs win, and adds nothing when there are none", () => {
  assert.deepEqual(withNodeOptions({ PATH: '/bin' }, ['--a=1']), { PATH: '/bin', NODE_OPTIONS: '--a=1' });
  assert.deepEqual(withNodeOptions({ NODE_OPTIONS: '--a=2 --use-openssl-ca' }, ['--a=1']), { NODE_OPTIONS: '--a=1 --a=2 --use-openssl-ca' });
  assert.deepEqual(withNodeOptions({ NODE_OPTIONS: '' }, ['--a=1']), { NODE_OPTIONS: '--a=1' });
  const env = { NODE_OPTIONS: '--x' };
  assert.equal(withNodeOptions(env, []), env);
});
