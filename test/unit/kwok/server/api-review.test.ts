/**
 * TokenReviews and SubjectAccessReviews as the controller's server sends them, against a fake
 * apiserver client, and the answers kept for the kubelet's cache lifetimes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeClient, KubeObject, ResourceRef } from '../../../../src/kube/index.js';
import { createApiReviewer } from '../../../../src/kwok/server/api-review.js';

function fakeApiserver(): { client: KubeClient; sent: Array<{ resource: string; spec: unknown }> } {
  const sent: Array<{ resource: string; spec: unknown }> = [];
  const client = {
    async create(ref: ResourceRef, object: KubeObject): Promise<KubeObject> {
      const spec = object['spec'] as Record<string, unknown>;
      sent.push({ resource: ref.resource, spec });
      if (ref.resource === 'tokenreviews') {
        const known = spec['token'] === 'good';
        return { ...object, status: known ? { authenticated: true, user: { username: 'system:serviceaccount:ns:sa', groups: ['system:serviceaccounts'] } } : { authenticated: false } };
      }
      const attributes = spec['resourceAttributes'] as { subresource?: string } | undefined;
      return { ...object, status: { allowed: attributes?.subresource === 'metrics' } };
    },
  } as unknown as KubeClient;
  return { client, sent };
}

test('reviews go to the apiserver once per answer lifetime', async () => {
  let now = 0;
  const { client, sent } = fakeApiserver();
  const reviewer = createApiReviewer(client, () => now);
  const identity = await reviewer.authenticate('good');
  assert.deepEqual(identity, { user: 'system:serviceaccount:ns:sa', groups: ['system:serviceaccounts'] });
  assert.equal(await reviewer.authenticate('bad'), undefined);
  const metrics = { kind: 'resource', verb: 'get', resource: 'nodes', subresource: 'metrics', name: 'n1' } as const;
  const proxy = { kind: 'resource', verb: 'create', resource: 'nodes', subresource: 'proxy', name: '' } as const;
  assert.equal(await reviewer.authorize(identity!, metrics), true);
  assert.equal(await reviewer.authorize(identity!, proxy), false);
  assert.deepEqual(sent.map((s) => s.resource), ['tokenreviews', 'tokenreviews', 'subjectaccessreviews', 'subjectaccessreviews']);
  assert.deepEqual(sent[2]!.spec, { user: 'system:serviceaccount:ns:sa', groups: ['system:serviceaccounts'], resourceAttributes: { verb: 'get', resource: 'nodes', subresource: 'metrics', name: 'n1' } });
  assert.deepEqual(sent[3]!.spec, { user: 'system:serviceaccount:ns:sa', groups: ['system:serviceaccounts'], resourceAttributes: { verb: 'create', resource: 'nodes', subresource: 'proxy' } });

  // Within their lifetimes, nothing new is asked.
  now = 25_000;
  await reviewer.authenticate('good');
  await reviewer.authenticate('bad');
  await reviewer.authorize(identity!, metrics);
  await reviewer.authorize(identity!, proxy);
  assert.equal(sent.length, 4);
  // A refusal is kept 30 s, an allowance 5 minutes, a token's answer 2 minutes.
  now = 31_000;
  await reviewer.authorize(identity!, proxy);
  await reviewer.authorize(identity!, metrics);
  assert.equal(sent.length, 5);
  now = 121_000;
  await reviewer.authenticate('good');
  assert.equal(sent.length, 6);
  assert.equal(await reviewer.authorize(identity!, { kind: 'path', verb: 'get', path: '/metrics' }), false);
  assert.deepEqual(sent.at(-1)!.spec, { user: 'system:serviceaccount:ns:sa', groups: ['system:serviceaccounts'], nonResourceAttributes: { verb: 'get', path: '/metrics' } });
});
