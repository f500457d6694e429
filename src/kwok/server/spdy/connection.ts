/**
 * The server side of a SPDY/3.1 connection as Kubernetes uses it (kube-apiserver's client is
 * moby/spdystream): the client opens every stream with SYN_STREAM, the server answers each with
 * an empty SYN_REPLY, and both sides send DATA until FIN. PINGs from the client are echoed, a
 * GOAWAY stops new streams, SETTINGS and WINDOW_UPDATE are read and ignored: spdystream never
 * sends WINDOW_UPDATE, so honouring flow-control windows would stall any output over 64 KiB.
 * Back-pressure comes from the socket instead.
 *
 * Frames in each direction are handled strictly in order, because header blocks share one zlib
 * context per direction and a DATA frame must not overtake its stream's SYN_REPLY.
 */
import { Duplex } from 'node:stream';
import type { Logger } from '../../../util/log.js';
import {
  decodeGoAway,
  decodeHeaderBlock,
  decodePing,
  decodeRstStream,
  decodeSynStream,
  encodeData,
  encodeGoAway,
  encodeHeaderBlock,
  encodePing,
  encodeRstStream,
  encodeSynReply,
  FLAG_FIN,
  FrameReader,
  FrameType,
  RstStatus,
  SPDY_VERSION,
  SpdyProtocolError,
} from './frames.js';
import type { RawFrame, SpdyHeaders } from './frames.js';
import { HeaderCompressor, HeaderDecompressor } from './header-codec.js';

/** DATA frames are cut at this size: large enough for throughput, small enough to interleave streams. */
const DATA_CHUNK = 64 * 1024;

export interface SpdyServerConnectionOptions {
  /**
   * Called for each stream the client opens, before the reply: return a reason to refuse it (it
   * is reset), or nothing to accept it. Accepted streams then reach `onStream`.
   */
  accept?(headers: SpdyHeaders): string | undefined;
  onStream(stream: SpdyStream): void;
  logger: Logger;
}

/** One stream: readable is what the client sends, writable what it receives. */
export class SpdyStream extends Duplex {
  constructor(
    private readonly connection: SpdyServerConnection,
    readonly id: number,
    readonly headers: SpdyHeaders,
  ) {
    super({ allowHalfOpen: true });
    // A write racing a reset or the connection's end is not worth crashing the controller over;
    // the consumers see the stream close either way.
    this.on('error', (error: Error) => connection.logger.debug(`spdy stream ${id}: ${error.message}`));
  }

  /** The first value of a header (names are lower case in SPDY). */
  header(name: string): string | undefined {
    return this.headers[name.toLowerCase()]?.[0];
  }

  override _read(): void {
    // Data is pushed as frames arrive.
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.connection.sendData(this.id, chunk, false).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.connection.sendData(this.id, Buffer.alloc(0), true).then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.connection.forget(this.id);
    callback(error);
  }

  /** Abandon the stream in both directions (RST_STREAM CANCEL), as the kubelet does on errors. */
  reset(): void {
    if (this.destroyed) return;
    void this.connection.sendRaw(encodeRstStream(this.id, RstStatus.Cancel));
    this.push(null);
    this.destroy();
  }
}

export class SpdyServerConnection {
  readonly logger: Logger;
  private readonly reader = new FrameReader();
  private readonly compressor = new HeaderCompressor();
  private readonly decompressor = new HeaderDecompressor();
  private readonly streams = new Map<number, SpdyStream>();
  private incoming: Promise<void> = Promise.resolve();
  private outgoing: Promise<void> = Promise.resolve();
  private lastStreamId = 0;
  private goneAway = false;
  private ended = false;
  private resolveClosed!: () => void;
  /** Resolves when the socket has closed, for whatever reason. */
  readonly closed: Promise<void> = new Promise((resolve) => (this.resolveClosed = resolve));

