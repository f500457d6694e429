/**
 * Damaged state that must not strand a running cluster: `delete` stops every process the cluster
 * started and removes its kubeconfig entries whatever state its record and directory are in
 * (kwok.yaml not YAML, empty or cut short; the directory removed by hand), and `start` stops a
 * component left running without its pid file (a create killed between starting it and writing
 * the file) instead of failing on its ports.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { failure, isAlive, kwokts, processesMentioning, requireBinaries, sandbox, type Sandbox } from './harness.js';

describe('damaged state', { timeout: 900_000 }, () => {
  let box: Sandbox;
  before(() => {
    requireBinaries();
    box = sandbox();
  });
  after(() => box.cleanup());

  const dirOf = (name: string): string => join(box.workdir, 'clusters', name);
  const create = async (name: string): Promise<number[]> => {
    const created = await kwokts(box, ['--name', name, 'create', 'cluster', '--wait', '2m']);
    assert.equal(created.exitCode, 0, failure(created));
    const running = processesMentioning(dirOf(name));
    assert.ok(running.length >= 5, `the components run: ${running.join(', ')}`);
    return running;
  };
  const assertGone = (name: string, pids: number[]): void => {
    assert.deepEqual(pids.filter((pid) => isAlive(pid)), [], 'no process of the cluster is left');
    assert.deepEqual(processesMentioning(dirOf(name)), []);
    assert.equal(existsSync(dirOf(name)), false, 'the directory is gone');
    assert.doesNotMatch(readFileSync(box.kubeconfig, 'utf8'), new RegExp(`kwok-${name}\\b`), 'the kubeconfig entries are gone');
  };

  const damages: Array<{ what: string; damage: (record: string) => void; warns: RegExp }> = [
    { what: 'kwok.yaml replaced by text that is not YAML', damage: (record) => writeFileSync(record, 'options: [unclosed\n  : : bad'), warns: /cannot be read .*not valid YAML/ },
    { what: 'kwok.yaml empty', damage: (record) => writeFileSync(record, ''), warns: /cannot be read/ },
    { what: 'kwok.yaml cut to its first 5000 bytes', damage: (record) => writeFileSync(record, readFileSync(record).subarray(0, 5000)), warns: /stopped \d+ process/ },
  ];
  for (const [i, { what, damage, warns }] of damages.entries()) {
    test(`${what}: delete stops every process and removes everything`, async () => {
      const name = `dm-rec${i}`;
      const pids = await create(name);
      damage(join(dirOf(name), 'kwok.yaml'));
      const deleted = await kwokts(box, ['--name', name, 'delete', 'cluster']);
      assert.equal(deleted.exitCode, 0, failure(deleted));
      assert.match(deleted.stderr, warns);
      assertGone(name, pids);
    });
  }

  test('the directory removed by hand: delete finds the processes and the context by the name alone', async () => {
    const name = 'dm-nodir';
    const pids = await create(name);
    rmSync(dirOf(name), { recursive: true, force: true });
    const deleted = await kwokts(box, ['--name', name, 'delete', 'cluster']);
    assert.equal(deleted.exitCode, 0, failure(deleted));
    assert.match(deleted.stderr, new RegExp(`cluster ${name} has no directory .* stopped \\d+ processes .* and removed context kwok-${name}`));
    assertGone(name, pids);
    const again = await kwokts(box, ['--name', name, 'delete', 'cluster']);
    assert.equal(again.exitCode, 0, failure(again));
    assert.match(again.stderr, /does not exist; nothing to delete/);
  });

  test('a component running without its pid file: start stops it and starts the cluster', async () => {
    const name = 'dm-orphan';
    await create(name);
    const pidFile = join(dirOf(name), 'pids', 'etcd.pid');
    const orphan = Number(readFileSync(pidFile, 'utf8'));
    rmSync(pidFile);
    const started = await kwokts(box, ['--name', name, 'start', 'cluster', '--wait', '2m']);
    assert.equal(started.exitCode, 0, failure(started));
    assert.match(started.stderr, new RegExp(`stopped etcd \\(pid ${orphan}\\)`));
    assert.equal(isAlive(orphan), false, 'the orphan is gone');
    assert.notEqual(Number(readFileSync(pidFile, 'utf8')), orphan, 'a new etcd runs');
    const listed = await kwokts(box, ['--name', name, 'get', 'clusters', '-o', 'wide']);
    assert.match(listed.stdout, new RegExp(`^${name}\\s+.*Ready`, 'm'));
    const deleted = await kwokts(box, ['--name', name, 'delete', 'cluster']);
    assert.equal(deleted.exitCode, 0, failure(deleted));
  });
});
