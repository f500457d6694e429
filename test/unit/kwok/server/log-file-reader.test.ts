import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { detectLogFormat, findTailStart, LogRenderer, openLogFile, parseLogLine, parseLogTime, streamLogFile } from '../../../../src/kwok/server/log-file-reader.js';
import type { LogReadOptions } from '../../../../src/kwok/server/log-file-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'kwok-logs-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function file(content: string): string {
  const path = join(dir, `f${n++}.log`);
  writeFileSync(path, content);
  return path;
}

async function read(path: string, options: Partial<LogReadOptions> = {}, signal = new AbortController().signal): Promise<string> {
  const chunks: Buffer[] = [];
  await streamLogFile(await openLogFile(path), { timestamps: false, follow: false, ...options }, async (c) => void chunks.push(Buffer.from(c)), signal);
  return Buffer.concat(chunks).toString('utf8');
}

async function tailOf(content: string, lines: number): Promise<string> {
  const path = file(content);
  const handle = await open(path, 'r');
  try {
    return content.slice(await findTailStart(handle, Buffer.byteLength(content), lines));
  } finally {
    await handle.close();
  }
}

const CRI = ['2024-05-01T10:00:01.123456789Z stdout F one', '2024-05-01T10:00:02Z stderr F two', '2024-05-01T10:00:03.5Z stdout P thr', '2024-05-01T10:00:03.6Z stdout F ee', ''].join('\n');

describe('tail lines', () => {
  it('counts lines from the end; a final newline does not start another line', async () => {
    assert.equal(await tailOf('a\nb\nc\n', 1), 'c\n');
    assert.equal(await tailOf('a\nb\nc\n', 2), 'b\nc\n');
    assert.equal(await tailOf('a\nb\nc\n', 3), 'a\nb\nc\n');
    assert.equal(await tailOf('a\nb\nc\n', 10), 'a\nb\nc\n');
    assert.equal(await tailOf('a\nb\nc\n', 0), '');
    assert.equal(await tailOf('a\nb\nc', 1), 'c', 'an unterminated last line is a line');
    assert.equal(await tailOf('a\n\n\n', 2), '\n\n', 'empty lines count');
    assert.equal(await tailOf('', 3), '');
  });

  it('works across read blocks', async () => {
    const big = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n') + '\n';
    assert.equal(await tailOf(big, 2), 'line 19998\nline 19999\n');
    assert.equal((await tailOf(big, 15_000)).split('\n')[0], 'line 5000');
  });
});

describe('formats', () => {
  it('is decided by the first line: CRI, Docker JSON, else plain text', () => {
    assert.equal(detectLogFormat(Buffer.from('2024-05-01T10:00:01Z stdout F hello\n')), 'cri');
    assert.equal(detectLogFormat(Buffer.from('{"log":"hello\\n","stream":"stdout","time":"2024-05-01T10:00:01Z"}\n')), 'json');
    assert.equal(detectLogFormat(Buffer.from('hello world\n')), 'plain');
    assert.equal(detectLogFormat(Buffer.from('2024-05-01T10:00:01Z stdin F no such stream\n')), 'plain');
    assert.equal(detectLogFormat(Buffer.from('{"msg":"structured app log"}\n')), 'plain');
  });

  it('parses RFC 3339 times with up to nine fraction digits into the kubelet fixed-width form', () => {
    assert.deepEqual(parseLogTime('2024-05-01T10:00:01.5Z'), { text: '2024-05-01T10:00:01.500000000Z', ms: Date.UTC(2024, 4, 1, 10, 0, 1, 500) });
    assert.equal(parseLogTime('2024-05-01T12:00:01+02:00')?.ms, Date.UTC(2024, 4, 1, 10, 0, 1));
    assert.equal(parseLogTime('2024-05-01 10:00:01Z'), undefined);
  });

  it('strips the CRI prefix; a partial record keeps no newline', () => {
    assert.equal(parseLogLine(Buffer.from('2024-05-01T10:00:01Z stdout F hello\n'), 'cri')?.content.toString(), 'hello\n');
    assert.equal(parseLogLine(Buffer.from('2024-05-01T10:00:01Z stdout P:x hel\n'), 'cri')?.content.toString(), 'hel');
    assert.equal(parseLogLine(Buffer.from('garbage\n'), 'cri'), undefined);
  });

  it('returns the container text of each format', async () => {
    assert.equal(await read(file(CRI)), 'one\ntwo\nthree\n');
    assert.equal(await read(file('{"log":"a\\n","stream":"stdout","time":"2024-05-01T10:00:01Z"}\n{"log":"b\\n","stream":"stderr","time":"2024-05-01T10:00:02Z"}\n')), 'a\nb\n');
    assert.equal(await read(file('plain one\nplain two')), 'plain one\nplain two', 'plain text as it is, last line without newline included');
  });
});

