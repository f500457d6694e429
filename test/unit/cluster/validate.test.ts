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

test('a version that is not one is refused before anything is fetched, naming the variable, flag or field', () => {
  assert.throws(
    () => validateClusterValues(values({ kubeVersion: 'garbage' }), {}, { KWOK_KUBE_VERSION: 'garbage' }),
    (e: unknown) => e instanceof UsageError && e.exitCode === 2 && e.message === 'KWOK_KUBE_VERSION: "garbage" is not a version' && !/proxy|download/i.test(e.hint ?? ''),
  );
  assert.throws(() => validateClusterValues(values({ etcdVersion: '3.6/../x' }), {}, {}), /^UsageError: options\.etcdVersion in the config file: "3\.6\/\.\.\/x" is not a version$/);
  assert.throws(() => validateClusterValues(values({ kubeVersion: 'v1.30-rc.0' }), {}, { KWOK_KUBE_VERSION: 'v1.30-rc.0' }), /KWOK_KUBE_VERSION/);
  // What kwokctl's tolerant semver parsing takes passes: a leading v or not, short forms, pre-releases, image tags.
  for (const v of ['v1.36.1', '1.36.1', 'v1.30', '1', 'v1.35.0-alpha.1', 'v1.35.0+build.5', '3.6.10-0']) {
    assert.doesNotThrow(() => validateClusterValues(values({ kubeVersion: v, etcdVersion: v }), {}, {}), v);
  }
});

test('an unknown build mode is named by where it came from: the variable, not a flag that was not given', () => {
  assert.throws(() => validateClusterValues(values({ buildFromSource: 'sometimes' }), {}, { KWOK_BUILD_FROM_SOURCE: 'sometimes' }), /^UsageError: KWOK_BUILD_FROM_SOURCE: "sometimes" is not a build mode$/);
  assert.throws(() => validateClusterValues(values({ buildFromSource: 'sometimes' }), { buildFromSource: 'sometimes' }, {}), /^UsageError: --build-from-source: "sometimes"/);
  assert.throws(() => validateClusterValues(values({ buildFromSource: 'sometimes' }), {}, {}), /^UsageError: options\.buildFromSource in the config file: "sometimes"/);
  for (const mode of ['', 'auto', 'never', 'always']) assert.doesNotThrow(() => validateClusterValues(values({ buildFromSource: mode }), {}, {}), mode);
});

test('a missing audit policy or scheduler config is named by the variable, flag or field that gave its path', () => {
  assert.throws(() => validateClusterValues(values({ kubeAuditPolicy: '/nonexistent/audit.yaml' }), {}, { KWOK_KUBE_AUDIT_POLICY: '/nonexistent/audit.yaml' }), /^UsageError: KWOK_KUBE_AUDIT_POLICY: \/nonexistent\/audit\.yaml does not exist$/);
  assert.throws(() => validateClusterValues(values({ kubeAuditPolicy: '/nonexistent/audit.yaml' }), { kubeAuditPolicy: '/nonexistent/audit.yaml' }, {}), /^UsageError: --kube-audit-policy: /);
  assert.throws(() => validateClusterValues(values({ kubeSchedulerConfig: '/nonexistent/s.yaml' }), {}, {}), /^UsageError: options\.kubeSchedulerConfig in the config file: \/nonexistent\/s\.yaml does not exist$/);
  assert.doesNotThrow(() => validateClusterValues(values({ kubeAuditPolicy: import.meta.filename }), {}, {}));
});
