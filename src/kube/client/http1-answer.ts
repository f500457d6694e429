/**
 * Reads one HTTP/1.1 answer off a connection, chunk by chunk as the socket hands them over: the
 * status line and the few headers a Kubernetes client acts on, then the body (Content-Length,
 * chunked, or up to the close) passed on in pieces, without copying, as it arrives. Only what
 * kube-apiserver (Go's net/http) and the test servers send is understood: no pipelining (bytes past
 * the answer are an error), no content codings (the client never asks for any).
 */

/** Where the answer's parts go. */
export interface AnswerSink {
  /** The final answer's status and Retry-After (in ms, 0 without one); 1xx answers are skipped. */
  onHead(status: number, retryAfterMs: number): void;
  /** A piece of the body (a view of the socket's buffer); false asks the reader to pause the socket. */
  onData(piece: Buffer): boolean;
}

/** A malformed answer: the connection cannot be trusted for another request. */
export class AnswerFormatError extends Error {
  readonly code = 'EPROTO';
  constructor(detail: string) {
    super(`malformed HTTP answer: ${detail}`);
    this.name = 'AnswerFormatError';
  }
}

const enum Part {
  Head,
  Length,
  ChunkSize,
  ChunkData,
  ChunkEnd,
  Trailer,
  UntilClose,
  Done,
}

const CRLF2 = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = '\r\ncontent-length:';
/** Headers larger than this are refused (Go's server default limit is 1 MiB for requests; answers are small). */
const MAX_HEAD = 64 * 1024;

export class AnswerReader {
  private part = Part.Head;
  /** Head bytes (or a chunk-size or trailer line) split across socket chunks. */
  private partial: Buffer | undefined;
  private remaining = 0;
  /** The connection may carry another request after this answer. */
  keepAlive = true;
  /** Answer complete. */
  get done(): boolean {
    return this.part === Part.Done;
  }

  /** @param bodiless the request was a HEAD: the answer's headers announce a body that is not sent. */
  constructor(
    private readonly sink: AnswerSink,
    private readonly bodiless = false,
  ) {}

  /**
   * Consumes a chunk; returns false when the sink asked for a pause. Throws AnswerFormatError on
   * a malformed answer and on bytes after its end.
   */
  push(chunk: Buffer): boolean {
    let go = true;
    let at = 0;
    while (at < chunk.length) {
      switch (this.part) {
        case Part.Head:
          at = this.readHead(chunk, at);
          break;
        case Part.Length: {
          const take = Math.min(this.remaining, chunk.length - at);
          go = this.sink.onData(at === 0 && take === chunk.length ? chunk : chunk.subarray(at, at + take)) && go;
          at += take;
          this.remaining -= take;
          if (this.remaining === 0) this.part = Part.Done;
          break;
        }
        case Part.ChunkSize: {
          const line = this.readLine(chunk, at);
          if (line === undefined) return go;
          at = line.next;
          // A size may carry extensions after ';' (never sent by Go; allowed by the grammar).
          const digits = line.text.split(';', 1)[0]!.trim();
          if (!/^[0-9a-fA-F]{1,12}$/.test(digits)) throw new AnswerFormatError(`chunk size ${JSON.stringify(line.text.slice(0, 20))}`);
          this.remaining = parseInt(digits, 16);
          this.part = this.remaining === 0 ? Part.Trailer : Part.ChunkData;
          break;
        }
        case Part.ChunkData: {
          const take = Math.min(this.remaining, chunk.length - at);
          go = this.sink.onData(chunk.subarray(at, at + take)) && go;
          at += take;
          this.remaining -= take;
          if (this.remaining === 0) {
            this.part = Part.ChunkEnd;
            this.remaining = 2;
          }
          break;
        }
        case Part.ChunkEnd: {
          // The CRLF after a chunk's data, possibly split between socket chunks.
          const expected = this.remaining === 2 ? 13 : 10;
          if (chunk[at] !== expected) throw new AnswerFormatError('chunk not followed by CRLF');
          at++;
          if (--this.remaining === 0) this.part = Part.ChunkSize;
          break;
        }
        case Part.Trailer: {
          const line = this.readLine(chunk, at);
          if (line === undefined) return go;
          at = line.next;
          if (line.text === '') this.part = Part.Done;
          break;
        }
        case Part.UntilClose:
          go = this.sink.onData(at === 0 ? chunk : chunk.subarray(at)) && go;
          at = chunk.length;
          break;
        case Part.Done:
          throw new AnswerFormatError('bytes after the end of the answer');
      }
    }
    return go;
  }

  /** The server closed the connection: completes an answer whose body runs to the close; false if the answer was cut short. */
  end(): boolean {
    if (this.part === Part.UntilClose) this.part = Part.Done;
    return this.part === Part.Done;
  }

