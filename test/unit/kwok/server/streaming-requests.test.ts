import { PassThrough } from 'node:stream';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findExecutable, firstTerminalSize, processOptions, runLocalCommand, startFailure } from '../../../../src/kwok/server/exec-local.js';
import type { TerminalSize } from '../../../../src/kwok/server/remote-command.js';
import { checkForwardStream, parsePortForwardPath, PortForwardRequestError } from '../../../../src/kwok/server/port-forward.js';
import { parseRemoteCommandRequest, RemoteCommandRequestError, renderStatus, statusFor } from '../../../../src/kwok/server/remote-command.js';

describe('parseRemoteCommandRequest', () => {
  it('reads the kubelet paths with and without a uid, the commands and the channels', () => {
    assert.deepEqual(parseRemoteCommandRequest('/exec/ns/pod/app?command=sh&command=-c&command=echo%20hi&input=1&output=1&error=1'), {
      kind: 'exec',
      namespace: 'ns',
      pod: 'pod',
      container: 'app',
      command: ['sh', '-c', 'echo hi'],
      stdin: true,
      stdout: true,
      stderr: true,
      tty: false,
    });
    const attach = parseRemoteCommandRequest('/attach/ns/pod/1234-uid/app?output=1&error=1&tty=1');
    assert.equal(attach.kind, 'attach');
    assert.equal(attach.uid, '1234-uid');
    assert.equal(attach.container, 'app');
    assert.deepEqual(attach.command, []);
    // With a TTY, stderr goes with stdout: no stderr channel.
    assert.equal(attach.stderr, false);
    assert.equal(attach.tty, true);
  });

  it('refuses a request with no channel or a malformed path', () => {
    assert.throws(() => parseRemoteCommandRequest('/exec/ns/pod/app?command=true'), (e: unknown) => e instanceof RemoteCommandRequestError && e.message === 'you must specify at least 1 of stdin, stdout, stderr');
    assert.throws(() => parseRemoteCommandRequest('/exec/ns/pod?output=1'), RemoteCommandRequestError);
    assert.throws(() => parseRemoteCommandRequest('/exec/ns//app?output=1'), RemoteCommandRequestError);
  });
});

describe('exec statuses', () => {
  it('v4 gets JSON with the exit code as a cause; earlier versions the failure text only', () => {
    const exit = statusFor({ kind: 'exit', code: 3 }, 'ctx');
    assert.deepEqual(JSON.parse(renderStatus('v4.channel.k8s.io', exit).toString()), {
      status: 'Failure',
      message: 'command terminated with non-zero exit code: exit status 3',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    });
    const error = statusFor({ kind: 'error', message: 'boom' }, 'error executing command in container');
    assert.equal(renderStatus('v2.channel.k8s.io', error).toString(), 'Internal error occurred: error executing command in container: boom');
    assert.equal(renderStatus('channel.k8s.io', statusFor({ kind: 'success' }, 'x')).length, 0);
  });
});

describe('port-forward requests', () => {
  it('parses the path and checks stream headers as the kubelet does', () => {
    assert.deepEqual(parsePortForwardPath('/portForward/ns/pod'), { namespace: 'ns', pod: 'pod' });
    assert.deepEqual(parsePortForwardPath('/portForward/ns/pod/uid-1'), { namespace: 'ns', pod: 'pod', uid: 'uid-1' });
    assert.throws(() => parsePortForwardPath('/portForward/ns'), PortForwardRequestError);
    assert.equal(checkForwardStream({ port: ['80'], streamtype: ['data'] }), undefined);
    assert.equal(checkForwardStream({ streamtype: ['data'] }), '"port" header is required');
    assert.equal(checkForwardStream({ port: ['0'], streamtype: ['data'] }), 'port "0" must be > 0');
    assert.equal(checkForwardStream({ port: ['70000'], streamtype: ['data'] }), 'unable to parse "70000" as a port');
    assert.equal(checkForwardStream({ port: ['80'], streamtype: ['stdin'] }), 'invalid stream type "stdin"');
  });
});

