/**
 * SPDY/3.1 framing (SPDY Protocol draft 3.1, section 2.2), the part a server of Kubernetes'
 * streaming protocols needs: a reader that cuts a byte stream into frames and decodes the control
 * frames a client sends, and encoders for the frames a server sends. Header blocks are handled here
 * uncompressed; their zlib layer lives in header-codec.ts because it keeps state across frames.
 *
 * Pure: no sockets, no zlib.
 */

export const SPDY_VERSION = 3;

export const FrameType = {
  SynStream: 1,
  SynReply: 2,
  RstStream: 3,
  Settings: 4,
  Ping: 6,
  GoAway: 7,
  Headers: 8,
  WindowUpdate: 9,
} as const;

/** FIN on DATA, SYN_STREAM, SYN_REPLY and HEADERS frames: the sender will send nothing more on the stream. */
export const FLAG_FIN = 0x01;
/** UNIDIRECTIONAL on SYN_STREAM: the receiver must not send on the stream. */
export const FLAG_UNIDIRECTIONAL = 0x02;

export const RstStatus = {
  ProtocolError: 1,
  InvalidStream: 2,
  RefusedStream: 3,
  Cancel: 5,
  InternalError: 6,
} as const;

/** The largest payload a frame's 24-bit length can carry. */
export const MAX_PAYLOAD = 0xffffff;

export type RawFrame =
  | { control: false; streamId: number; flags: number; data: Buffer }
  | { control: true; version: number; type: number; flags: number; payload: Buffer };

/** A frame that breaks the protocol; the connection cannot go on after it. */
export class SpdyProtocolError extends Error {}

/**
 * Cuts a byte stream into frames. Feed it chunks as they arrive; each call returns the frames
 * completed so far and keeps any partial frame for the next call.
 */
export class FrameReader {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): RawFrame[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: RawFrame[] = [];
    while (this.pending.length >= 8) {
      const length = this.pending.readUInt32BE(4) & 0xffffff;
      if (this.pending.length < 8 + length) break;
      const first = this.pending.readUInt32BE(0);
      const flags = this.pending[4] ?? 0;
      // Copied out, so a consumer that keeps a frame does not pin the whole read buffer.
      const body = Buffer.from(this.pending.subarray(8, 8 + length));
      this.pending = this.pending.subarray(8 + length);
      if (first & 0x80000000) {
        frames.push({ control: true, version: (first >>> 16) & 0x7fff, type: first & 0xffff, flags, payload: body });
      } else {
        const streamId = first & 0x7fffffff;
        if (streamId === 0) throw new SpdyProtocolError('DATA frame on stream 0');
        frames.push({ control: false, streamId, flags, data: body });
      }
    }
    return frames;
  }
}

function need(payload: Buffer, bytes: number, what: string): void {
  if (payload.length < bytes) throw new SpdyProtocolError(`${what} frame too short (${payload.length} bytes)`);
}

export interface SynStream {
  streamId: number;
  associatedTo: number;
  priority: number;
  /** The compressed header block. */
  headerBlock: Buffer;
}

export function decodeSynStream(payload: Buffer): SynStream {
  need(payload, 10, 'SYN_STREAM');
  const streamId = payload.readUInt32BE(0) & 0x7fffffff;
  if (streamId === 0) throw new SpdyProtocolError('SYN_STREAM for stream 0');
  return {
    streamId,
    associatedTo: payload.readUInt32BE(4) & 0x7fffffff,
    priority: (payload[8] ?? 0) >> 5,
    headerBlock: payload.subarray(10),
  };
}

/** SYN_REPLY and HEADERS share this layout: a stream id, then the compressed header block. */
export function decodeStreamHeaders(payload: Buffer): { streamId: number; headerBlock: Buffer } {
  need(payload, 4, 'SYN_REPLY/HEADERS');
  return { streamId: payload.readUInt32BE(0) & 0x7fffffff, headerBlock: payload.subarray(4) };
}

export function decodeRstStream(payload: Buffer): { streamId: number; status: number } {
  need(payload, 8, 'RST_STREAM');
  return { streamId: payload.readUInt32BE(0) & 0x7fffffff, status: payload.readUInt32BE(4) };
}

