/**
 * SPDY/3 header compression: each direction of a connection is one zlib stream primed with the
 * SPDY dictionary, and every header block ends with a sync flush, so a block decodes only after
 * all earlier blocks of that direction. Node's zlib streams keep that state; the calls here must
 * be made one at a time, in frame order (the connection serialises them).
 */
import zlib from 'node:zlib';
import type { Deflate, Inflate } from 'node:zlib';
import { SPDY3_HEADER_DICTIONARY } from './dictionary.js';

/** Writes `input` to a zlib stream and collects what one sync flush makes of it. */
function pass(engine: Deflate | Inflate, input: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
    };
    const onError = (error: Error): void => {
      engine.off('data', onData);
      reject(error);
    };
    engine.on('data', onData);
    engine.once('error', onError);
    if (input.length > 0) engine.write(input);
    engine.flush(zlib.constants.Z_SYNC_FLUSH, () => {
      engine.off('data', onData);
      engine.off('error', onError);
      resolve(Buffer.concat(chunks));
    });
  });
}

export class HeaderCompressor {
  private readonly engine = zlib.createDeflate({ dictionary: SPDY3_HEADER_DICTIONARY, level: zlib.constants.Z_BEST_COMPRESSION });

  compress(block: Buffer): Promise<Buffer> {
    return pass(this.engine, block);
  }

  close(): void {
    this.engine.close();
  }
}

export class HeaderDecompressor {
  private readonly engine = zlib.createInflate({ dictionary: SPDY3_HEADER_DICTIONARY });

  decompress(compressed: Buffer): Promise<Buffer> {
    return pass(this.engine, compressed);
  }

  close(): void {
    this.engine.close();
  }
}
