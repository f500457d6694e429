import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseKwokArgs, resolveKwokOptions } from '../../../../src/kwok/app/options.js';
import { runShardChildren, shardChildArgs, shardParentEnv, watchShardParent } from '../../../../src/kwok/app/shard-processes.js';
import { UsageError } from '../../../../src/util/errors.js';
import { silentLogger } from '../../../../src/util/log.js';

describe('--shards', () => {
  it('implies --shard and must be at least 1', () => {
    const options = resolveKwokOptions(parseKwokArgs(['--manage-all-nodes', '--shards=3']), {}, []);
    assert.equal(options.shard.enabled, true);
    assert.equal(options.shard.processes, 3);
    assert.equal(resolveKwokOptions(parseKwokArgs(['--manage-all-nodes']), {}, []).shard.enabled, false);
    assert.throws(() => resolveKwokOptions(parseKwokArgs(['--manage-all-nodes', '--shards=0']), {}, []), UsageError);
    assert.throws(() => resolveKwokOptions(parseKwokArgs(['--manage-all-nodes', '--shard', '--leader-elect']), {}, []), UsageError);
    assert.throws(() => resolveKwokOptions(parseKwokArgs(['--manage-all-nodes', '--shard', '--shard-lease-duration=2s', '--shard-retry-period=2s']), {}, []), UsageError);
  });

  it('children keep the flags, get their own id and port 0, and no --shards', () => {
    const flags = parseKwokArgs(['--manage-all-nodes', '--kubeconfig', '/k', '--config=/a', '-c', '/b', '--shards=3', '--id=kwok-x', '--server-address=127.0.0.1:10247', '--node-port=10247']);
    const args = shardChildArgs(flags, 'kwok-x', 2, '127.0.0.1');
    assert.deepEqual(args, ['--manage-all-nodes=true', '--kubeconfig=/k', '--config=/a', '--config=/b', '--node-port=10247', '--shard=true', '--id=kwok-x-2', '--server-address=127.0.0.1:0']);
    const child = resolveKwokOptions(parseKwokArgs(args), {}, []);
    assert.equal(child.shard.processes, 1);
    assert.equal(child.shard.enabled, true);
    assert.equal(child.id, 'kwok-x-2');
    assert.deepEqual(shardChildArgs(flags, 'kwok-x', 1, '::1').at(-1), '--server-address=[::1]:0');
  });

  it('starts N-1 children, restarts one that exits, and stops them with the signal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shard-children-'));
    const out = join(dir, 'starts');
    const script = join(dir, 'child.mjs');
    // Records its --id, then child 1 exits at once (to be restarted) and child 2 runs until stopped.
    writeFileSync(script, `import { appendFileSync } from 'node:fs';
const id = process.argv.find((a) => a.startsWith('--id='));
appendFileSync(${JSON.stringify(out)}, id + '\\n');
if (id === '--id=x-1') process.exit(3);
setInterval(() => {}, 1000);
`);
    const abort = new AbortController();
    const running = runShardChildren({ flags: parseKwokArgs(['--manage-all-nodes']), id: 'x', count: 3, listenHost: undefined, logger: silentLogger, command: { file: process.execPath, args: [script] } }, abort.signal);
    const starts = (): string[] => (existsSync(out) ? readFileSync(out, 'utf8').trim().split('\n') : []);
    const deadline = Date.now() + 120_000;
    while (!(starts().filter((s) => s === '--id=x-1').length >= 2 && starts().includes('--id=x-2'))) {
      assert.ok(Date.now() < deadline, `children not (re)started: ${starts().join(' ')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    abort.abort();
    await running;
    rmSync(dir, { recursive: true, force: true });
  });

  it('a child stops when its parent is gone, and exits if that stop hangs', async () => {
    // The parent's pid is not ours: gone. The clean stop never finishes, so the exit must come.
    const events: string[] = [];
    // The watcher's timers are unref'd, as they must not keep a stopped child alive; this keeps the test's.
    const keepAlive = setInterval(() => {}, 1000);
    await new Promise<void>((resolve) => {
      watchShardParent(() => events.push('stop'), {
        env: { [shardParentEnv]: String(process.ppid + 1_000_000) },
        graceMs: 10,
        exit: () => {
          events.push('exit');
          resolve();
        },
      });
    });
    clearInterval(keepAlive);
    assert.deepEqual(events, ['stop', 'exit']);
  });

  it('a child whose parent is alive keeps running', async () => {
    let called = false;
    watchShardParent(() => (called = true), { env: { [shardParentEnv]: String(process.ppid) }, exit: () => (called = true) });
    // Two of the watcher's 1 s checks.
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(called, false);
  });
});