describe('request options', () => {
  it('tailLines, also together with limitBytes', async () => {
    const path = file('1\n2\n3\n4\n');
    assert.equal(await read(path, { tailLines: 1 }), '4\n');
    assert.equal(await read(path, { tailLines: 3, limitBytes: 3 }), '2\n3');
    assert.equal(await read(path, { tailLines: 0 }), '');
  });

  it('limitBytes cuts the output, prefixes included', async () => {
    assert.equal(await read(file('hello\nworld\n'), { limitBytes: 8 }), 'hello\nwo');
    assert.equal(await read(file(CRI), { limitBytes: 5, timestamps: true }), '2024-');
  });

  it('timestamps prefix each line once, partial records joined', async () => {
    assert.equal(
      await read(file(CRI), { timestamps: true }),
      '2024-05-01T10:00:01.123456789Z one\n2024-05-01T10:00:02.000000000Z two\n2024-05-01T10:00:03.500000000Z three\n',
    );
  });

  it('since drops older records of timestamped formats and is ignored for plain text', async () => {
    assert.equal(await read(file(CRI), { sinceMs: Date.UTC(2024, 4, 1, 10, 0, 2) }), 'two\nthree\n');
    assert.equal(await read(file('old\nnew\n'), { sinceMs: Date.now() + 60_000, timestamps: true }), 'old\nnew\n');
  });

  it('a renderer that ran out of bytes says so', () => {
    const renderer = new LogRenderer({ limitBytes: 2, timestamps: false });
    assert.equal(renderer.render({ content: Buffer.from('abc\n') })?.toString(), 'ab');
    assert.equal(renderer.exhausted, true);
    assert.equal(renderer.render({ content: Buffer.from('more\n') }), undefined);
  });
});

describe('follow', { timeout: 20_000 }, () => {
  async function follow(path: string, options: Partial<LogReadOptions>, steps: Array<(seen: () => string) => Promise<void> | void>): Promise<string> {
    const abort = new AbortController();
    const chunks: Buffer[] = [];
    const seen = (): string => Buffer.concat(chunks).toString('utf8');
    const done = streamLogFile(await openLogFile(path), { timestamps: false, follow: true, ...options }, async (c) => void chunks.push(Buffer.from(c)), abort.signal);
    for (const step of steps) await step(seen);
    abort.abort();
    await done;
    return seen();
  }
  const until = async (what: string, check: () => boolean): Promise<void> => {
    const deadline = Date.now() + 5000;
    while (!check()) {
      if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it('sends what is appended, holding a line until its newline, until aborted', async () => {
    const path = file('first\n');
    const out = await follow(path, {}, [
      (seen) => until('the existing line', () => seen() === 'first\n'),
      () => appendFileSync(path, 'second\nthi'),
      (seen) => until('the appended line', () => seen() === 'first\nsecond\n'),
      () => appendFileSync(path, 'rd\n'),
      (seen) => until('the completed line', () => seen() === 'first\nsecond\nthird\n'),
    ]);
    assert.equal(out, 'first\nsecond\nthird\n');
  });

  it('starts at the tail and goes on across truncation and replacement', async () => {
    const path = file('a\nb\nc\n');
    const out = await follow(path, { tailLines: 1 }, [
      (seen) => until('the tail', () => seen() === 'c\n'),
      () => writeFileSync(path, 'x\n'),
      (seen) => until('the truncated file from its start', () => seen() === 'c\nx\n'),
      () => {
        renameSync(path, `${path}.1`);
        writeFileSync(path, 'rotated\n');
      },
      (seen) => until('the new file', () => seen() === 'c\nx\nrotated\n'),
    ]);
    assert.equal(out, 'c\nx\nrotated\n');
  });

  it('ends by itself once limitBytes is sent', async () => {
    const path = file('abc\n');
    const chunks: Buffer[] = [];
    await streamLogFile(await openLogFile(path), { timestamps: false, follow: true, limitBytes: 2 }, async (c) => void chunks.push(Buffer.from(c)), new AbortController().signal);
    assert.equal(Buffer.concat(chunks).toString(), 'ab');
  });
});
