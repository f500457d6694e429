import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outputReason } from '../../../src/util/output-tail.js';

test('the reason of a log: a panic, else its last error; a JSON line cut short is still read', () => {
  const zap = (level: string, msg: string, error?: string): string => JSON.stringify({ level, ts: '2026-01-01T00:00:00Z', msg, ...(error ? { error } : {}) });
  assert.equal(outputReason([zap('info', 'a'), zap('error', 'b failed', 'x'), zap('info', 'c')].join('\n')), 'error: b failed: x');
  assert.equal(outputReason(['panic: failed to create WAL', 'goroutine 1 [running]:'].join('\n')), 'panic: failed to create WAL');
  // A full disk took the rest of the line (the stack trace, the closing brace).
  const cut = '{"level":"error","ts":"2026-01-01T00:00:00Z","logger":"bbolt","msg":"writeAt failed, offset: 303104","stacktrace":"go.etcd.io/bbolt.(*Tx).Commit\\n\\tgo.e';
  assert.equal(outputReason(cut), 'error: writeAt failed, offset: 303104');
});

test('with `recent`, only a panic or an error among the last lines is a reason: a killed process says nothing', () => {
  const lines = ['W0101 00:00:00.000 1 x.go:1] failed to sync, will retry', ...Array.from({ length: 5 }, (_, i) => `I0101 00:00:0${i}.000 1 x.go:1] working ${i}`)];
  assert.equal(outputReason(lines.join('\n')), 'W0101 00:00:00.000 1 x.go:1] failed to sync, will retry');
  assert.equal(outputReason(lines.join('\n'), { recent: 3 }), undefined);
  assert.equal(outputReason([...lines, 'F0101 00:00:09.000 1 x.go:1] fatal: cannot open db: no space left on device'].join('\n'), { recent: 3 }), 'F0101 00:00:09.000 1 x.go:1] fatal: cannot open db: no space left on device');
  assert.equal(outputReason([...lines, 'panic: boom', ...lines].join('\n'), { recent: 3 }), 'panic: boom');
});
