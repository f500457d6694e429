import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveUserKubeconfigPath } from '../../../../src/kube/index.js';

describe('resolveUserKubeconfigPath (clientcmd GetDefaultFilename)', () => {
  const none = (): boolean => false;
  const only = (...existing: string[]) => (path: string): boolean => existing.includes(path);

  it('prefers the explicit --kubeconfig flag', () => {
    assert.equal(resolveUserKubeconfigPath('/x/flag', { KUBECONFIG: '/a:/b', HOME: '/home/u' }, none), '/x/flag');
  });

  it('makes a relative flag absolute against the working directory', () => {
    assert.equal(resolveUserKubeconfigPath('rel/config', {}, none), `${process.cwd()}/rel/config`);
  });

  it('uses a single $KUBECONFIG entry whether or not it exists', () => {
    assert.equal(resolveUserKubeconfigPath(undefined, { KUBECONFIG: '/a', HOME: '/home/u' }, none), '/a');
  });

  it('with several entries, writes to the first that exists', () => {
    assert.equal(resolveUserKubeconfigPath(undefined, { KUBECONFIG: '/a:/b:/c' }, only('/b', '/c')), '/b');
    assert.equal(resolveUserKubeconfigPath(undefined, { KUBECONFIG: '/a:/b:/c' }, only('/a', '/c')), '/a');
  });

  it('with several entries and none existing, writes to the last, as kubectl does', () => {
    assert.equal(resolveUserKubeconfigPath(undefined, { KUBECONFIG: '/a:/b:/c' }, none), '/c');
  });

  it('ignores empty entries and duplicates', () => {
    assert.equal(resolveUserKubeconfigPath(undefined, { KUBECONFIG: '::/a::' }, none), '/a');
    assert.equal(resolveUserKubeconfigPath(undefined, { KUBECONFIG: '/a:/a' }, none), '/a');
  });

  it('falls back to ~/.kube/config when the flag and $KUBECONFIG are empty', () => {
    assert.equal(resolveUserKubeconfigPath('', { KUBECONFIG: '', HOME: '/home/u' }, none), '/home/u/.kube/config');
    assert.equal(resolveUserKubeconfigPath(undefined, { HOME: '/home/u' }, none), '/home/u/.kube/config');
  });
});
