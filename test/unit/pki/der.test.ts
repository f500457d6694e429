import assert from 'node:assert/strict';
import { test } from 'node:test';
import { children, generalName, namedBits, oid, readElement, readOid, sequence, time, tlv, unsignedInteger } from '../../../src/pki/der.js';

const hex = (b: Buffer): string => b.toString('hex');

test('INTEGER: minimal, with a leading zero only when the high bit is set', () => {
  assert.equal(hex(unsignedInteger(Buffer.from([0, 0, 0x05]))), '020105');
  assert.equal(hex(unsignedInteger(Buffer.from([0x80]))), '02020080');
  assert.equal(hex(unsignedInteger(Buffer.from([0]))), '020100');
});

test('OBJECT IDENTIFIER: base-128 arcs, read back the same', () => {
  assert.equal(hex(oid('1.2.840.10045.4.3.2')), '06082a8648ce3d040302');
  assert.equal(readOid(readElement(oid('1.3.6.1.5.5.7.3.1')).content), '1.3.6.1.5.5.7.3.1');
});

test('long lengths take the multi-byte form and read back', () => {
  const big = tlv(0x04, Buffer.alloc(300, 1));
  assert.equal(hex(big.subarray(0, 4)), '0482012c');
  const parsed = readElement(sequence(big, tlv(0x05, Buffer.alloc(0))));
  assert.deepEqual(children(parsed).map((c) => [c.tag, c.content.length]), [[0x04, 300], [0x05, 0]]);
});

test('times: UTCTime through 2049, GeneralizedTime from 2050', () => {
  assert.equal(time(new Date('2049-12-31T23:59:59.900Z')).toString('latin1', 2), '491231235959Z');
  assert.equal(time(new Date('2126-01-02T03:04:05Z')).toString('latin1', 2), '21260102030405Z');
  assert.equal(time(new Date('2126-01-02T03:04:05Z'))[0], 0x18);
});

test('key usage bits: trailing zeros dropped, unused bits counted', () => {
  assert.equal(hex(namedBits([0, 2])), '030205a0'); // digitalSignature, keyEncipherment
  assert.equal(hex(namedBits([5, 6])), '03020106'); // keyCertSign, cRLSign
});

test('subjectAltName entries: DNS names and IPv4/IPv6 addresses', () => {
  assert.equal(hex(generalName('dns', 'localhost')), '82096c6f63616c686f7374');
  assert.equal(hex(generalName('ip', '127.0.0.1')), '87047f000001');
  assert.equal(hex(generalName('ip', '::1')), `8710${'00'.repeat(15)}01`);
  assert.equal(hex(generalName('ip', 'fd00::a:1')), `8710fd00${'00'.repeat(10)}000a0001`);
});
