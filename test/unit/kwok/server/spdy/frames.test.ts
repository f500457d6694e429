import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { SPDY3_HEADER_DICTIONARY } from '../../../../../src/kwok/server/spdy/dictionary.js';
import {
  decodeHeaderBlock,
  decodePing,
  decodeSynStream,
  encodeData,
  encodeGoAway,
  encodeHeaderBlock,
  encodeRstStream,
  encodeSynReply,
  FLAG_FIN,
  FrameReader,
  FrameType,
  SpdyProtocolError,
} from '../../../../../src/kwok/server/spdy/frames.js';
import type { RawFrame } from '../../../../../src/kwok/server/spdy/frames.js';
import { HeaderCompressor, HeaderDecompressor } from '../../../../../src/kwok/server/spdy/header-codec.js';
import { SPDYSTREAM_CLIENT_FRAMES } from './recorded-frames.js';

describe('SPDY/3 header dictionary', () => {
  it('is the 1423 bytes of the draft (same digest as spdystream\'s copy)', () => {
    assert.equal(SPDY3_HEADER_DICTIONARY.length, 1423);
    assert.equal(createHash('sha256').update(SPDY3_HEADER_DICTIONARY).digest('hex'), '51d27341373f923f3cd88e1eb7162aeaa3723d7585ff2399201dc06498407f02');
  });
});

describe('FrameReader on frames recorded from spdystream', () => {
  const expectFrames = (frames: RawFrame[]): void => {
    assert.deepEqual(
      frames.map((f) => (f.control ? `control ${f.type} flags ${f.flags}` : `data ${f.streamId} flags ${f.flags} ${f.data.toString('utf8')}`)),
      [
        `control ${FrameType.SynStream} flags 0`,
        `control ${FrameType.SynStream} flags 0`,
        `control ${FrameType.SynStream} flags 0`,
        'data 3 flags 0 hello\n',
        `data 3 flags ${FLAG_FIN} `,
        `control ${FrameType.Ping} flags 0`,
      ],
    );
  };

  it('cuts the stream into frames, whole or fed a byte at a time', () => {
    expectFrames(new FrameReader().push(SPDYSTREAM_CLIENT_FRAMES));
    const reader = new FrameReader();
    const frames: RawFrame[] = [];
    for (const byte of SPDYSTREAM_CLIENT_FRAMES) frames.push(...reader.push(Buffer.from([byte])));
    expectFrames(frames);
  });

  it('decodes the SYN_STREAMs, their headers through one zlib context, and the PING', async () => {
    const frames = new FrameReader().push(SPDYSTREAM_CLIENT_FRAMES);
    const inflate = new HeaderDecompressor();
    const seen: Array<{ id: number; headers: Record<string, string[]> }> = [];
    for (const frame of frames.slice(0, 3)) {
      assert.ok(frame.control);
      const syn = decodeSynStream(frame.payload);
      seen.push({ id: syn.streamId, headers: decodeHeaderBlock(await inflate.decompress(syn.headerBlock)) });
    }
    inflate.close();
    assert.deepEqual(seen, [
      { id: 1, headers: { streamtype: ['error'] } },
      { id: 3, headers: { streamtype: ['stdin'] } },
      { id: 5, headers: { streamtype: ['stdout'] } },
    ]);
    const ping = frames[5];
    assert.ok(ping?.control);
    assert.equal(decodePing(ping.payload).id, 1);
  });

  it('refuses a DATA frame on stream 0', () => {
    assert.throws(() => new FrameReader().push(encodeData(0, Buffer.from('x'), false)), SpdyProtocolError);
  });
});

describe('frame encoders', () => {
  it('write control frames with version 3 and the 24-bit length', () => {
    assert.equal(encodeRstStream(5, 5).toString('hex'), '80030003000000080000000500000005');
    assert.equal(encodeGoAway(7).toString('hex'), '80030007000000080000000700000000');
    assert.equal(encodeData(3, Buffer.from('hi'), true).toString('hex'), '00000003010000026869');
  });

  it('round-trip header blocks, several values NUL-separated', () => {
    const block = encodeHeaderBlock({ streamtype: ['data'], port: ['80'], multi: ['a', 'b'] });
    assert.deepEqual(decodeHeaderBlock(block), { streamtype: ['data'], port: ['80'], multi: ['a', 'b'] });
    assert.throws(() => decodeHeaderBlock(block.subarray(0, block.length - 1)), SpdyProtocolError);
  });

  it('write the bytes spdystream was checked to read: three empty SYN_REPLYs, DATA with FIN, GOAWAY', async () => {
    // Read back by moby/spdystream v0.5.1's Framer (a throwaway Go program) as three SynReplyFrames
    // with empty headers, DataFrame{3, FIN, "x"} and GoAwayFrame{5}.
    const deflate = new HeaderCompressor();
    const frames: Buffer[] = [];
    for (const id of [1, 3, 5]) frames.push(encodeSynReply(id, await deflate.compress(encodeHeaderBlock({})), false));
    frames.push(encodeData(3, Buffer.from('x'), true), encodeGoAway(5));
    deflate.close();
    assert.equal(
      Buffer.concat(frames).toString('hex'),
      '80030002000000130000000178f9e3c6a7c262000200000000ffff800300020000000c00000003020100000000ffff' +
        '800300020000000c00000005020100000000ffff00000003010000017880030007000000080000000500000000',
    );
  });

  it('compress SYN_REPLY headers so that one shared inflate context reads them in order', async () => {
    const deflate = new HeaderCompressor();
    const inflate = new HeaderDecompressor();
    const reader = new FrameReader();
    for (const id of [1, 3, 5]) {
      const frame = encodeSynReply(id, await deflate.compress(encodeHeaderBlock({ n: [String(id)] })), false);
      const [parsed] = reader.push(frame);
      assert.ok(parsed?.control);
      assert.equal(parsed.type, FrameType.SynReply);
      assert.equal(parsed.payload.readUInt32BE(0), id);
      assert.deepEqual(decodeHeaderBlock(await inflate.decompress(parsed.payload.subarray(4))), { n: [String(id)] });
    }
    deflate.close();
    inflate.close();
  });
});