export function decodePing(payload: Buffer): { id: number } {
  need(payload, 4, 'PING');
  return { id: payload.readUInt32BE(0) };
}

export function decodeGoAway(payload: Buffer): { lastGoodStreamId: number; status: number } {
  need(payload, 8, 'GOAWAY');
  return { lastGoodStreamId: payload.readUInt32BE(0) & 0x7fffffff, status: payload.readUInt32BE(4) };
}

export function decodeWindowUpdate(payload: Buffer): { streamId: number; delta: number } {
  need(payload, 8, 'WINDOW_UPDATE');
  return { streamId: payload.readUInt32BE(0) & 0x7fffffff, delta: payload.readUInt32BE(4) & 0x7fffffff };
}

export function encodeControl(type: number, flags: number, payload: Buffer): Buffer {
  if (payload.length > MAX_PAYLOAD) throw new RangeError(`control frame payload of ${payload.length} bytes`);
  const head = Buffer.alloc(8);
  head.writeUInt32BE((0x8000 | SPDY_VERSION) * 0x10000 + type, 0);
  head.writeUInt32BE(flags * 0x1000000 + payload.length, 4);
  return Buffer.concat([head, payload]);
}

/** A DATA frame; callers split data longer than MAX_PAYLOAD. */
export function encodeData(streamId: number, data: Buffer, fin: boolean): Buffer {
  if (data.length > MAX_PAYLOAD) throw new RangeError(`DATA payload of ${data.length} bytes`);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(streamId & 0x7fffffff, 0);
  head.writeUInt32BE((fin ? FLAG_FIN : 0) * 0x1000000 + data.length, 4);
  return Buffer.concat([head, data]);
}

function u32(...values: number[]): Buffer {
  const out = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => out.writeUInt32BE(v >>> 0, i * 4));
  return out;
}

export function encodeSynReply(streamId: number, headerBlock: Buffer, fin: boolean): Buffer {
  return encodeControl(FrameType.SynReply, fin ? FLAG_FIN : 0, Buffer.concat([u32(streamId & 0x7fffffff), headerBlock]));
}

export function encodeSynStream(streamId: number, headerBlock: Buffer, flags = 0): Buffer {
  // Associated-To 0, priority 0, slot 0.
  return encodeControl(FrameType.SynStream, flags, Buffer.concat([u32(streamId & 0x7fffffff, 0), Buffer.alloc(2), headerBlock]));
}

export function encodeRstStream(streamId: number, status: number): Buffer {
  return encodeControl(FrameType.RstStream, 0, u32(streamId & 0x7fffffff, status));
}

export function encodePing(id: number): Buffer {
  return encodeControl(FrameType.Ping, 0, u32(id));
}

export function encodeGoAway(lastGoodStreamId: number, status = 0): Buffer {
  return encodeControl(FrameType.GoAway, 0, u32(lastGoodStreamId & 0x7fffffff, status));
}

/** Header names and their values; SPDY names are lower case, several values travel NUL-separated. */
export type SpdyHeaders = Record<string, string[]>;

/** The uncompressed name/value block: a count, then length-prefixed names and values. */
export function encodeHeaderBlock(headers: SpdyHeaders): Buffer {
  const entries = Object.entries(headers);
  const parts: Buffer[] = [u32(entries.length)];
  for (const [name, values] of entries) {
    const n = Buffer.from(name.toLowerCase(), 'utf8');
    const v = Buffer.from(values.join('\0'), 'utf8');
    parts.push(u32(n.length), n, u32(v.length), v);
  }
  return Buffer.concat(parts);
}

export function decodeHeaderBlock(block: Buffer): SpdyHeaders {
  let at = 0;
  const take = (bytes: number): Buffer => {
    if (at + bytes > block.length) throw new SpdyProtocolError('header block ends early');
    const out = block.subarray(at, at + bytes);
    at += bytes;
    return out;
  };
  const count = take(4).readUInt32BE(0);
  const headers: SpdyHeaders = {};
  for (let i = 0; i < count; i++) {
    const name = take(take(4).readUInt32BE(0)).toString('utf8').toLowerCase();
    const values = take(take(4).readUInt32BE(0)).toString('utf8').split('\0');
    (headers[name] ??= []).push(...values);
  }
  return headers;
}
