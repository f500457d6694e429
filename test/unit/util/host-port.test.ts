import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HostPortError, parseHostPort } from '../../../src/util/host-port.js';

describe('parseHostPort', () => {
  it('reads host:port, [v6]:port and, when allowed, a host alone or :port', () => {
    assert.deepEqual(parseHostPort('127.0.0.1:6443'), { host: '127.0.0.1', port: 6443 });
    assert.deepEqual(parseHostPort('kwok.example.com:1'), { host: 'kwok.example.com', port: 1 });
    assert.deepEqual(parseHostPort('[::1]:65535'), { host: '::1', port: 65535 });
    assert.deepEqual(parseHostPort('node-1', { portOptional: true }), { host: 'node-1', port: undefined });
    assert.deepEqual(parseHostPort('fd00::1', { portOptional: true }), { host: 'fd00::1', port: undefined });
    assert.deepEqual(parseHostPort(':0', { hostOptional: true, portZero: true }), { host: '', port: 0 });
  });

  it('refuses, with one line quoting the text, what cannot be a host or a port', () => {
    const bad: [string, RegExp][] = [
      ['bad host:99999', /"bad host" is not a host name or IP address/],
      ['127.0.0.1:99999', /port 99999 is not in 1-65535/],
      ['127.0.0.1:0', /port 0 is not in 1-65535/],
      ['127.0.0.1:http', /port "http" is not a number/],
      ['127.0.0.1', /has no port/],
      [':8080', /has no host/],
      ['[nope]:80', /not an IPv6 address/],
      ['::1:8080', /brackets/],
      ['-x.example:80', /not a host name/],
      ['a_b:80', /not a host name/],
    ];
    for (const [text, message] of bad) {
      assert.throws(() => parseHostPort(text), (e: unknown) => e instanceof HostPortError && message.test(e.message) && e.message.includes(`"${text}"`), text);
    }
  });
});
