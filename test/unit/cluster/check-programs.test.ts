/**
 * A program that cannot run here is named before anything starts, with the flag and the variable
 * that set it: a value from KWOK_*_BINARY used to be blamed on a flag the user never passed, and
 * a kwok controller given by KWOK_CONTROLLER_BINARY on "the component's binary".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkPrograms } from '../../../src/cluster/programs.js';
import type { Component } from '../../../src/components/index.js';
import type { Executor } from '../../../src/exec/executor.js';
import { PreflightError } from '../../../src/util/errors.js';

const real = { dryRun: false } as Executor;

async function refusal(component: Partial<Component>, programs: Record<string, string> = {}): Promise<PreflightError> {
  const error = await checkPrograms([component as Component], new Map(Object.entries(programs)), real).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof PreflightError, String(error));
  return error;
}

test('a downloaded component: the flag and the variable that set its binary', async () => {
  const error = await refusal({ name: 'kube-apiserver', program: { artifact: 'kube-apiserver' } } as Partial<Component>, { 'kube-apiserver': '/nonexistent/kube-apiserver' });
  assert.equal(error.message, 'kube-apiserver: /nonexistent/kube-apiserver does not exist');
  assert.match(error.hint ?? '', /^give --kube-apiserver-binary \(or KWOK_KUBE_APISERVER_BINARY\) a \S+ build of kube-apiserver$/);
});

test('an external kwok controller: --kwok-controller-binary or KWOK_CONTROLLER_BINARY', async () => {
  const error = await refusal({ name: 'kwok-controller', program: { path: '/nonexistent/kwok' } } as Partial<Component>);
  assert.equal(error.message, 'kwok-controller: /nonexistent/kwok does not exist');
  assert.match(error.hint ?? '', /KWOK_CONTROLLER_BINARY/);
});
