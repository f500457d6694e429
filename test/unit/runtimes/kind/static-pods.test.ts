import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { etcdHealthWait, killRestartsAtOnce, putEtcdDataBack, setEtcdDataAside, startEtcdAfterSwap, stopEtcdForSwap } from '../../../../runtimes/kind/static-pods.js';

const MIN = 60_000;
const NOW = Date.parse('2026-12-01T12:00:00Z');
const startedMinutesAgo = (minutes: number): string => new Date(NOW - minutes * MIN).toISOString();

test('etcd is killed only when the kubelet would start it again at once', () => {
  assert.equal(killRestartsAtOnce({ endedBefore: false, startedAt: startedMinutesAgo(1) }, NOW), true, 'never restarted: the kubelet has no back-off for it');
  assert.equal(killRestartsAtOnce({ endedBefore: true, startedAt: startedMinutesAgo(1) }, NOW), false, 'restarted a minute ago: within a back-off');
  assert.equal(killRestartsAtOnce({ endedBefore: true, startedAt: startedMinutesAgo(5) }, NOW), false, 'five minutes: the longest back-off is five');
  assert.equal(killRestartsAtOnce({ endedBefore: true, startedAt: startedMinutesAgo(6) }, NOW), true, 'six minutes: past the longest back-off and its margin');
  assert.equal(killRestartsAtOnce({ endedBefore: true }, NOW), false, 'no start time (not running): the manifest');
  assert.equal(killRestartsAtOnce({ endedBefore: true, startedAt: 'yesterday' }, NOW), false, 'an unreadable time: the manifest');
  assert.equal(killRestartsAtOnce(undefined, NOW), false, 'the apiserver did not say: the manifest');
});

/** A directory standing for the node: tools on PATH that log their calls, and data directories. */
function fakeNode(tools: Record<string, string>): { dir: string; run: (script: string) => ReturnType<typeof spawnSync>; calls: () => string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-static-pods-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const log = join(dir, 'calls');
  writeFileSync(log, '');
  for (const [name, body] of Object.entries({ sleep: 'true', ...tools })) {
    writeFileSync(join(bin, name), `#!/bin/sh\necho "${name} $*" >> ${log}\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  return {
    dir,
    run: (script) => spawnSync('sh', ['-c', script], { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, encoding: 'utf8' }),
    calls: () => readFileSync(log, 'utf8').split('\n').filter((l) => l && !/^(curl|sleep) /.test(l)),
  };
}

test("the kill way freezes etcd (a node without etcd is refused in one line), then kills it and waits for the kubelet's restart", async () => {
  // A real process stands for etcd, so the kill and the wait for its end are real. Its parent is
  // a shell that waits for it: a child of this process (blocked in spawnSync) would stay a zombie
  // and the wait for its end would not end, and whether PID 1 reaps orphans depends on the machine.
  const parent = spawn('sh', ['-c', 'sleep 600 >/dev/null 2>&1 & echo $!; wait'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const pid = Number((await once(parent.stdout, 'data'))[0].toString().trim());
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  assert.ok(alive());
  const node = fakeNode({ pgrep: `echo ${pid}`, pkill: 'true', curl: `kill -0 ${pid} 2>/dev/null && exit 7; exit 0` });
  try {
    const stop = node.run(stopEtcdForSwap('kill'));
    assert.equal(stop.status, 0, String(stop.stderr));
    assert.deepEqual(node.calls(), ['pkill -STOP -x etcd']);
    const start = node.run(`${startEtcdAfterSwap('kill')} && echo healthy`);
    assert.equal(start.status, 0, String(start.stderr));
    assert.equal(start.stdout, 'healthy\n', 'healthy only once the old etcd is gone (curl fails while it lives)');
    assert.equal(alive(), false, 'killed');
  } finally {
    if (alive()) process.kill(pid, 'SIGKILL');
    parent.kill();
    rmSync(node.dir, { recursive: true, force: true });
  }
  const none = fakeNode({ pkill: 'exit 1' });
  try {
    const refused = none.run(`${stopEtcdForSwap('kill')} && echo swapped`);
    assert.equal(refused.status, 1);
    assert.equal(refused.stdout, '', 'nothing after the freeze runs');
    assert.equal(refused.stderr, 'etcd is not running in the node\n');
    // A rollback puts the old data back under an etcd that is down too (the restored data may have
    // made it crash): the kubelet starts it on the old data.
    const rollback = none.run(`${stopEtcdForSwap('kill', 'rollback')} && echo put back`);
    assert.equal(rollback.status, 0);
    assert.equal(rollback.stdout, 'put back\n');
  } finally {
    rmSync(none.dir, { recursive: true, force: true });
  }
});

test('the manifest way moves the manifest out and waits for etcd to end, then back, waiting for its health', () => {
  const node = fakeNode({ pgrep: 'exit 1', curl: 'true', mv: 'true' });
  try {
    assert.equal(node.run(stopEtcdForSwap('manifest')).status, 0);
    assert.deepEqual(node.calls(), ['mv /etc/kubernetes/manifests/etcd.yaml /etc/kubernetes/etcd.yaml.bak', 'pgrep -x etcd']);
    assert.match(startEtcdAfterSwap('manifest'), /^if \[ -f \/etc\/kubernetes\/etcd\.yaml\.bak \]; then mv \/etc\/kubernetes\/etcd\.yaml\.bak \/etc\/kubernetes\/manifests\/etcd\.yaml; fi && i=0 && until curl/);
  } finally {
    rmSync(node.dir, { recursive: true, force: true });
  }
});

test('the data is set aside for the new, and put back only when this restore set it aside', () => {
  const node = fakeNode({});
  const data = join(node.dir, 'etcd');
  const aside = join(node.dir, 'etcd.previous');
  try {
    mkdirSync(join(data, 'member'), { recursive: true });
    writeFileSync(join(data, 'member', 'db'), 'old');
    mkdirSync(aside);
    writeFileSync(join(aside, 'stale'), 'from a restore long ago');
    assert.equal(node.run(setEtcdDataAside(data, aside)).status, 0);
    assert.equal(readFileSync(join(aside, 'member', 'db'), 'utf8'), 'old');
    assert.equal(existsSync(join(aside, 'stale')), false, 'what was aside before is replaced');
    assert.equal(spawnSync('stat', ['-c', '%a', data], { encoding: 'utf8' }).stdout.trim(), '700', 'an empty data directory only etcd reads');
    writeFileSync(join(data, 'new'), 'restored');
    assert.equal(node.run(putEtcdDataBack(data, aside)).status, 0);
    assert.equal(readFileSync(join(data, 'member', 'db'), 'utf8'), 'old', 'the old data back');
    assert.equal(existsSync(aside), false);
    // Setting aside failed before the move (nothing aside): a rollback leaves etcd's data alone.
    assert.equal(node.run(putEtcdDataBack(data, aside)).status, 0);
    assert.equal(readFileSync(join(data, 'member', 'db'), 'utf8'), 'old');
  } finally {
    rmSync(node.dir, { recursive: true, force: true });
  }
});

test('the etcd wait says what the kubelet and the container runtime saw when it gives up', () => {
  const wait = etcdHealthWait();
  assert.match(wait, /curl -fs http:\/\/127\.0\.0\.1:2381\/health/);
  assert.match(wait, /crictl ps -a --name etcd/);
  assert.match(wait, /pgrep -a etcd/);
  assert.match(wait, /journalctl -u kubelet/);
  assert.match(wait, />&2; exit 1;/);
});
