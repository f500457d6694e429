/**
 * A snapshot is written beside its path and renamed into place. etcdctl's `snapshot save X` writes
 * X.part and renames it itself; the name it is given must not already end in .part, or its
 * partial file (and every error that names it) reads `….part.part`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { saveBeside } from '../../../src/snapshot/snapshot.js';

/** What etcdctl v3.6's snapshot save does with its path: <path>.part first, renamed at the end. */
async function fakeEtcdctl(target: string, fail: boolean, written: string[] = []): Promise<void> {
  const own = `${target}.part`;
  writeFileSync(own, 'half a snapshot');
  written.push(own);
  if (fail) throw new Error(`could not write ${own}: no space left on device`);
  renameSync(own, target);
}

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'kwokts-save-'));
}

test('etcdctl writes <path>.<pid>.part, once suffixed, and the snapshot lands at the path', async () => {
  const dir = scratch();
  try {
    const path = join(dir, 'snap.db');
    const written: string[] = [];
    await saveBeside(path, { writesOwnPartial: true }, (target) => fakeEtcdctl(target, false, written));
    assert.equal(readFileSync(path, 'utf8'), 'half a snapshot');
    assert.deepEqual(readdirSync(dir), ['snap.db']);
    assert.deepEqual(written, [`${path}.${process.pid}.part`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a failed etcdctl names <path>.<pid>.part in its error, not ….part.part, and nothing is left", async () => {
  const dir = scratch();
  try {
    const path = join(dir, 'snap.db');
    await assert.rejects(
      saveBeside(path, { writesOwnPartial: true }, (target) => fakeEtcdctl(target, true)),
      (e: Error) => e.message.includes(`${path}.${process.pid}.part:`) && !e.message.includes('.part.part'),
    );
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a writer without its own partial file writes <path>.<pid>.part itself; a failure leaves nothing', async () => {
  const dir = scratch();
  try {
    const path = join(dir, 'snap.yaml');
    await saveBeside(path, { writesOwnPartial: false }, async (target) => {
      assert.equal(target, `${path}.${process.pid}.part`);
      writeFileSync(target, 'objects');
    });
    assert.equal(readFileSync(path, 'utf8'), 'objects');
    await assert.rejects(saveBeside(join(dir, 'other.yaml'), { writesOwnPartial: false }, async (target) => {
      writeFileSync(target, 'half');
      throw new Error('kubectl failed');
    }), /kubectl failed/);
    assert.deepEqual(readdirSync(dir), ['snap.yaml']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
