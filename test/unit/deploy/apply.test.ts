import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyObjects } from '../../../src/deploy/apply.js';
import { KubeApiError } from '../../../src/kube/client/api-error.js';
import type { KubeClient, KubeObject, PatchRequest, ResourceRef } from '../../../src/kube/client/types.js';
import { OperationError, PreflightError } from '../../../src/util/errors.js';

const refs: Record<string, ResourceRef> = {
  CustomResourceDefinition: { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition', namespaced: false },
  ServiceAccount: { group: '', version: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true },
  ClusterRole: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', namespaced: false },
};

/** Just enough of a KubeClient: resolve by kind, record patches, scripted failures and CRD status. */
function stubClient(options: { failPatch?: (kind: string) => Error | undefined; establishedAfterGets?: number } = {}) {
  const patches: PatchRequest[] = [];
  let gets = 0;
  const client = {
    async resolve(_apiVersion: string, kind: string) {
      const ref = refs[kind];
      if (!ref) throw new KubeApiError(`no ${kind}`, 404, 'NotFound');
      return ref;
    },
    async patch(ref: ResourceRef, request: PatchRequest) {
      const error = options.failPatch?.(ref.kind);
      if (error) throw error;
      patches.push(request);
      return request.body as KubeObject;
    },
    async get() {
      gets++;
      const established = gets > (options.establishedAfterGets ?? 0);
      return { metadata: {}, status: { conditions: [{ type: 'Established', status: established ? 'True' : 'False' }] } } as KubeObject;
    },
  } as unknown as KubeClient;
  return { client, patches, gets: () => gets };
}

const objects: KubeObject[] = [
  { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'stages.kwok.x-k8s.io' } },
  { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'kwok-controller', namespace: 'kube-system' } },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'kwok-controller', namespace: 'ignored' } },
];

describe('applyObjects', () => {
  it('server-side applies in order as kwokts, namespaced only where the kind is, after the CRD is established', async () => {
    const { client, patches, gets } = stubClient({ establishedAfterGets: 2 });
    const applied = await applyObjects(client, 'https://x', objects);
    assert.deepEqual(applied, ['customresourcedefinition.apiextensions.k8s.io/stages.kwok.x-k8s.io', 'serviceaccount/kwok-controller', 'clusterrole.rbac.authorization.k8s.io/kwok-controller']);
    assert.deepEqual(
      patches.map((p) => [p.name, p.namespace, p.patchType, p.fieldManager, p.force]),
      [
        ['stages.kwok.x-k8s.io', undefined, 'apply', 'kwokts', true],
        ['kwok-controller', 'kube-system', 'apply', 'kwokts', true],
        ['kwok-controller', undefined, 'apply', 'kwokts', true],
      ],
    );
    assert.equal(gets(), 3, 'polled the CRD until Established');
  });

  it('says whose move it is: unreachable or rejected credentials are preflight errors, forbidden needs an admin', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    await assert.rejects(applyObjects(stubClient({ failPatch: () => refused }).client, 'https://x', objects), (e: unknown) => e instanceof PreflightError && /^cannot reach the API server at https:\/\/x/.test(e.message));
    const unauthorized = new KubeApiError('Unauthorized', 401, 'Unauthorized');
    await assert.rejects(applyObjects(stubClient({ failPatch: () => unauthorized }).client, 'https://x', objects), (e: unknown) => e instanceof PreflightError && /rejected the kubeconfig's credentials/.test(e.message));
    const forbidden = new KubeApiError('clusterroles is forbidden', 403, 'Forbidden');
    const { client, patches } = stubClient({ failPatch: (kind) => (kind === 'ClusterRole' ? forbidden : undefined) });
    await assert.rejects(applyObjects(client, 'https://x', objects), (e: unknown) => e instanceof OperationError && /^applying ClusterRole\/kwok-controller was forbidden/.test(e.message) && /cluster-admin/.test(e.hint ?? ''));
    assert.equal(patches.length, 2, 'stops at the first failure');
  });
});
