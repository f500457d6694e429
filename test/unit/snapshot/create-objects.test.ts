import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeApiError } from '../../../src/kube/index.js';
import type { KubeClient, KubeObject, ResourceRef } from '../../../src/kube/index.js';
import { createObjects } from '../../../src/snapshot/create-objects.js';
import { silentLogger } from '../../../src/util/log.js';

const REFS: Record<string, ResourceRef> = {
  Pod: { group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true },
  ReplicaSet: { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet', namespaced: true },
  Namespace: { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false },
};

interface Script {
  /** Per object name, what each create answers in turn (past the end: created). */
  creates?: Record<string, Array<KubeApiError>>;
  /** Per object name, what each get answers in turn (past the end: not there). */
  gets?: Record<string, Array<KubeObject | undefined>>;
}

/** A client whose creates and gets answer as scripted; every request is one line of `log`. */
function scriptedClient(script: Script, log: string[]): KubeClient {
  const creates = new Map(Object.entries(script.creates ?? {}).map(([k, v]) => [k, [...v]]));
  const gets = new Map(Object.entries(script.gets ?? {}).map(([k, v]) => [k, [...v]]));
  const unused = async (): Promise<never> => {
    throw new Error('not used');
  };
  return {
    resolve: async (_apiVersion, kind) => REFS[kind]!,
    create: async (_ref, object) => {
      const name = object.metadata.name!;
      log.push(`create ${name} owners=${(object.metadata.ownerReferences ?? []).map((o) => o.uid).join(',')}`);
      const error = creates.get(name)?.shift();
      if (error) throw error;
      return { ...object, metadata: { ...object.metadata, uid: `new-${name}` } };
    },
    get: async (_ref, target) => {
      log.push(`get ${target.name}`);
      return gets.get(target.name)?.shift();
    },
    patch: unused,
    delete: unused,
    list: unused,
    update: unused,
    watch: () => {
      throw new Error('not used');
    },
    patchIgnoringAnswer: unused,
    updateIgnoringAnswer: unused,
  } as KubeClient;
}

const exists = (name: string) => new KubeApiError(`pods "${name}" already exists`, 409, 'AlreadyExists');
const pod = (name: string, uid: string, owner?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'kube-system', uid, ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: owner }] } : {}) },
});
const options = { logger: silentLogger, signal: new AbortController().signal };

test('an object that exists, then is gone (deleted between the two answers), is created again', async () => {
  const log: string[] = [];
  const uidMap = new Map<string, string>();
  const counts = await createObjects(scriptedClient({ creates: { kcm: [exists('kcm')] } }, log), [pod('kcm', 'old-kcm')], uidMap, options);
  assert.deepEqual(counts, { created: 1, existed: 0 });
  assert.deepEqual(log, ['create kcm owners=', 'get kcm', 'create kcm owners=']);
  assert.equal(uidMap.get('old-kcm'), 'new-kcm');
});

test('an object that keeps existing and going is reported after three creates, naming it and the answer', async () => {
  const log: string[] = [];
  const errors = [exists('kcm'), exists('kcm'), exists('kcm'), exists('kcm')];
  await assert.rejects(createObjects(scriptedClient({ creates: { kcm: errors } }, log), [pod('kcm', 'u')], new Map(), options), (error: Error) => {
    assert.equal(error.message, 'restoring Pod kube-system/kcm failed: pods "kcm" already exists');
    return true;
  });
  assert.equal(log.filter((l) => l.startsWith('create')).length, 3);
});

test('a refusal other than AlreadyExists, with nothing there, is reported at once', async () => {
  const log: string[] = [];
  const invalid = new KubeApiError('Pod "p" is invalid: spec.containers: Required value', 422, 'Invalid');
  await assert.rejects(createObjects(scriptedClient({ creates: { p: [invalid] } }, log), [pod('p', 'u')], new Map(), options), /restoring Pod kube-system\/p failed: Pod "p" is invalid/);
  assert.deepEqual(log, ['create p owners=', 'get p']);
});

test('an object already there is kept, counted as existing, and linked to in place of the saved one', async () => {
  const log: string[] = [];
  const there = { ...pod('rs', 'cluster-rs'), kind: 'ReplicaSet', apiVersion: 'apps/v1' };
  const client = scriptedClient({ creates: { rs: [exists('rs')] }, gets: { rs: [there] } }, log);
  const uidMap = new Map<string, string>();
  const counts = await createObjects(client, [{ ...pod('rs', 'saved-rs'), kind: 'ReplicaSet', apiVersion: 'apps/v1' }, pod('child', 'saved-child', 'saved-rs')], uidMap, options);
  assert.deepEqual(counts, { created: 1, existed: 1 });
  assert.deepEqual(log, ['create rs owners=', 'get rs', 'create child owners=cluster-rs'], 'the owner first; the child points at the one in the cluster');
});
