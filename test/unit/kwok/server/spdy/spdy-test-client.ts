/**
 * A minimal SPDY client for tests, playing kube-apiserver's part: opens streams with headers,
 * sends data, and collects what the server sends back, per stream.
 */
import net from 'node:net';
import {
  decodeGoAway,
  decodeHeaderBlock,
  decodeRstStream,
  decodeStreamHeaders,
  encodeData,
  encodeHeaderBlock,
  encodeSynStream,
  FLAG_FIN,
  FrameReader,
  FrameType,
} from '../../../../../src/kwok/server/spdy/frames.js';
import type { SpdyHeaders } from '../../../../../src/kwok/server/spdy/frames.js';
import { HeaderCompressor, HeaderDecompressor } from '../../../../../src/kwok/server/spdy/header-codec.js';

export interface ClientStream {
  id: number;
  replied: boolean;
  data: Buffer[];
  finished: boolean;
  reset: boolean;
}

export class SpdyTestClient {
  readonly streams = new Map<number, ClientStream>();
  readonly pings: number[] = [];
  goAway = false;
  closed = false;
  /** Status line and headers of the HTTP upgrade answer. */
  response = '';
  private nextId = 1;
  private readonly compressor = new HeaderCompressor();
  private readonly decompressor = new HeaderDecompressor();
  private readonly reader = new FrameReader();
  private chain: Promise<void> = Promise.resolve();
  private waiters: Array<() => void> = [];

  private constructor(private readonly socket: net.Socket) {}

  /** Connect, send the upgrade request and wait for the answer's head. */
  static async connect(port: number, path: string, protocols: string[], headers: Record<string, string> = {}): Promise<SpdyTestClient> {
    const socket = net.connect({ host: '127.0.0.1', port });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const client = new SpdyTestClient(socket);
    const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    const versions = protocols.map((p) => `X-Stream-Protocol-Version: ${p}\r\n`).join('');
    socket.write(`POST ${path} HTTP/1.1\r\nHost: kubelet\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n${versions}${extra}Content-Length: 0\r\n\r\n`);
    let head = Buffer.alloc(0);
    await new Promise<void>((resolve) => {
      const onData = (chunk: Buffer): void => {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        socket.off('data', onData);
        client.response = head.subarray(0, end).toString('latin1');
        const rest = head.subarray(end + 4);
        socket.on('data', (c: Buffer) => client.receive(c));
        if (rest.length > 0 && client.response.startsWith('HTTP/1.1 101')) client.receive(rest);
        else if (rest.length > 0) client.response += `\r\n\r\n${rest.toString('utf8')}`;
        resolve();
      };
      socket.on('data', onData);
    });
    // After the frames already read: closing is the last event the client sees.
    socket.on('close', () => {
      client.chain = client.chain.then(() => {
        client.closed = true;
        client.notify();
      });
    });
    return client;
  }

  async open(headers: SpdyHeaders, fin = false): Promise<number> {
    const id = this.nextId;
    this.nextId += 2;
    this.streams.set(id, { id, replied: false, data: [], finished: false, reset: false });
    const block = await this.compressor.compress(encodeHeaderBlock(headers));
    this.socket.write(encodeSynStream(id, block, fin ? FLAG_FIN : 0));
    return id;
  }

  send(id: number, data: Buffer | string, fin = false): void {
    this.socket.write(encodeData(id, Buffer.from(data), fin));
  }

  raw(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  text(id: number): string {
    return Buffer.concat(this.streams.get(id)?.data ?? []).toString('utf8');
  }

  /** Resolves when `check` holds, re-checked after every frame. */
  async until(check: () => boolean): Promise<void> {
    while (!check()) {
      if (this.closed) {
        if (check()) return;
        throw new Error('connection closed before the condition held');
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  close(): void {
    this.socket.destroy();
    this.compressor.close();
    this.decompressor.close();
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private receive(chunk: Buffer): void {
    for (const frame of this.reader.push(chunk)) {
      this.chain = this.chain.then(async () => {
        if (!frame.control) {
          const s = this.streams.get(frame.streamId);
          if (s) {
            s.data.push(frame.data);
            if (frame.flags & FLAG_FIN) s.finished = true;
          }
        } else if (frame.type === FrameType.SynReply) {
          const { streamId, headerBlock } = decodeStreamHeaders(frame.payload);
          decodeHeaderBlock(await this.decompressor.decompress(headerBlock));
          const s = this.streams.get(streamId);
          if (s) s.replied = true;
        } else if (frame.type === FrameType.RstStream) {
          const s = this.streams.get(decodeRstStream(frame.payload).streamId);
          if (s) s.reset = true;
        } else if (frame.type === FrameType.Ping) {
          this.pings.push(frame.payload.readUInt32BE(0));
        } else if (frame.type === FrameType.GoAway) {
          decodeGoAway(frame.payload);
          this.goAway = true;
        }
        this.notify();
      });
    }
  }
}