describe('local exec targets', () => {
  it('add envs to the controller\'s environment and take workDir and ids', () => {
    const options = processOptions({ workDir: '/tmp', envs: [{ name: 'A', value: '1' }, { name: 'PATH', value: '/only' }], securityContext: { runAsUser: 1000, runAsGroup: 2000 } }, { PATH: '/usr/bin', HOME: '/root' });
    assert.deepEqual(options, { env: { PATH: '/only', HOME: '/root', A: '1' }, cwd: '/tmp', uid: 1000, gid: 2000 });
    assert.deepEqual(processOptions({ envs: [] }, { X: 'y' }), { env: { X: 'y' } });
  });

  it('word a command that cannot start as Go does', () => {
    const enoent = Object.assign(new Error('spawn x ENOENT'), { code: 'ENOENT' });
    assert.equal(startFailure(['nope', 'a'], enoent), 'cmd start: nope a: exec: "nope": executable file not found in $PATH');
    assert.equal(startFailure(['/bin/nope'], enoent), 'cmd start: /bin/nope : fork/exec /bin/nope: no such file or directory');
  });

  it('find programs as execvp does: on PATH, or as a path', () => {
    assert.equal(findExecutable('sh', process.env.PATH ?? '', '/'), undefined);
    assert.equal(findExecutable('/bin/sh', '', '/'), undefined);
    assert.equal(findExecutable('no-such-program-kwokts', process.env.PATH ?? '', '/')?.code, 'ENOENT');
    assert.equal(findExecutable('./sh', '', '/bin'), undefined);
    assert.equal(findExecutable('sh', '', '/')?.code, 'ENOENT', 'an empty PATH finds nothing');
  });
});

/** Sizes as a client sends them: each after `afterMs`, then the stream stays open until `end` is called. */
function sizeStream(sizes: TerminalSize[], afterMs: number): { iterator: AsyncIterator<TerminalSize>; end(): void } {
  let end = (): void => undefined;
  const ended = new Promise<void>((resolve) => (end = resolve));
  async function* generate(): AsyncGenerator<TerminalSize> {
    for (const size of sizes) {
      await new Promise((resolve) => setTimeout(resolve, afterMs));
      yield size;
    }
    await ended;
  }
  return { iterator: generate(), end };
}

describe('a TTY session\'s first terminal size', () => {
  it('is the first non-zero size the client sends, and the read after it is kept', async () => {
    const { iterator, end } = sizeStream([{ width: 0, height: 0 }, { width: 101, height: 31 }, { width: 120, height: 40 }], 5);
    const first = await firstTerminalSize(iterator, new AbortController().signal, 60_000);
    assert.deepEqual(first.size, { width: 101, height: 31 });
    assert.deepEqual(await first.rest, { value: { width: 120, height: 40 }, done: false });
    end();
  });

  it('is none when the stream ends or the session goes away first; a late size is not lost', async () => {
    const { iterator: ending, end } = sizeStream([], 0);
    end();
    assert.deepEqual(await firstTerminalSize(ending, new AbortController().signal, 60_000), { size: undefined, rest: undefined });

    const late = sizeStream([{ width: 90, height: 20 }], 50);
    const gone = new AbortController();
    const waiting = firstTerminalSize(late.iterator, gone.signal, 60_000);
    gone.abort();
    const first = await waiting;
    assert.equal(first.size, undefined);
    assert.deepEqual(await first.rest, { value: { width: 90, height: 20 }, done: false }, 'the pending read still delivers');
    late.end();
  });

  it('starts the command in a terminal of the client\'s size even when that size comes late', async (t) => {
    try {
      await import('@lydell/node-pty');
    } catch {
      t.skip('@lydell/node-pty is not installed');
      return;
    }
    // The size comes 300 ms after the session opens; `stty size` reads it as the command starts.
    const { iterator, end } = sizeStream([{ width: 101, height: 31 }], 300);
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    const outcome = await runLocalCommand({ envs: [] }, ['sh', '-c', 'stty size; exit 4'], {
      tty: true,
      stdout,
      resize: { [Symbol.asyncIterator]: () => iterator },
      signal: new AbortController().signal,
    });
    end();
    assert.deepEqual(outcome, { kind: 'exit', code: 4 });
    assert.match(out, /^31 101\r?$/m, out);
  });
});
