/**
 * A component that dies under a cluster (etcd on a full disk, a killed process): every command
 * that needs it must end with one `error:` line that names the component that is down and what
 * its log says, with the documented exit code (never 0, never 70, never a hang or a stack), and
 * leave nothing half-made. Needs the control-plane binaries; the full-disk cases need root to
 * mount a tmpfs (skipped without).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { failure, fillDisk, INVOKED_RE, kwokts, requireBinaries, sandbox, spawnKwokts, waitFor, type CliResult, type Sandbox } from './harness.js';

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

/** The pid a cluster's pid file records for `component`. */
function pidOf(workdir: string, cluster: string, component: string): number {
  return Number(readFileSync(join(workdir, 'clusters', cluster, 'pids', `${component}.pid`), 'utf8').trim());
}

/** The port kube-apiserver listens on, from the cluster's kubeconfig. */
function apiserverPort(workdir: string, cluster: string): number {
  const match = /server: https:\/\/127\.0\.0\.1:(\d+)/.exec(readFileSync(join(workdir, 'clusters', cluster, 'kubeconfig.yaml'), 'utf8'));
  assert.ok(match, 'the cluster kubeconfig names its apiserver');
  return Number(match[1]);
}

/**
 * Whether process `pid` holds a TCP connection to `port` on loopback: its socket inodes, looked
 * up in the kernel's table. A stopped apiserver's kernel still completes the handshake, so this
 * says the command has got as far as sending its first request (its signal handlers are in place).
 */
