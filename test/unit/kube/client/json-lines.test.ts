// Watch lines split on the bytes and decoded, with metadata.managedFields cut out before parsing
// where the apiserver's field order makes that exact. The fixtures are watch lines a real
// kube-apiserver (v1.36) sent for a pod and a node of a kwokts cluster.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { LineSplitter, decodeWatchLine } from '../../../../src/kube/client/json-lines.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'fixtures', 'watch');
const podLine = readFileSync(join(fixtures, 'pod-modified.jsonl'), 'utf8').trim();
const nodeLine = readFileSync(join(fixtures, 'node-added.jsonl'), 'utf8').trim();
// A graceful pod delete as a watcher sees it: MODIFIED (deletionTimestamp, grace 30s), MODIFIED
// (grace 0), DELETED (the same object under the deletion's resourceVersion).
const deleteLines = readFileSync(join(fixtures, 'pod-graceful-delete.jsonl'), 'utf8').trim().split('\n');

type Event = { type: string; object: { metadata: Record<string, unknown> } & Record<string, unknown> };

/** What a full decode gives once managedFields are deleted, as the reflector does. */
function withoutManagedFields(line: string): Event {
  const event = JSON.parse(line) as Event;
  delete event.object.metadata['managedFields'];
  return event;
}

function decode(line: string, drop = true, deletedAsMetadata = false): Event {
  return decodeWatchLine(Buffer.from(line), drop, deletedAsMetadata) as Event;
}

describe('LineSplitter', () => {
  it('gives whole lines however the chunks fall, across chunk ends and inside multi-byte characters', () => {
    const text = `{"a":"é€"}\n\n{"b":2}\r\n  \n{"c":"𝄞"}\n{"d":4}`;
    const bytes = Buffer.from(text);
    for (let size = 1; size <= bytes.length; size++) {
      const splitter = new LineSplitter();
      const lines: string[] = [];
      for (let i = 0; i < bytes.length; i += size) for (const line of splitter.push(bytes.subarray(i, i + size))) lines.push(line.toString('utf8'));
      const rest = splitter.end();
      if (rest) lines.push(rest.toString('utf8'));
      assert.deepEqual(lines.map((l) => JSON.parse(l)), [{ a: 'é€' }, { b: 2 }, { c: '𝄞' }, { d: 4 }], `chunks of ${size} bytes`);
    }
  });

  it('keeps nothing once the stream ended on a newline or on blanks', () => {
    const splitter = new LineSplitter();
    assert.equal(splitter.push(Buffer.from('{"a":1}\n  ')).length, 1);
    assert.equal(splitter.end(), undefined);
  });
});

describe('decodeWatchLine', () => {
  it('leaves out the managedFields of a real pod and node event and nothing else', () => {
    for (const line of [podLine, nodeLine]) {
      assert.ok((JSON.parse(line) as Event).object.metadata['managedFields'], 'the fixture has managedFields');
      const cut = decode(line);
      assert.equal('managedFields' in cut.object.metadata, false);
      assert.deepEqual(cut, withoutManagedFields(line));
    }
  });

  it('decodes the whole line when asked to keep managedFields', () => {
    assert.deepEqual(decode(podLine, false), JSON.parse(podLine));
  });

  it('decodes the whole line where the cut would not be exact', () => {
    const managed = [{ manager: 'm', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:x': {} } } }];
    const cases: Array<[string, unknown]> = [
      // A custom resource: metadata keys sorted, managedFields not last, an array ends the metadata.
      ['sorted keys', { type: 'ADDED', object: { metadata: { annotations: {}, managedFields: managed, name: 'a', ownerReferences: [{ name: 'o' }] }, spec: {} } }],
      // managedFields first: no comma before it.
      ['managedFields first', { type: 'ADDED', object: { metadata: { managedFields: managed, name: 'a' }, spec: {} } }],
      // The end marker only further on, where cutting up to it leaves broken JSON.
      ['no spec after metadata', { type: 'ADDED', object: { metadata: { name: 'a', managedFields: managed, uid: 'u' }, data: { x: [1] }, status: { list: [{ a: [1] }], spec: {} } } }],
      // The markers inside strings are escaped, so they never match there.
      ['markers in a string', { type: 'ADDED', object: { metadata: { name: 'a', annotations: { x: '"managedFields":[ ]},"spec":' } }, spec: {} } }],
    ];
    for (const [name, event] of cases) {
      const line = JSON.stringify(event);
      assert.deepEqual(decode(line), event, name);
    }
  });

  it('cuts a built-in shape written by hand the same way (managedFields last, spec next)', () => {
    const event = { type: 'MODIFIED', object: { kind: 'Pod', metadata: { name: 'p', namespace: 'n', finalizers: ['f'], managedFields: [{ manager: 'x', fieldsV1: { 'f:metadata': { 'f:finalizers': { '.': {}, 'v:"f"': {} } } } }] }, spec: { containers: [] }, status: {} } };
    const line = JSON.stringify(event);
    assert.deepEqual(decode(line), withoutManagedFields(line));
  });

  it('decodes only the metadata of a real DELETED event when asked, and marks the event', () => {
    const deleted = deleteLines[2]!;
    const full = withoutManagedFields(deleted);
    assert.equal(full.type, 'DELETED');
    assert.deepEqual(decode(deleted, true, true), { type: 'DELETED', object: { kind: 'Pod', apiVersion: 'v1', metadata: full.object.metadata }, metadataOnly: true });
    // Other events, and DELETED without the managedFields cut, are decoded as before.
    for (const line of deleteLines.slice(0, 2)) assert.deepEqual(decode(line, true, true), withoutManagedFields(line));
    assert.deepEqual(decode(deleted, true), full);
    assert.deepEqual(decode(deleted, false, true), JSON.parse(deleted));
  });

  it('decodes a DELETED event whole where the metadata cut would not be exact', () => {
    const managed = [{ manager: 'm' }];
    const cases: Array<[string, unknown]> = [
      ['managedFields first', { type: 'DELETED', object: { metadata: { managedFields: managed, name: 'a' }, spec: {} } }],
      // A custom resource's sorted keys: what precedes managedFields has no name.
      ['sorted keys', { type: 'DELETED', object: { metadata: { annotations: {}, managedFields: managed, name: 'a', ownerReferences: [{ name: 'o' }] }, spec: {} } }],
      ['no name before managedFields', { type: 'DELETED', object: { metadata: { uid: 'u', managedFields: managed, name: 'a' }, spec: {} } }],
    ];
    for (const [name, event] of cases) assert.equal((decode(JSON.stringify(event), true, true) as { metadataOnly?: boolean }).metadataOnly, undefined, name);
  });

  it('throws on a line that is not JSON, with or without the cut', () => {
    assert.throws(() => decode('{"type":"ADDED",'), SyntaxError);
    assert.throws(() => decode('{"type":"ADDED","object":{"metadata":{"name":"a","managedFields":[]},"spec":{'), SyntaxError);
  });
});
