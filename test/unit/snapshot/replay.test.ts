import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeApiError } from '../../../src/kube/index.js';
import type { KubeClient, KubeObject, ResourceRef } from '../../../src/kube/index.js';
import { replay } from '../../../src/snapshot/replay.js';
import type { ResourcePatch } from '../../../src/snapshot/resource-patch.js';
import { silentLogger } from '../../../src/util/log.js';

const REFS: Record<string, ResourceRef> = {
  pods: { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true },
  configmaps: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
  nodes: { group: '', version: 'v1', resource: 'nodes', kind: 'Node', namespaced: false },
};

/** Records every request as one line; configmaps have no status subresource. */
function fakeClient(log: string[], at: () => number): KubeClient {
  const line = (s: string): void => void log.push(`${at()}ms ${s}`);
  return {
    resolve: async (_apiVersion, resource) => REFS[resource]!,
    create: async (ref, object, options = {}) => {
      line(`create ${ref.resource}${options.subresource ? `/${options.subresource}` : ''} ${JSON.stringify(options.subresource ? object : object.metadata)}`);
      return { ...object, metadata: { ...object.metadata, uid: `new-${object.metadata.name}` } };
    },
    patch: async (ref, request) => {
      if (request.subresource === 'status' && ref.resource === 'configmaps') throw new KubeApiError('not found', 404, 'NotFound');
      line(`patch ${ref.resource}${request.subresource ? `/${request.subresource}` : ''} ${request.name} ${request.patchType} ${JSON.stringify(request.body)}`);
      return { metadata: { name: request.name } };
    },
    delete: async (ref, request) => void line(`delete ${ref.resource} ${request.name} grace=${request.gracePeriodSeconds}`),
    get: async (_ref, target) => ({ metadata: { name: target.name } }) as KubeObject,
    list: async () => ({ items: [], resourceVersion: '1' }),
    update: async (_ref, object) => object,
    watch: () => {
      throw new Error('not used');
    },
    patchIgnoringAnswer: async () => {
      throw new Error('not used');
    },
    updateIgnoringAnswer: async () => {
      throw new Error('not used');
    },
  };
}

const rp = (ms: number, resource: string, name: string, method: ResourcePatch['method'], template?: Record<string, unknown>): ResourcePatch => ({
  apiVersion: 'action.kwok.x-k8s.io/v1alpha1',
  kind: 'ResourcePatch',
  resource: { version: 'v1', resource },
  target: resource === 'nodes' ? { name } : { name, namespace: 'ns' },
  durationNanosecond: ms * 1e6,
  method,
  ...(template ? { template } : {}),
});

async function run(patches: ResourcePatch[], uidMap = new Map<string, string>()): Promise<{ log: string[]; result: Awaited<ReturnType<typeof replay>> }> {
  let clock = 0;
  const log: string[] = [];
  const result = await replay({
    client: fakeClient(log, () => clock),
    patches,
    uidMap,
    logger: silentLogger,
    signal: new AbortController().signal,
    now: () => clock,
    wait: async (ms) => void (clock += ms),
  });
  return { log, result };
}

test('changes are applied in recorded order, each at its recorded moment', async () => {
  const { log, result } = await run([
    rp(3000, 'configmaps', 'c', 'delete'),
    rp(1000, 'configmaps', 'c', 'create', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns', uid: 'old', resourceVersion: '9', creationTimestamp: '2030-01-01T00:00:00Z' }, data: { a: '1' } }),
    rp(2000, 'configmaps', 'c', 'patch', { data: { a: '2' }, metadata: { labels: { x: 'y' }, managedFields: [] } }),
  ]);
  assert.deepEqual(log, [
    '1000ms create configmaps {"name":"c","namespace":"ns"}',
    '2000ms patch configmaps c strategic {"data":{"a":"2"},"metadata":{"labels":{"x":"y"}}}',
    '3000ms delete configmaps c grace=0',
  ]);
  assert.deepEqual(result, { applied: 3, failed: 0 });
});

test('a pod: create with status, binding for nodeName, status patches, graceful delete, final delete', async () => {
  const uidMap = new Map([['rs-old', 'rs-new']]);
  const { log } = await run(
    [
      rp(0, 'pods', 'p', 'create', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', uid: 'p-old', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-old' }] }, spec: { containers: [{ name: 'c' }] }, status: { phase: 'Pending' } }),
      rp(10, 'pods', 'p', 'patch', { spec: { nodeName: 'n1' } }),
      rp(20, 'pods', 'p', 'patch', { status: { phase: 'Running' } }),
      rp(30, 'pods', 'p', 'patch', { metadata: { deletionTimestamp: '2030-01-01T00:00:30Z', deletionGracePeriodSeconds: 30 } }),
      rp(40, 'pods', 'p', 'delete'),
    ],
    uidMap,
  );
  assert.deepEqual(log, [
    '0ms create pods {"name":"p","namespace":"ns","ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"rs","uid":"rs-new"}]}',
    '0ms patch pods/status p merge {"status":{"phase":"Pending"}}',
    '10ms create pods/binding {"apiVersion":"v1","kind":"Binding","metadata":{"name":"p","namespace":"ns"},"target":{"apiVersion":"v1","kind":"Node","name":"n1"}}',
    '20ms patch pods/status p strategic {"status":{"phase":"Running"}}',
    '30ms delete pods p grace=30',
    '40ms delete pods p grace=0',
  ]);
  assert.equal(uidMap.get('p-old'), 'new-p', 'later owner references to the pod find it');
});

test('owner UIDs in patches are mapped; a kind without a status subresource gets its status on the object', async () => {
  const { log } = await run(
    [rp(0, 'configmaps', 'c', 'patch', { metadata: { '$setElementOrder/ownerReferences': [{ uid: 'o1' }], ownerReferences: [{ uid: 'o1', name: 'x' }] }, status: { s: 1 } })],
    new Map([['o1', 'n1']]),
  );
  assert.deepEqual(log, [
    '0ms patch configmaps c strategic {"metadata":{"$setElementOrder/ownerReferences":[{"uid":"n1"}],"ownerReferences":[{"uid":"n1","name":"x"}]}}',
    '0ms patch configmaps c strategic {"status":{"s":1}}',
  ]);
});

test('a change that fails is counted and the replay goes on', async () => {
  let clock = 0;
  const log: string[] = [];
  const client = fakeClient(log, () => clock);
  client.delete = async () => {
    throw new KubeApiError('forbidden', 403, 'Forbidden');
  };
  const result = await replay({ client, patches: [rp(0, 'nodes', 'n', 'delete'), rp(5, 'nodes', 'n', 'patch', { metadata: { labels: { a: 'b' } } })], uidMap: new Map(), logger: silentLogger, signal: new AbortController().signal, now: () => clock, wait: async (ms) => void (clock += ms) });
  assert.deepEqual(result, { applied: 1, failed: 1 });
  assert.deepEqual(log, ['5ms patch nodes n strategic {"metadata":{"labels":{"a":"b"}}}']);
});
