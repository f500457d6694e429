/**
 * The little DER (X.690) a certificate needs, written and read by hand. A general ASN.1 library
 * costs a create about a second on a loaded 2-core machine (loading it, then its first,
 * unoptimised runs); these few encoders cost milliseconds.
 */
import { isIPv4 } from 'node:net';

const TAG = {
  boolean: 0x01,
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  null: 0x05,
  oid: 0x06,
  utf8String: 0x0c,
  printableString: 0x13,
  ia5String: 0x16,
  utcTime: 0x17,
  generalizedTime: 0x18,
  sequence: 0x30,
  set: 0x31,
} as const;

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One tag-length-value; `tag` is the whole identifier octet (class, constructed bit, number). */
export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

export const sequence = (...items: Buffer[]): Buffer => tlv(TAG.sequence, Buffer.concat(items));
export const set = (...items: Buffer[]): Buffer => tlv(TAG.set, Buffer.concat(items));
export const octetString = (bytes: Buffer): Buffer => tlv(TAG.octetString, bytes);
export const boolean = (value: boolean): Buffer => tlv(TAG.boolean, Buffer.from([value ? 0xff : 0x00]));
export const nullValue = (): Buffer => tlv(TAG.null, Buffer.alloc(0));
/** A BIT STRING of whole bytes (a key, a signature). */
export const bitString = (bytes: Buffer): Buffer => tlv(TAG.bitString, Buffer.concat([Buffer.from([0]), bytes]));
/** [n] EXPLICIT: a constructed context-specific wrapper around one encoding. */
export const explicit = (n: number, inner: Buffer): Buffer => tlv(0xa0 | n, inner);

/** A non-negative INTEGER from big-endian bytes, in its minimal two's-complement form. */
export function unsignedInteger(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  return tlv(TAG.integer, trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

export function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const bytes: number[] = [40 * parts[0]! + parts[1]!];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [part & 0x7f];
    for (let v = Math.floor(part / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    bytes.push(...chunk);
  }
  return tlv(TAG.oid, Buffer.from(bytes));
}

/** PrintableString when every character allows it, UTF8String otherwise (as Go's pkix writes names). */
export function directoryString(value: string): Buffer {
  return /^[A-Za-z0-9 '()+,\-./:=?]*$/.test(value) ? tlv(TAG.printableString, Buffer.from(value, 'latin1')) : tlv(TAG.utf8String, Buffer.from(value, 'utf8'));
}

/** UTCTime through 2049, GeneralizedTime from 2050 on (RFC 5280 §4.1.2.5); seconds, in UTC. */
export function time(date: Date): Buffer {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '');
  const year = date.getUTCFullYear();
  return year >= 1950 && year < 2050 ? tlv(TAG.utcTime, Buffer.from(`${digits.slice(2)}Z`, 'latin1')) : tlv(TAG.generalizedTime, Buffer.from(`${digits}Z`, 'latin1'));
}

/** KeyUsage-style named bits: bit 0 is the first (most significant) bit; trailing zero bits dropped. */
export function namedBits(bits: readonly number[]): Buffer {
  const highest = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(highest / 8) + 1);
  for (const bit of bits) bytes[Math.floor(bit / 8)]! |= 0x80 >> bit % 8;
  const unused = 7 - (highest % 8);
  return tlv(TAG.bitString, Buffer.concat([Buffer.from([unused]), bytes]));
}

/** A GeneralName of a subjectAltName: dNSName [2] or iPAddress [7], both IMPLICIT. */
export function generalName(type: 'dns' | 'ip', value: string): Buffer {
  if (type === 'dns') return tlv(0x82, Buffer.from(value, 'latin1'));
  return tlv(0x87, isIPv4(value) ? Buffer.from(value.split('.').map(Number)) : ipv6Bytes(value));
}

function ipv6Bytes(address: string): Buffer {
  const [head = '', tail] = address.split('::');
  const groups = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  const out = Buffer.alloc(16);
  all.forEach((g, i) => out.writeUInt16BE(g, i * 2));
  return out;
}

/** One element read back: its tag, its content, and all of its bytes (tag and length included). */
export interface Element {
  tag: number;
  content: Buffer;
  raw: Buffer;
}

/** The element at `offset` of `der`. Definite lengths only, as DER has. */
export function readElement(der: Buffer, offset = 0): Element {
  const tag = der[offset];
  let lengthByte = der[offset + 1];
  if (tag === undefined || lengthByte === undefined) throw new Error('truncated DER');
  let start = offset + 2;
  let size = lengthByte;
  if (lengthByte & 0x80) {
    const count = lengthByte & 0x7f;
    if (count === 0 || count > 4) throw new Error('unsupported DER length');
    size = 0;
    for (let i = 0; i < count; i++) {
      lengthByte = der[start + i];
      if (lengthByte === undefined) throw new Error('truncated DER');
      size = size * 256 + lengthByte;
    }
    start += count;
  }
  if (start + size > der.length) throw new Error('truncated DER');
  return { tag, content: der.subarray(start, start + size), raw: der.subarray(offset, start + size) };
}

/** The elements inside a constructed one, in order. */
export function children(element: Element): Element[] {
  const out: Element[] = [];
  for (let offset = 0; offset < element.content.length; ) {
    const child = readElement(element.content, offset);
    out.push(child);
    offset += child.raw.length;
  }
  return out;
}

/** The dotted form of an OBJECT IDENTIFIER element's content. */
export function readOid(content: Buffer): string {
  const first = content[0] ?? 0;
  const parts = [Math.min(2, Math.floor(first / 40)), first - 40 * Math.min(2, Math.floor(first / 40))];
  let value = 0;
  for (const byte of content.subarray(1)) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

export function toPem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----`;
}

export function fromPem(label: string, pem: string): Buffer {
  const match = new RegExp(`-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]+)-----END ${label}-----`).exec(pem);
  if (!match) throw new Error(`no ${label} PEM block`);
  return Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64');
}
