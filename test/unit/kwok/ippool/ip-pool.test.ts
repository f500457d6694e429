import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatIp, normalizeIp, parseCidr, parseIp } from '../../../../src/util/ip-address.js';
import { IpPool, IpPools } from '../../../../src/kwok/ippool/ip-pool.js';

describe('IpPool', () => {
  it('allocates sequentially from base+1', () => {
    const pool = new IpPool('10.0.0.1/24');
    assert.deepEqual([pool.get(), pool.get(), pool.get()], ['10.0.0.1', '10.0.0.2', '10.0.0.3']);
  });

  it('reuses freed IPs first, oldest first', () => {
    const pool = new IpPool('10.0.0.0/24');
    const [a, b, c] = [pool.get(), pool.get(), pool.get()];
    assert.equal(pool.put(b), true);
    assert.equal(pool.put(a), true);
    assert.equal(pool.get(), b);
    assert.equal(pool.get(), a);
    assert.equal(pool.get(), '10.0.0.4');
    assert.equal(c, '10.0.0.3');
  });

  it('takes an IP back written as handed out or another way, once', () => {
    const pool = new IpPool('fd00:10:244::/64');
    const [a, b] = [pool.get(), pool.get()];
    assert.equal(pool.put(a), true);
    assert.equal(pool.put(a), false);
    assert.equal(pool.put('fd00:10:244:0:0:0:0:2'), true);
    assert.equal(pool.put(b), false);
    assert.deepEqual([pool.get(), pool.get()], [a, b]);
  });

  it('never hands out an IP marked used (controller restart)', () => {
    const pool = new IpPool('10.0.0.0/24');
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.4']) assert.equal(pool.use(ip), true);
    assert.deepEqual([pool.get(), pool.get()], ['10.0.0.3', '10.0.0.5']);
  });

  it('ignores IPs outside its CIDR and unknown releases', () => {
    const pool = new IpPool('10.0.0.0/24');
    assert.equal(pool.use('10.1.0.1'), false);
    assert.equal(pool.put('10.0.0.9'), false);
    assert.equal(pool.use('fd00::1'), false);
  });

  it('keeps counting past the end of the CIDR like kwok', () => {
    const pool = new IpPool('10.0.0.0/30');
    const ips = Array.from({ length: 5 }, () => pool.get());
    assert.deepEqual(ips, ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5']);
  });

  it('supports IPv6 pools with canonical formatting', () => {
    const pool = new IpPool('fd00:10:244::/64');
    assert.equal(pool.get(), 'fd00:10:244::1');
    assert.equal(pool.use('fd00:10:244:0:0:0:0:2'), true);
    assert.equal(pool.get(), 'fd00:10:244::3');
  });

  it('rejects an invalid CIDR', () => {
    assert.throws(() => new IpPool('10.0.0.0'), /invalid CIDR/);
  });
});

describe('IpPools', () => {
  it('creates one pool per CIDR and finds the owner of an IP', () => {
    const pools = new IpPools();
    const a = pools.pool('10.0.0.1/24');
    assert.equal(pools.pool('10.0.0.0/24'), a, 'same network, same pool');
    const b = pools.pool('10.0.1.0/24');
    assert.equal(b.get(), '10.0.1.1');
    assert.equal(pools.use('10.0.0.7'), true);
    assert.equal(pools.put('10.0.1.1'), true);
    assert.equal(b.get(), '10.0.1.1');
  });
});

describe('ip-address', () => {
  it('parses and formats v4 and v6', () => {
    assert.equal(formatIp(parseIp('192.168.1.10')!), '192.168.1.10');
    for (const ip of ['0.0.0.0', '255.255.255.255', '128.0.0.1', '10.255.0.254']) assert.equal(formatIp(parseIp(ip)!), ip);
    assert.equal(normalizeIp('2001:DB8:0:0:1:0:0:1'), '2001:db8::1:0:0:1');
    assert.equal(normalizeIp('::ffff:10.0.0.1'), '::ffff:a00:1');
    assert.equal(normalizeIp('::'), '::');
    assert.equal(normalizeIp('1.2.3'), undefined);
    assert.equal(normalizeIp('1:2:3:4:5:6:7:8:9'), undefined);
    assert.equal(parseCidr('10.0.0.7/24')?.text, '10.0.0.0/24');
  });
});
