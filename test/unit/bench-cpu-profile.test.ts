/**
 * Where a profiled controller's CPU went (test/bench/cpu-profile.ts): a made-up profile of a
 * bundle whose module lines are known; nothing timed.
 */
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { bundleModules, moduleAt, partOf, profileLine, summarizeProfiles, type CpuProfile } from '../bench/cpu-profile.js';

const BUNDLE = ['// node_modules/yaml/dist/index.js', 'var a;', '// src/kube/client/http-client.ts', 'function get() {}', '// src/kwok/controllers/pods.ts', 'function sync() {}'].join('\n');

test('bundleModules and moduleAt: the module a bundle line belongs to', () => {
  const starts = bundleModules(BUNDLE);
  assert.deepEqual(starts, [[0, 'node_modules/yaml/dist/index.js'], [2, 'src/kube/client/http-client.ts'], [4, 'src/kwok/controllers/pods.ts']]);
  assert.equal(moduleAt(starts, 1), 'node_modules/yaml/dist/index.js');
  assert.equal(moduleAt(starts, 3), 'src/kube/client/http-client.ts');
  assert.equal(moduleAt(starts, 99), 'src/kwok/controllers/pods.ts');
  assert.equal(moduleAt([], 3), undefined);
});

test('partOf: idle is no part; GC, JSON, Node\'s sockets, our modules and libraries are', () => {
  assert.equal(partOf('(idle)', '', undefined), undefined);
  assert.equal(partOf('(garbage collector)', '', undefined), 'garbage collector');
  assert.equal(partOf('parse', '', undefined), 'JSON parse and stringify');
  assert.equal(partOf('onStreamRead', 'node:internal/stream_base_commons', undefined), 'Node: sockets, TLS, HTTP, streams, buffers');
  assert.equal(partOf('write', 'node:internal/tls/wrap', undefined), 'Node: sockets, TLS, HTTP, streams, buffers');
  assert.equal(partOf('x', 'node:internal/timers', undefined), 'Node: other');
  assert.equal(partOf('getPeerCertificate', 'node:_tls_wrap', undefined), 'Node: sockets, TLS, HTTP, streams, buffers');
  assert.equal(partOf('writeUtf8String', '', undefined), 'Node: sockets, TLS, HTTP, streams, buffers');
  assert.equal(partOf('compileSourceTextModule', 'node:internal/modules/esm/utils', undefined), 'loading and compiling modules');
  assert.equal(partOf('get', 'file:///p/dist/kwok-controller/chunk.js', 'src/kube/client/http-client.ts'), 'kube client (requests, watches, decoding)');
  assert.equal(partOf('get', 'file:///p/node_modules/@scope/lib/x.js', undefined), 'library: @scope/lib');
});

test('summarizeProfiles: self time per part, largest first, idle left out; profileLine', () => {
  const frame = (id: number, functionName: string, url: string, lineNumber: number) => ({ id, callFrame: { functionName, url, lineNumber } });
  const url = 'file:///bundle.js';
  const profile: CpuProfile = {
    nodes: [frame(1, '(root)', '', -1), frame(2, 'get', url, 3), frame(3, 'sync', url, 5), frame(4, '(idle)', '', -1), frame(5, '(garbage collector)', '', -1)],
    samples: [2, 2, 3, 4, 5, 2],
    timeDeltas: [1000, 1000, 2000, 50_000, 1000, 1000],
  };
  const shares = summarizeProfiles([profile, profile], (u) => (u === url ? BUNDLE : undefined));
  assert.deepEqual(
    shares.map((s) => [s.part, s.ms]),
    [['kube client (requests, watches, decoding)', 6], ['controllers, stages, leases', 4], ['garbage collector', 2]],
  );
  assert.equal(profileLine(shares, 0.2), 'kube client (requests, watches, decoding) 50 %, controllers, stages, leases 33 %, the rest 17 % (of 0.0 s sampled on the main thread)');
});
