import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DryRunExecutor } from '../../../src/exec/dry-run-executor.js';
import { shellQuote } from '../../../src/exec/shell-quote.js';

test('effects print as kwokctl-style shell, in order', async () => {
  const out: string[] = [];
  const ex = new DryRunExecutor((t) => out.push(t));
  await ex.mkdirp('/w/clusters/a');
  await ex.mkdirp('/w/clusters/a/etcd', { mode: 0o700 });
  await ex.writeFile('/w/a.yaml', 'x: 1\n', { mode: 0o600 });
  const pid = await ex.spawnDetached({ command: '/bin/etcd', args: ['--name=node0', '--data-dir=/w/e tc'], cwd: '/w', env: { A: 'b c' }, logFile: '/w/logs/etcd.log', pidFile: '/w/pids/etcd.pid' });
  await ex.note('Generate PKI to /w/pki');
  await ex.remove('/w/x');
  await ex.kill({ pidFile: '/w/pids/etcd.pid', graceMs: 0 });
  await ex.kill({ pidFile: '/w/pids/etcd.pid', graceMs: 5000 });
  assert.equal(pid, 0);
  assert.deepEqual(out, [
    'mkdir -p /w/clusters/a',
    'mkdir -p /w/clusters/a/etcd',
    'chmod 700 /w/clusters/a/etcd',
    "cat <<'EOF' >/w/a.yaml\nx: 1\nEOF",
    'chmod 600 /w/a.yaml',
    "cd /w && \\\nA='b c' \\\n/bin/etcd \\\n  --name=node0 \\\n  '--data-dir=/w/e tc' \\\n  >/w/logs/etcd.log \\\n  2>&1 &\necho $! >/w/pids/etcd.pid",
    '# Generate PKI to /w/pki',
    'rm -rf /w/x',
    'kill -9 $(cat /w/pids/etcd.pid)\nrm /w/pids/etcd.pid',
    'kill $(cat /w/pids/etcd.pid)\nrm /w/pids/etcd.pid',
  ]);
});

test('shell quoting', () => {
  assert.equal(shellQuote('plain-word_1.2/x=y:z'), 'plain-word_1.2/x=y:z');
  assert.equal(shellQuote(''), "''");
  assert.equal(shellQuote("it's"), "'it'\\''s'");
  assert.equal(shellQuote('$(rm -rf)'), "'$(rm -rf)'");
});
