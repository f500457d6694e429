import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateClusterValues } from '../../../src/cluster/validate.js';
import { defaultOptionValues } from '../../../src/config/options.js';
import { UsageError } from '../../../src/util/errors.js';

const values = (over: Record<string, unknown>) => ({ ...defaultOptionValues(), ...over }) as ReturnType<typeof defaultOptionValues>;

test('ports outside 0-65535 are refused, naming the flag, variable or config field that set them', () => {
  assert.throws(() => validateClusterValues(values({ kubeApiserverPort: 70000 }), { kubeApiserverPort: 70000 }, {}), (e: unknown) => e instanceof UsageError && e.message.startsWith('--kube-apiserver-port: 70000'));
  assert.throws(() => validateClusterValues(values({ etcdPort: -5 }), {}, { KWOK_ETCD_PORT: '-5' }), (e: unknown) => e instanceof UsageError && e.message.startsWith('KWOK_ETCD_PORT: -5'));
  assert.throws(() => validateClusterValues(values({ etcdPeerPort: 65536 }), {}, {}), /options\.etcdPeerPort in the config file: 65536/);
  assert.doesNotThrow(() => validateClusterValues(values({ kubeApiserverPort: 0, etcdPort: 65535 }), {}, {}));
});

test('a bind address must be an IP address', () => {
  assert.throws(() => validateClusterValues(values({ bindAddress: '1.2.3.999' }), { bindAddress: '1.2.3.999' }, {}), /--bind-address: "1\.2\.3\.999" is not an IP address/);
  assert.doesNotThrow(() => validateClusterValues(values({ bindAddress: '0.0.0.0' }), {}, {}));
  assert.doesNotThrow(() => validateClusterValues(values({ bindAddress: '::1' }), {}, {}));
});
