import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseExtraArgs } from '../../../src/config/extra-args.js';
import { UsageError } from '../../../src/util/errors.js';

test('--extra-args become componentsPatches, grouped by component, values may hold =', () => {
  assert.deepEqual(parseExtraArgs(['kube-apiserver=v=4', 'kube-apiserver=runtime-config=api/all=true', 'etcd=--log-level=debug']), [
    { name: 'kube-apiserver', extraArgs: [{ key: 'v', value: '4' }, { key: 'runtime-config', value: 'api/all=true' }], extraEnvs: [], extraVolumes: [] },
    { name: 'etcd', extraArgs: [{ key: 'log-level', value: 'debug' }], extraEnvs: [], extraVolumes: [] },
  ]);
  assert.deepEqual(parseExtraArgs(['kube-scheduler=v=']), [{ name: 'kube-scheduler', extraArgs: [{ key: 'v', value: '' }], extraEnvs: [], extraVolumes: [] }]);
});

test('malformed or unknown entries are refused with the expected form', () => {
  for (const bad of ['kube-apiserver', 'kube-apiserver=v', '=v=1', 'kube-apiserver==1', 'kube-foo=v=1']) {
    assert.throws(() => parseExtraArgs([bad]), (e: unknown) => e instanceof UsageError && /extra-args/.test(e.message), bad);
  }
});
