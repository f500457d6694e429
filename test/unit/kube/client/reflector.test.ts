import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KubeApiError } from '../../../../src/kube/client/api-error.js';
import { Reflector } from '../../../../src/kube/client/reflector.js';
import { podsResource } from '../../../../src/kube/client/resources.js';
import type { KubeClient, KubeObject, ListResult, WatchEvent, WatchOptions } from '../../../../src/kube/client/types.js';
import { silentLogger } from '../../../../src/util/log.js';

type WatchScript = (options: WatchOptions) => { events: WatchEvent[]; error?: Error };

function obj(name: string, rv: string): KubeObject {
  return { kind: 'Pod', metadata: { name, namespace: 'default', resourceVersion: rv } };
}

/** A client whose list answers and watch streams are scripted in order. */
class ScriptedClient implements Partial<KubeClient> {
  readonly watchCalls: WatchOptions[] = [];
  readonly listCalls: number[] = [];
  constructor(
    private readonly lists: ListResult[],
    private readonly watches: WatchScript[],
    private readonly onExhausted: () => void,
  ) {}

  async list(): Promise<ListResult> {
    this.listCalls.push(Date.now());
    const next = this.lists.shift();
    if (!next) throw new Error('no more lists');
    return next;
  }

  async *watch(_ref: unknown, options: WatchOptions, signal: AbortSignal): AsyncIterable<WatchEvent> {
    this.watchCalls.push(options);
    const script = this.watches.shift();
    if (!script) {
      this.onExhausted();
      void signal;
      return;
    }
    const { events, error } = script(options);
    for (const event of events) yield event;
    if (error) throw error;
  }
}

async function runScript(lists: ListResult[], watches: WatchScript[]): Promise<{ events: string[]; client: ScriptedClient; store: Map<string, KubeObject> }> {
  const abort = new AbortController();
  const events: string[] = [];
  const client = new ScriptedClient(lists, watches, () => abort.abort());
  const reflector = new Reflector({
    client: client as unknown as KubeClient,
    ref: podsResource,
    logger: silentLogger,
    backoff: { baseMs: 1, factor: 1, jitter: 0, capMs: 1 },
    onEvent: (type, object) => events.push(`${type} ${object.metadata.name}@${object.metadata.resourceVersion}`),
  });
  await reflector.run(abort.signal);
  return { events, client, store: reflector.store };
}

describe('Reflector', () => {
  it('lists, then watches from the list resourceVersion and resumes from the last event', async () => {
    const { events, client } = await runScript(
      [{ items: [obj('a', '1'), obj('b', '2')], resourceVersion: '10' }],
      [
        () => ({ events: [{ type: 'MODIFIED', object: obj('a', '11') }, { type: 'BOOKMARK', object: { metadata: { resourceVersion: '15' } } }] }),
        () => ({ events: [{ type: 'DELETED', object: obj('b', '16') }] }),
      ],
    );
    assert.deepEqual(events, ['ADDED a@1', 'ADDED b@2', 'MODIFIED a@11', 'DELETED b@16']);
    assert.deepEqual(client.watchCalls.map((w) => w.resourceVersion), ['10', '15', '16']);
    assert.equal(client.listCalls.length, 1);
  });

  it('relists on 410 Gone and turns the difference into events', async () => {
    const { events, store } = await runScript(
      [
        { items: [obj('a', '1'), obj('b', '2')], resourceVersion: '10' },
        { items: [obj('a', '1'), obj('c', '30')], resourceVersion: '31' },
      ],
      [() => ({ events: [], error: new KubeApiError('too old', 410, 'Expired') })],
    );
    assert.deepEqual(events, ['ADDED a@1', 'ADDED b@2', 'DELETED b@2', 'ADDED c@30']);
    assert.deepEqual([...store.keys()].sort(), ['default/a', 'default/c']);
  });

  it('relists deletions before additions, and a changed UID as a deletion and an addition (an etcd restore)', async () => {
    const withUid = (name: string, rv: string, uid: string): KubeObject => ({ ...obj(name, rv), metadata: { ...obj(name, rv).metadata, uid } });
    const { events, store } = await runScript(
      [
        { items: [withUid('a', '1', 'u1'), withUid('b', '2', 'u2')], resourceVersion: '10' },
        { items: [withUid('c', '3', 'u3'), withUid('a', '4', 'u0')], resourceVersion: '1000010' },
      ],
      [() => ({ events: [], error: new KubeApiError('too old', 410, 'Expired') })],
    );
    assert.deepEqual(events, ['ADDED a@1', 'ADDED b@2', 'DELETED a@1', 'DELETED b@2', 'ADDED c@3', 'ADDED a@4']);
    assert.equal(store.get('default/a')?.metadata.uid, 'u0');
  });

  it('reconnects after errors, keeping its resourceVersion', async () => {
    const { client } = await runScript(
      [{ items: [], resourceVersion: '10' }],
      [
        () => ({ events: [{ type: 'ADDED', object: obj('a', '12') }], error: new KubeApiError('reset', 0, 'ECONNRESET') }),
        () => ({ events: [], error: new KubeApiError('unavailable', 503, 'ServiceUnavailable') }),
      ],
    );
    assert.deepEqual(client.watchCalls.map((w) => w.resourceVersion), ['10', '12', '12']);
    assert.equal(client.listCalls.length, 1, 'no relist for ordinary errors');
  });
});

describe('Reflector managedFields', () => {
  it('drops managedFields from listed and watched objects before caching and dispatching them', async () => {
    const withFields = (name: string, rv: string): KubeObject => ({ ...obj(name, rv), metadata: { ...obj(name, rv).metadata, managedFields: [{ manager: 'kubectl' }] } });
    const { store } = await runScript(
      [{ items: [withFields('a', '1')], resourceVersion: '1' }],
      [() => ({ events: [{ type: 'ADDED', object: withFields('b', '2') }] })],
    );
    assert.equal(store.size, 2);
    for (const o of store.values()) assert.equal(o.metadata.managedFields, undefined, o.metadata.name);
  });

  it('asks for metadata-only DELETED events and makes them whole from its store; an unknown object stays as sent', async () => {
    const full = (name: string, rv: string): KubeObject => ({ ...obj(name, rv), spec: { nodeName: 'n' }, status: { podIP: '10.0.0.1' } });
    const seen: KubeObject[] = [];
    const abort = new AbortController();
    const client = new ScriptedClient(
      [{ items: [full('a', '1')], resourceVersion: '1' }],
      [() => ({ events: [{ type: 'DELETED', object: obj('a', '2'), metadataOnly: true }, { type: 'DELETED', object: obj('b', '3'), metadataOnly: true }] })],
      () => abort.abort(),
    );
    const reflector = new Reflector({ client: client as unknown as KubeClient, ref: podsResource, logger: silentLogger, onEvent: (type, o) => type === 'DELETED' && seen.push(o) });
    await reflector.run(abort.signal);
    assert.equal(client.watchCalls[0]!.deletedMetadataOnly, true);
    assert.deepEqual(seen, [{ ...full('a', '1'), metadata: obj('a', '2').metadata }, obj('b', '3')]);
    assert.equal(reflector.store.size, 0);
  });
});
