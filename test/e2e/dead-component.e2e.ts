/**
 * A component that dies under a cluster (etcd on a full disk, a killed process): every command
 * that needs it must end with one `error:` line that names the component that is down and what
 * its log says, with the documented exit code (never 0, never 70, never a hang or a stack), and
 * leave nothing half-made. Needs the control-plane binaries; the full-disk cases need root to
 * mount a tmpfs (skipped without).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { kwokts, requireBinaries, sandbox, type CliResult, type Sandbox } from './harness.js';

/** Processes started for a cluster under `dir` (their owner marker names it), zombies aside. */
function markedProcesses(dir: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').some((e) => e.startsWith(`KWOKTS_OWNER=${dir}`))) out.push(Number(entry));
    } catch {
      /* gone or not ours */
    }
  }
  return out;
}

/** The rules every failure here keeps: a documented non-zero code, one error line, no stack. */
function assertOneLineFailure(result: CliResult, exit: number): string {
  const errors = result.stderr.split('\n').filter((l) => l.startsWith('error:'));
  assert.equal(result.exitCode, exit, result.stderr);
  assert.equal(errors.length, 1, result.stderr);
  assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack');
  assert.doesNotMatch(result.stderr, /unexpected failure|bug in kwokts/, result.stderr);
  return errors[0]!;
}

/** A sandbox whose KWOK_WORKDIR is on a tmpfs of `size`; undefined (test skipped) where none can be mounted. */
async function tmpfsSandbox(t: { skip(message: string): void }, size: string): Promise<{ box: Sandbox; disk: string; release(): Promise<void> } | undefined> {
  const box = sandbox();
  const disk = join(box.workdir, '..', 'disk');
  mkdirSync(disk);
  const mounted = await execa('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', disk], { reject: false });
  if (mounted.exitCode !== 0) {
    box.cleanup();
    t.skip(`cannot mount a tmpfs here: ${String(mounted.stderr).trim()}`);
    return undefined;
  }
  box.env.KWOK_WORKDIR = join(disk, 'workdir');
  return {
    box,
    disk,
    release: async () => {
      await execa('umount', [disk], { reject: false });
      box.cleanup();
    },
  };
}

describe('a component that cannot start', { timeout: 600_000 }, () => {
  test('create on a disk too small for etcd names etcd and its full disk, and leaves nothing', async (t) => {
    requireBinaries();
    // Room for the certificates and the record, not for etcd's write-ahead log.
    const env = await tmpfsSandbox(t, '2m');
    if (!env) return;
    const name = 'dd-tiny';
    try {
      const result = await kwokts(env.box, ['--name', name, 'create', 'cluster', '--wait', '2m']);
      const error = assertOneLineFailure(result, 1);
      // etcd failed first (the apiserver only gave up on it later): etcd is named, with its reason.
      assert.match(error, /^error: create failed: etcd exited during start-up: .*no space left on device$/, result.stderr);
      assert.doesNotMatch(error, /kube-apiserver|context deadline exceeded/);
      assert.match(result.stderr, /^hint: the cluster was rolled back; free space on the file system that holds \S+ \(see `df -h \S+`\), then try again$/m);
      assert.ok(!existsSync(join(env.box.env.KWOK_WORKDIR!, 'clusters', name)), 'the cluster directory is rolled back');
      assert.deepEqual(markedProcesses(join(env.box.workdir, '..')), [], 'no component left running');
    } finally {
      await kwokts(env.box, ['--name', name, 'delete', 'cluster']);
      await env.release();
    }
  });
});