function connectedTo(pid: number, port: number): boolean {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const target = (() => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`);
        } catch {
          return '';
        }
      })();
      const m = /^socket:\[(\d+)\]$/.exec(target);
      if (m) inodes.add(m[1]!);
    }
    const want = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
    return readFileSync(`/proc/${pid}/net/tcp`, 'utf8')
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/\s+/))
      .some((f) => f[2]?.endsWith(want) === true && f[3] === '01' && inodes.has(f[9] ?? ''));
  } catch {
    return false;
  }
}

describe('a component that stops answering or dies under a running cluster', { timeout: 900_000 }, () => {
  const name = 'dd-dead';
  let box: Sandbox;
  before(async () => {
    requireBinaries();
    box = sandbox();
    const created = await kwokts(box, ['--name', name, 'create', 'cluster', '--wait', '2m']);
    assert.equal(created.exitCode, 0, failure(created));
  });
  after(async () => {
    for (const component of ['kube-apiserver', 'etcd']) {
      try {
        process.kill(pidOf(box.workdir, name, component), 'SIGCONT');
      } catch {
        /* gone */
      }
    }
    await kwokts(box, ['--name', name, 'delete', 'cluster']);
    box.cleanup();
  });

  test('an apiserver that does not answer: --timeout ends scale naming it (exit 5); Ctrl-C exits 130 without a stack', async () => {
    const apiserver = pidOf(box.workdir, name, 'kube-apiserver');
    process.kill(apiserver, 'SIGSTOP');
    try {
      const timedOut = await kwokts(box, ['--name', name, 'scale', 'node', '--replicas', '3', '--timeout', '15s'], { timeoutMs: 180_000 });
      const error = assertOneLineFailure(timedOut, 5);
      assert.match(error, new RegExp(`^error: scale did not finish within --timeout 15s: kube-apiserver of cluster ${name} does not answer \\(timed out\\)$`));

      const child = spawnKwokts(box, ['--name', name, 'scale', 'node', '--replicas', '3']);
      const port = apiserverPort(box.workdir, name);
      await waitFor('scale to connect to the stopped apiserver', () => connectedTo(child.pid!, port));
      child.kill('SIGINT');
      const result = await child;
      const interrupted = assertOneLineFailure({ exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) }, 130);
      assert.equal(interrupted, 'error: interrupted by SIGINT');

      // Readiness is asked with a deadline of its own: get components answers, saying so.
      const components = await kwokts(box, ['--name', name, 'get', 'components', '-o', 'wide'], { timeoutMs: 180_000 });
      assert.equal(components.exitCode, 0, failure(components));
      assert.match(components.stdout, /^kube-apiserver\s+NotReady$/m);
    } finally {
      process.kill(apiserver, 'SIGCONT');
    }
  });

  test('etcd killed: scale and k8s snapshots name etcd in one line at once; get components says it is stopped', async () => {
    // The apiserver serves again after its stop; the kill below is what this test is about.
    await waitFor('the apiserver to answer again', async () => {
      const listed = await kwokts(box, ['--name', name, 'get', 'components', '-o', 'json']);
      return (JSON.parse(listed.stdout || '[]') as Array<{ name: string; ready: boolean }>).some((c) => c.name === 'kube-apiserver' && c.ready);
    });
    process.kill(pidOf(box.workdir, name, 'etcd'), 'SIGKILL');
    const dead = new RegExp(`etcd of cluster ${name} has exited(; its log says: .+)?$`);
    const hint = new RegExp(`^hint: read its log with \`${INVOKED_RE} --name ${name} logs etcd\`, then start it again with \`${INVOKED_RE} --name ${name} start cluster\`$`, 'm');

    const scaled = await kwokts(box, ['--name', name, 'scale', 'node', '--replicas', '3', '--timeout', '2m'], { timeoutMs: 180_000 });
    assert.match(assertOneLineFailure(scaled, 1), new RegExp(`^error: scale node: ${dead.source}`));
    assert.match(scaled.stderr, hint);

    const path = join(box.workdir, '..', 'objects.yaml');
    const saved = await kwokts(box, ['--name', name, 'snapshot', 'save', '--format', 'k8s', '--path', path], { timeoutMs: 180_000 });
    assert.match(assertOneLineFailure(saved, 1), new RegExp(`^error: snapshot save: ${dead.source}`));
    assert.equal(existsSync(path), false, 'a failed save writes nothing');

    const source = join(box.workdir, '..', 'restore.yaml');
    writeFileSync(source, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: restored\n  namespace: default\ndata:\n  a: b\n');
    const restored = await kwokts(box, ['--name', name, 'snapshot', 'restore', '--format', 'k8s', '--path', source], { timeoutMs: 180_000 });
    assert.match(assertOneLineFailure(restored, 1), new RegExp(`^error: snapshot restore: ${dead.source}`));

    const components = await kwokts(box, ['--name', name, 'get', 'components', '-o', 'wide'], { timeoutMs: 180_000 });
    assert.equal(components.exitCode, 0, failure(components));
    assert.match(components.stdout, /^etcd\s+Stopped$/m);
  });
});

describe('the disk fills up under a running cluster', { timeout: 900_000 }, () => {
  test('scale ends when etcd dies of it, naming etcd and the full file system', async (t) => {
    requireBinaries();
    const env = await tmpfsSandbox(t, '256m');
    if (!env) return;
    const name = 'dd-full';
    const filler = join(env.disk, 'filler');
    try {
      const created = await kwokts(env.box, ['--name', name, 'create', 'cluster', '--wait', '2m']);
      assert.equal(created.exitCode, 0, failure(created));
      fillDisk(filler);
      // More nodes than a full disk can hold: etcd must grow its database, cannot, and dies.
      const result = await kwokts(env.box, ['--name', name, 'scale', 'node', '--replicas', '20000', '--timeout', '5m'], { timeoutMs: 420_000 });
      const error = assertOneLineFailure(result, 1);
      assert.match(error, new RegExp(`^error: scale node: etcd of cluster ${name} has exited, and the file system that holds \\S+ (is full|has only \\d+ \\w+ free)(; its log says: .+)?$`));
      assert.match(result.stderr, new RegExp(`^hint: free space on the file system that holds \\S+ \\(see \`df -h \\S+\`\\), then start it again with \`${INVOKED_RE} --name ${name} start cluster\`$`, 'm'));
    } finally {
      rmSync(filler, { force: true });
      await kwokts(env.box, ['--name', name, 'delete', 'cluster']);
      await env.release();
    }
  });
});
