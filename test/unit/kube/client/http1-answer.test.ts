// The HTTP/1.1 answer reader on the bytes Go's net/http (kube-apiserver) sends: Content-Length and
// chunked bodies however the socket splits them, 1xx answers skipped, bodies up to the close,
// the headers a client acts on, and malformed answers refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AnswerFormatError, AnswerReader } from '../../../../src/kube/client/http1-answer.js';

interface Read {
  status: number;
  retryAfterMs: number;
  body: string;
  heads: number;
  done: boolean;
  keepAlive: boolean;
}

/** Feeds `bytes` in the given pieces and reports what the sink saw. */
function read(pieces: Buffer[], options: { bodiless?: boolean; closeAfter?: boolean } = {}): Read {
  const seen = { status: 0, retryAfterMs: 0, body: [] as Buffer[], heads: 0 };
  const reader = new AnswerReader(
    {
      onHead(status, retryAfterMs) {
        seen.status = status;
        seen.retryAfterMs = retryAfterMs;
        seen.heads++;
      },
      onData(piece) {
        seen.body.push(Buffer.from(piece));
        return true;
      },
    },
    options.bodiless,
  );
  for (const piece of pieces) reader.push(piece);
  if (options.closeAfter) reader.end();
  return { status: seen.status, retryAfterMs: seen.retryAfterMs, body: Buffer.concat(seen.body).toString('utf8'), heads: seen.heads, done: reader.done, keepAlive: reader.keepAlive };
}

/** Every way of cutting `text` in two, and byte by byte. */
function splits(text: string): Buffer[][] {
  const bytes = Buffer.from(text);
  const ways: Buffer[][] = [[bytes], [...bytes].map((b) => Buffer.from([b]))];
  for (let i = 1; i < bytes.length; i++) ways.push([bytes.subarray(0, i), bytes.subarray(i)]);
  return ways;
}

const json = '{"kind":"Pod","metadata":{"name":"é€𝄞"}}';
const lengthAnswer = `HTTP/1.1 200 OK\r\nAudit-Id: 1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\nDate: Tue, 01 Dec 2026 07:00:00 GMT\r\n\r\n${json}`;
// As Go writes a body larger than its buffer: chunks with sizes in hex, then the last chunk and an empty trailer.
const chunkedAnswer = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n${json.slice(0, 16)}\r\n${Buffer.byteLength(json.slice(16)).toString(16)};ext=1\r\n${json.slice(16)}\r\n0\r\nX-Trailer: a\r\n\r\n`;

describe('AnswerReader', () => {
  it('reads a Content-Length answer however the socket splits it', () => {
    for (const pieces of splits(lengthAnswer)) {
      const got = read(pieces);
      assert.deepEqual(got, { status: 200, retryAfterMs: 0, body: json, heads: 1, done: true, keepAlive: true }, `split ${pieces.map((p) => p.length).join('+')}`);
    }
  });

  it('reads a chunked answer, with an extension and a trailer, however the socket splits it', () => {
    for (const pieces of splits(chunkedAnswer)) {
      const got = read(pieces);
      assert.deepEqual(got, { status: 200, retryAfterMs: 0, body: json, heads: 1, done: true, keepAlive: true }, `split ${pieces.map((p) => p.length).join('+')}`);
    }
  });

  it('skips a 100 Continue before the answer', () => {
    for (const pieces of splits(`HTTP/1.1 100 Continue\r\n\r\n${lengthAnswer}`)) assert.equal(read(pieces).body, json);
    assert.equal(read([Buffer.from(`HTTP/1.1 100 Continue\r\n\r\n${lengthAnswer}`)]).heads, 1);
  });

  it('knows answers without a body: 204, 304 and any answer to a HEAD', () => {
    assert.deepEqual(read([Buffer.from('HTTP/1.1 204 No Content\r\nDate: x\r\n\r\n')]), { status: 204, retryAfterMs: 0, body: '', heads: 1, done: true, keepAlive: true });
    assert.equal(read([Buffer.from('HTTP/1.1 304 Not Modified\r\n\r\n')]).done, true);
    assert.equal(read([Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n')], { bodiless: true }).done, true);
    assert.equal(read([Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')]).done, true);
  });

  it('reads a body without length up to the close, and then not on the connection again', () => {
    const open = read([Buffer.from('HTTP/1.1 200 OK\r\n\r\nsome'), Buffer.from(' text')]);
    assert.equal(open.done, false);
    const closed = read([Buffer.from('HTTP/1.1 200 OK\r\n\r\nsome'), Buffer.from(' text')], { closeAfter: true });
    assert.deepEqual(closed, { status: 200, retryAfterMs: 0, body: 'some text', heads: 1, done: true, keepAlive: false });
  });

  it('tells when the server closes the connection after the answer', () => {
    assert.equal(read([Buffer.from('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')]).keepAlive, false);
    assert.equal(read([Buffer.from('HTTP/1.1 200 OK\r\nconnection: Keep-Alive, CLOSE\r\nContent-Length: 0\r\n\r\n')]).keepAlive, false);
    assert.equal(read([Buffer.from('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n')]).keepAlive, false);
    assert.equal(read([Buffer.from('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n')]).keepAlive, true);
    // A transfer coding other than chunked cannot be framed: the body runs to the close.
    const gzip = read([Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nxyz')], { closeAfter: true });
    assert.deepEqual([gzip.body, gzip.keepAlive], ['xyz', false]);
  });

  it('reports Retry-After in milliseconds', () => {
    assert.equal(read([Buffer.from('HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3\r\nContent-Length: 0\r\n\r\n')]).retryAfterMs, 3000);
    assert.equal(read([Buffer.from('HTTP/1.1 429 Too Many Requests\r\nretry-after: soon\r\nContent-Length: 0\r\n\r\n')]).retryAfterMs, 0);
  });

  it('refuses what is not an HTTP/1.x answer it can frame', () => {
    const malformed = [
      'SSH-2.0-OpenSSH\r\n\r\n',
      'HTTP/1.1 2x0 OK\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nabHTTP/1.1 200 OK',
    ];
    for (const text of malformed) assert.throws(() => read([Buffer.from(text)]), AnswerFormatError, text);
    assert.throws(() => read([Buffer.from('HTTP/1.1 200 OK\r\n'), Buffer.alloc(70 * 1024, 'a')]), /headers too large/);
  });

  it('asks for a pause when the sink does, and still takes the rest of the chunk', () => {
    const pieces: string[] = [];
    const reader = new AnswerReader({ onHead: () => undefined, onData: (piece) => (pieces.push(piece.toString()), false) });
    assert.equal(reader.push(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n3\r\ndef\r\n')), false);
    assert.deepEqual(pieces, ['abc', 'def']);
    assert.equal(reader.done, false);
  });
});
