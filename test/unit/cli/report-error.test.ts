import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reportError } from '../../../src/cli/base-command.js';
import { ExternalCommandError, OperationError, PreflightError } from '../../../src/util/errors.js';
import { commandFailed, failureOutput, KEPT_OUTPUT_LINES } from '../../../src/util/output-tail.js';
import { LogLevel } from '../../../src/util/log.js';

/** What reportError writes to stderr, and the exit code it returns. */
function report(error: unknown, level: number = LogLevel.INFO): { code: number; lines: string[] } {
  const written: string[] = [];
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => {
    written.push(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    const code = reportError(error, level);
    return { code, lines: written.join('').split('\n').filter((l) => l !== '') };
  } finally {
    process.stderr.write = original;
  }
}

test('a failed command: the error line, then the tail of its output indented, then the hint', () => {
  const output = ['line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'Error: snapshot file has wrong checksum'].join('\n');
  const { code, lines } = report(new ExternalCommandError('etcdutl snapshot restore failed (exit 5)', ['etcdutl'], output, { hint: 'check the file' }));
  assert.equal(code, 1);
  assert.deepEqual(lines, ['error: etcdutl snapshot restore failed (exit 5)', '  line 2', '  line 3', '  line 4', '  line 5', '  Error: snapshot file has wrong checksum', 'hint: check the file']);
});

test('a Go panic in the output: the panic line, not the goroutine dump', () => {
  const output = ['{"level":"info","msg":"starting"}', 'panic: write /data/member/snap/db: no space left on device', '', 'goroutine 1 [running]:', 'main.main()', '\t/src/main.go:12 +0x1d'].join('\n');
  const { lines } = report(new ExternalCommandError('etcd failed', ['etcd'], output));
  assert.deepEqual(lines, ['error: etcd failed', '  info: starting', '  panic: write /data/member/snap/db: no space left on device']);
});

test('a multi-line message: one error line, the rest indented under it', () => {
  const { lines } = report(new OperationError('create failed: etcd exited; its log ends with:\n  a\n  b', { hint: 'h' }));
  assert.deepEqual(lines, ['error: create failed: etcd exited; its log ends with:', '  a', '  b', 'hint: h']);
});

test('operating-system errors are not bugs: exit 1, the path and the reason, no stack', () => {
  const error = Object.assign(new Error("EROFS: read-only file system, open '/ro/x'"), { code: 'EROFS', path: '/ro/x', syscall: 'open' });
  const { code, lines } = report(error);
  assert.equal(code, 1);
  assert.equal(lines[0], 'error: /ro/x: read-only file system (EROFS)');
  assert.ok(!lines.some((l) => /^\s+at /.test(l)));
});

test('anything else is a bug: exit 70 with the stack', () => {
  const { code, lines } = report(new TypeError('x is undefined'));
  assert.equal(code, 70);
  assert.match(lines.at(-1)!, /bug in kwokts/);
});

test('an error that wraps a failed command (a preflight refusal, an image that would not pull): the command output is shown under it too', () => {
  const failed = commandFailed(['docker', 'pull', 'x'], 'docker pull x failed (exit 1)', 'Error response from daemon: pull access denied for x');
  const { code, lines } = report(new PreflightError('image x is not present and could not be pulled', { hint: 'load it', cause: failed }));
  assert.equal(code, 3);
  assert.deepEqual(lines, ['error: image x is not present and could not be pulled', '  Error response from daemon: pull access denied for x', 'hint: load it']);
});

test('a failed command keeps the last 20 lines of its output, whoever ran it', () => {
  const output = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
  const error = commandFailed(['go', 'build'], 'go build failed (exit 1)', output);
  assert.equal(error.output.split('\n').length, KEPT_OUTPUT_LINES);
  assert.equal(error.output.split('\n').at(-1), 'line 50');
  assert.equal(failureOutput(new OperationError('wrapped', { cause: error })), error.output);
  assert.equal(failureOutput(new OperationError('no command')), '');
});

test('a full disk: the hint says to free space where the file is, not to move KWOK_WORKDIR (the cluster lives there)', () => {
  const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', path: '/var/lib/kwok/clusters/c1/pids/etcd.pid' });
  const { code, lines } = report(full);
  assert.equal(code, 1);
  assert.equal(lines[0], 'error: /var/lib/kwok/clusters/c1/pids/etcd.pid: no space left on device (ENOSPC)');
  assert.match(lines[1]!, /^hint: free space on the file system that holds \/(var\/lib\/kwok\/clusters\/c1\/pids|[^ ]*) \(see `df -h [^`]+`\), then try again$/);
  assert.doesNotMatch(lines.join('\n'), /KWOK_WORKDIR/);
  const quota = report(Object.assign(new Error('EDQUOT'), { code: 'EDQUOT' }));
  assert.deepEqual(quota.lines, ['error: disk quota exceeded (EDQUOT)', 'hint: free some disk space and try again']);
});