  constructor(
    private readonly socket: Duplex,
    private readonly options: SpdyServerConnectionOptions,
    head?: Buffer,
  ) {
    this.logger = options.logger;
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error: Error) => this.logger.debug(`spdy connection: ${error.message}`));
    socket.on('close', () => this.onSocketClose());
    if (head && head.length > 0) this.receive(head);
  }

  /** Streams still open. */
  get openStreams(): number {
    return this.streams.size;
  }

  /** Say GOAWAY and end the connection once what is queued has been written. */
  async close(): Promise<void> {
    if (this.ended) return;
    this.goneAway = true;
    await this.sendRaw(encodeGoAway(this.lastStreamId));
    this.ended = true;
    await this.outgoing;
    this.socket.end();
  }

  destroy(): void {
    this.ended = true;
    this.socket.destroy();
  }

  /** @internal */
  forget(id: number): void {
    this.streams.delete(id);
  }

  /** @internal Queue bytes; resolves once the socket took them (after 'drain' if it was full). */
  sendRaw(frame: Buffer | (() => Promise<Buffer>)): Promise<void> {
    const next = this.outgoing.then(async () => {
      const bytes = typeof frame === 'function' ? await frame() : frame;
      if (this.ended || this.socket.destroyed || !this.socket.writable) return;
      if (this.socket.write(bytes)) return;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.socket.off('drain', done);
          this.socket.off('close', done);
          resolve();
        };
        this.socket.on('drain', done);
        this.socket.on('close', done);
      });
    });
    this.outgoing = next.catch((error: unknown) => {
      this.logger.debug(`spdy connection: write failed: ${(error as Error).message}`);
    });
    return this.outgoing;
  }

  /** @internal */
  async sendData(id: number, data: Buffer, fin: boolean): Promise<void> {
    if (data.length === 0) return this.sendRaw(encodeData(id, data, fin));
    for (let at = 0; at < data.length; at += DATA_CHUNK) {
      const end = Math.min(at + DATA_CHUNK, data.length);
      await this.sendRaw(encodeData(id, data.subarray(at, end), fin && end === data.length));
    }
  }

  private receive(chunk: Buffer): void {
    let frames: RawFrame[];
    try {
      frames = this.reader.push(chunk);
    } catch (error) {
      this.fail(error as Error);
      return;
    }
    for (const frame of frames) {
      this.incoming = this.incoming.then(() => this.handle(frame)).catch((error: unknown) => this.fail(error as Error));
    }
  }

  private fail(error: Error): void {
    if (this.ended) return;
    this.logger.warn(`spdy connection: ${error.message}; closing it`);
    this.destroy();
  }

  private async handle(frame: RawFrame): Promise<void> {
    if (this.socket.destroyed) return;
    if (!frame.control) {
      const stream = this.streams.get(frame.streamId);
      if (!stream) return;
      if (frame.data.length > 0) stream.push(frame.data);
      if (frame.flags & FLAG_FIN) stream.push(null);
      return;
    }
    if (frame.version !== SPDY_VERSION) throw new SpdyProtocolError(`SPDY version ${frame.version} is not supported`);
    switch (frame.type) {
      case FrameType.SynStream:
        return this.onSynStream(frame.payload, frame.flags);
      case FrameType.RstStream: {
        const { streamId } = decodeRstStream(frame.payload);
        const stream = this.streams.get(streamId);
        if (stream) {
          stream.push(null);
          stream.destroy();
        }
        return;
      }
      case FrameType.Ping: {
        const { id } = decodePing(frame.payload);
        // Odd ids are the client's own pings, to be echoed; even ones would answer ours (we send none).
        if (id % 2 === 1) await this.sendRaw(encodePing(id));
        return;
      }
      case FrameType.GoAway:
        decodeGoAway(frame.payload);
        this.goneAway = true;
        return;
      default:
        // SETTINGS, WINDOW_UPDATE, HEADERS and unknown types carry nothing this server acts on.
        return;
    }
  }

  private async onSynStream(payload: Buffer, flags: number): Promise<void> {
    const syn = decodeSynStream(payload);
    // Decompress even a stream about to be refused: the zlib context must see every block.
    const headers = decodeHeaderBlock(await this.decompressor.decompress(syn.headerBlock));
    if (syn.streamId % 2 === 0 || syn.streamId <= this.lastStreamId) {
      await this.sendRaw(encodeRstStream(syn.streamId, RstStatus.ProtocolError));
      return;
    }
    this.lastStreamId = syn.streamId;
    if (this.goneAway) {
      await this.sendRaw(encodeRstStream(syn.streamId, RstStatus.RefusedStream));
      return;
    }
    const refusal = this.options.accept?.(headers);
    if (refusal !== undefined) {
      this.logger.debug(`spdy connection: refusing stream ${syn.streamId}: ${refusal}`);
      await this.sendRaw(encodeRstStream(syn.streamId, RstStatus.Cancel));
      return;
    }
    const stream = new SpdyStream(this, syn.streamId, headers);
    this.streams.set(syn.streamId, stream);
    // FIN: the client will send nothing on it (UNIDIRECTIONAL, which Kubernetes never sets, would be about our side).
    if (flags & FLAG_FIN) stream.push(null);
    // Queued before anything the handler writes, so the reply always comes first.
    void this.sendRaw(async () => encodeSynReply(syn.streamId, await this.compressor.compress(encodeHeaderBlock({})), false));
    this.options.onStream(stream);
  }

  private onSocketClose(): void {
    this.ended = true;
    for (const stream of [...this.streams.values()]) {
      stream.push(null);
      stream.destroy();
    }
    this.streams.clear();
    this.compressor.close();
    this.decompressor.close();
    this.resolveClosed();
  }
}
