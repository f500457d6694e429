/**
 * `scale`'s bad input and the apiserver's refusals, each one line with a documented exit code:
 * a count no cluster holds is refused before anything starts, a missing namespace is named before
 * the first create, and any other refusal is the cluster's answer, not "unexpected failure".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeApiError, type KubeClient, type KubeObject, type ResourceRef } from '../../../src/kube/index.js';
import { findResource } from '../../../src/scale/resource.js';
import { MAX_REPLICAS, MAX_SERIAL_LENGTH, validateScale } from '../../../src/scale/limits.js';
import { scale } from '../../../src/scale/scale.js';
import { KwoktsError, NotFoundError, OperationError, UsageError } from '../../../src/util/errors.js';

const PODS: ResourceRef = { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true };

/** An apiserver with the namespaces given; creates answer as the real one would (404 in a missing namespace). */
function fakeClient(namespaces: string[], refuse?: KubeApiError): { client: KubeClient; created: string[] } {
  const created: string[] = [];
  const client = {
    resolve: async () => PODS,
    list: async () => ({ items: [], resourceVersion: '1' }),
    get: async (ref: ResourceRef, target: { name: string }) => (ref.resource === 'namespaces' && namespaces.includes(target.name) ? ({ metadata: { name: target.name } } as KubeObject) : undefined),
    create: async (_ref: ResourceRef, object: KubeObject, options: { namespace?: string } = {}) => {
      if (refuse) throw refuse;
      if (!namespaces.includes(options.namespace ?? '')) throw KubeApiError.fromStatus('POST', `/api/v1/namespaces/${options.namespace}/pods`, 404, { reason: 'NotFound', message: `namespaces "${options.namespace}" not found` });
      created.push(object.metadata.name!);
      return object;
    },
  } as unknown as KubeClient;
  return { client, created };
}

const podScale = (namespace: string, replicas = 2) => ({ resource: findResource('pod', []), name: 'pod', replicas, params: [], namespace, serialLength: 6, cluster: 'bi' });

test('a missing namespace is named before anything is created: NotFoundError (exit 4), one line', async () => {
  const { client, created } = fakeClient(['default']);
  await assert.rejects(scale(client, podScale('no-such-ns')), (e: unknown) => {
    assert.ok(e instanceof NotFoundError, String(e));
    assert.equal(e.exitCode, 4);
    assert.equal(e.message, 'namespace no-such-ns does not exist in cluster bi');
    assert.match(e.hint ?? '', /kwokts --name bi kubectl create namespace no-such-ns/);
    return true;
  });
  assert.deepEqual(created, []);
  const ok = fakeClient(['default']);
  await scale(ok.client, podScale('default'));
  assert.deepEqual(ok.created.sort(), ['pod-000000', 'pod-000001']);
});

test("another refusal of the apiserver is an OperationError with its words, not an unexpected failure", async () => {
  const invalid = KubeApiError.fromStatus('POST', '/api/v1/namespaces/default/pods', 422, { reason: 'Invalid', message: 'Pod "pod-000000" is invalid: spec.containers: Required value' });
  const { client } = fakeClient(['default'], invalid);
  await assert.rejects(scale(client, podScale('default', 1)), (e: unknown) => {
    assert.ok(e instanceof OperationError && KwoktsError.is(e), String(e));
    assert.equal(e.message, 'cannot create Pod pod-000000: 422 Invalid: Pod "pod-000000" is invalid: spec.containers: Required value');
    assert.match(e.hint ?? '', /--param/);
    return true;
  });
});

test(`counts past ${MAX_REPLICAS} and serial lengths past ${MAX_SERIAL_LENGTH} are refused up front, with the limit`, () => {
  assert.throws(() => validateScale({ replicas: Number('99999999999999999999'), serialLength: 6 }), (e: unknown) => e instanceof UsageError && e.message === `--replicas 100000000000000000000 is more than one scale makes (at most ${MAX_REPLICAS})`);
  assert.throws(() => validateScale({ replicas: MAX_REPLICAS + 1, serialLength: 6 }), UsageError);
  assert.doesNotThrow(() => validateScale({ replicas: MAX_REPLICAS, serialLength: 6 }));
  assert.throws(() => validateScale({ replicas: 1, serialLength: 99999999999 }), (e: unknown) => e instanceof UsageError && /--serial-length 99999999999 .*at most 61/.test(e.message));
  assert.doesNotThrow(() => validateScale({ replicas: 1, serialLength: MAX_SERIAL_LENGTH }));
});
