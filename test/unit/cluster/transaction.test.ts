import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Journal } from '../../../src/cluster/transaction.js';
import { silentLogger } from '../../../src/util/log.js';

test('rollback undoes in reverse, including the step that failed, and keeps going past undo failures', async () => {
  const log: string[] = [];
  const journal = new Journal(silentLogger);
  await journal.step('a', async () => void log.push('undo a'), async () => void log.push('do a'));
  await journal.step('b', async () => { log.push('undo b'); throw new Error('b'); }, async () => void log.push('do b'));
  await assert.rejects(journal.step('c', async () => void log.push('undo c'), async () => { throw new Error('c failed'); }));
  const failures = await journal.rollback();
  assert.deepEqual(log, ['do a', 'do b', 'undo c', 'undo b', 'undo a']);
  assert.equal(failures.length, 1);
});

test('commit forgets the undos', async () => {
  const journal = new Journal(silentLogger);
  let undone = false;
  await journal.step('a', async () => { undone = true; }, async () => undefined);
  journal.commit();
  await journal.rollback();
  assert.equal(undone, false);
});