  /** Returns where reading continues in `chunk`. */
  private readHead(chunk: Buffer, at: number): number {
    if (this.partial === undefined) {
      const end = chunk.indexOf(CRLF2, at);
      if (end >= 0) {
        this.parseHead(chunk.toString('latin1', at, end));
        return end + 4;
      }
      this.partial = chunk.subarray(at);
    } else {
      // Rare: a head split across socket chunks. Search again from just before the seam.
      const before = this.partial.length;
      const block = Buffer.concat([this.partial, chunk.subarray(at)]);
      const end = block.indexOf(CRLF2, Math.max(0, before - 3));
      if (end >= 0) {
        this.partial = undefined;
        this.parseHead(block.toString('latin1', 0, end));
        return at + end + 4 - before;
      }
      this.partial = block;
    }
    if (this.partial.length > MAX_HEAD) throw new AnswerFormatError('headers too large');
    return chunk.length;
  }

  private parseHead(head: string): void {
    const lineEnd = head.indexOf('\r\n');
    const statusLine = lineEnd < 0 ? head : head.slice(0, lineEnd);
    const status = Number(statusLine.slice(9, 12));
    if (!statusLine.startsWith('HTTP/1.') || statusLine.charCodeAt(8) !== 32 || !Number.isInteger(status) || status < 100) {
      throw new AnswerFormatError(`status line ${JSON.stringify(statusLine.slice(0, 40))}`);
    }
    if (status < 200) return; // 100 Continue and friends: the real answer follows.
    // Four headers matter; finding each in the lowercased block costs less than splitting it into lines.
    const lower = head.toLowerCase();
    const lengthAt = lower.indexOf(CONTENT_LENGTH);
    const lengthText = lengthAt < 0 ? undefined : headerValue(lower, CONTENT_LENGTH, lengthAt);
    let length: number | undefined;
    if (lengthText !== undefined) {
      const again = headerValue(lower, CONTENT_LENGTH, lengthAt + 2);
      if (!/^\d{1,15}$/.test(lengthText) || (again !== undefined && again !== lengthText)) throw new AnswerFormatError(`Content-Length ${JSON.stringify(lengthText)}`);
      length = Number(lengthText);
    }
    // HTTP/1.0 closes after the answer unless it says otherwise.
    let keepAlive = statusLine.charCodeAt(7) !== 48;
    const coding = headerValue(lower, '\r\ntransfer-encoding:');
    const chunked = coding !== undefined && /(?:^|,)\s*chunked$/.test(coding);
    if (coding !== undefined && !chunked) keepAlive = false; // a coding we cannot frame: the body runs to the close
    const connection = headerValue(lower, '\r\nconnection:');
    if (connection !== undefined) {
      if (/(?:^|,)\s*close\s*(?:,|$)/.test(connection)) keepAlive = false;
      else if (/(?:^|,)\s*keep-alive\s*(?:,|$)/.test(connection)) keepAlive = true;
    }
    const retryAfter = headerValue(lower, '\r\nretry-after:');
    const seconds = Number(retryAfter);
    const retryAfterMs = retryAfter && Number.isFinite(seconds) ? seconds * 1000 : 0;
    this.keepAlive &&= keepAlive;
    this.sink.onHead(status, retryAfterMs);
    if (this.bodiless || status === 204 || status === 304) this.part = Part.Done;
    else if (chunked) this.part = Part.ChunkSize;
    else if (length !== undefined) {
      this.remaining = length;
      this.part = length === 0 ? Part.Done : Part.Length;
    } else {
      this.part = Part.UntilClose;
      this.keepAlive = false;
    }
  }

  /** A CRLF-ended line (a chunk size or a trailer), possibly split across socket chunks. */
  private readLine(chunk: Buffer, at: number): { text: string; next: number } | undefined {
    const newline = chunk.indexOf(10, at);
    if (newline < 0) {
      const piece = chunk.subarray(at);
      this.partial = this.partial ? Buffer.concat([this.partial, piece]) : Buffer.from(piece);
      if (this.partial.length > MAX_HEAD) throw new AnswerFormatError('line too long');
      return undefined;
    }
    let bytes = chunk.subarray(at, newline);
    if (this.partial) {
      bytes = Buffer.concat([this.partial, bytes]);
      this.partial = undefined;
    }
    if (bytes[bytes.length - 1] !== 13) throw new AnswerFormatError('line not ended by CRLF');
    return { text: bytes.toString('latin1', 0, bytes.length - 1), next: newline + 1 };
  }
}

/** The trimmed value of the first header `marker` ("\r\nname:") names, from `from` on; undefined if none. */
function headerValue(lower: string, marker: string, from = 0): string | undefined {
  const at = lower.indexOf(marker, from);
  if (at < 0) return undefined;
  const end = lower.indexOf('\r\n', at + marker.length);
  return lower.slice(at + marker.length, end < 0 ? lower.length : end).trim();
}
