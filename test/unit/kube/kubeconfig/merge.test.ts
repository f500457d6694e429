import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, it } from 'node:test';
import lockfile from 'proper-lockfile';
import { parse } from 'yaml';
import {
  buildClusterEntry,
  buildClusterKubeconfig,
  checkMergeable,
  mergeContext,
  removeContext,
  renderKubeconfig,
  restoreKubeconfig,
  type KubeconfigSnapshot,
} from '../../../../src/kube/index.js';
import { ConflictError, UsageError } from '../../../../src/util/errors.js';
import { fileStamp, hasKubectl, kubectl, KUBECTL_WRITTEN, kwokEntry, modeOf, scratchDir } from './helpers.js';

const run = promisify(execFile);
const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** A hand-edited file: indented sequences, comments, quoting, flow style and a long line. */
const HAND_EDITED = `# my kubeconfig, hand-edited
apiVersion: v1
clusters:
  - cluster:
      certificate-authority-data: LS0tLS1CRUdJTi==   # prod CA
      server: https://prod.example.com:6443
    name: prod
  - cluster:
      server: 'https://staging:6443'
      extensions: [{name: foo, extension: {a: 1}}]
    name: staging
contexts:
  - context:
      cluster: prod
      user: admin@prod
      namespace: "default"
    name: prod
current-context: prod   # what I use most
kind: Config
preferences:
  colors: true
users:
  - name: admin@prod
    user:
      exec:
        apiVersion: client.authentication.k8s.io/v1beta1
        command: aws
        args: ["eks", "get-token", "--cluster-name", "a very long cluster name that goes on and on and on past eighty columns wide"]
# trailing comment
`;

/** The same file after merging kwok-demo: only our lines are new, only current-context changed. */
const HAND_EDITED_MERGED = `# my kubeconfig, hand-edited
apiVersion: v1
clusters:
  - cluster:
      certificate-authority-data: LS0tLS1CRUdJTi==   # prod CA
      server: https://prod.example.com:6443
    name: prod
  - cluster:
      server: 'https://staging:6443'
      extensions: [{name: foo, extension: {a: 1}}]
    name: staging
  - cluster:
      certificate-authority: /root/.kwok/clusters/demo/pki/ca.crt
      server: https://127.0.0.1:32766
    name: kwok-demo
contexts:
  - context:
      cluster: prod
      user: admin@prod
      namespace: "default"
    name: prod
  - context:
      cluster: kwok-demo
      user: kwok-demo
    name: kwok-demo
current-context: kwok-demo # what I use most
kind: Config
preferences:
  colors: true
users:
  - name: admin@prod
    user:
      exec:
        apiVersion: client.authentication.k8s.io/v1beta1
        command: aws
        args: ["eks", "get-token", "--cluster-name", "a very long cluster name that goes on and on and on past eighty columns wide"]
  - name: kwok-demo
    user:
      client-certificate: /root/.kwok/clusters/demo/pki/admin.crt
      client-key: /root/.kwok/clusters/demo/pki/admin.key
# trailing comment
`;

describe('mergeContext', () => {
  let scratch: ReturnType<typeof scratchDir>;
  let path: string;
  beforeEach(() => {
    scratch = scratchDir();
    path = join(scratch.dir, 'config');
  });
  afterEach(() => scratch.cleanup());

  it('creates a missing file (and its directory) 0600 with only our context', async () => {
    const nested = join(scratch.dir, 'home', '.kube', 'config');
    const snapshot = await mergeContext(nested, kwokEntry('demo'));
    assert.equal(modeOf(nested), 0o600);
    const expected = renderKubeconfig(
      buildClusterKubeconfig({
        name: 'kwok-demo',
        server: 'https://127.0.0.1:32766',
        caFile: '/root/.kwok/clusters/demo/pki/ca.crt',
        certFile: '/root/.kwok/clusters/demo/pki/admin.crt',
        keyFile: '/root/.kwok/clusters/demo/pki/admin.key',
      }),
    );
    assert.equal(readFileSync(nested, 'utf8'), expected);
    assert.deepEqual(snapshot, { name: 'kwok-demo', existed: false, written: expected });
    assert.deepEqual(readdirSync(dirname(nested)), ['config'], 'no lock or temp file left behind');
  });

  it('keeps a hand-edited file byte-for-byte outside the lines it adds', async () => {
    writeFileSync(path, HAND_EDITED, { mode: 0o600 });
    const snapshot = await mergeContext(path, kwokEntry('demo'));
    assert.equal(readFileSync(path, 'utf8'), HAND_EDITED_MERGED);
    assert.equal(snapshot.existed && snapshot.content, HAND_EDITED);
  });

  it('keeps a kubectl-written file in kubectl layout', async () => {
    writeFileSync(path, KUBECTL_WRITTEN, { mode: 0o600 });
    await mergeContext(path, kwokEntry('demo'));
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n');
    // Every original line survives in order, except the replaced current-context.
    const originals = KUBECTL_WRITTEN.split('\n').filter((l) => !l.startsWith('current-context:'));
    let cursor = 0;
    for (const line of lines) if (line === originals[cursor]) cursor++;
    assert.equal(cursor, originals.length, text);
    assert.match(text, /\n- cluster:\n    certificate-authority: \/root\/.kwok\/clusters\/demo\/pki\/ca.crt\n    server: https:\/\/127.0.0.1:32766\n  name: kwok-demo\ncontexts:\n/);
    assert.match(text, /\ncurrent-context: kwok-demo\n/);
    assert.equal(lines.length - KUBECTL_WRITTEN.split('\n').length, 12, 'four lines per added cluster, context and user');
  });

  it('keeps CRLF line endings', async () => {
    const crlf = HAND_EDITED.replace(/\n/g, '\r\n');
    writeFileSync(path, crlf);
    await mergeContext(path, kwokEntry('demo'));
    assert.equal(readFileSync(path, 'utf8'), HAND_EDITED_MERGED.replace(/\n/g, '\r\n'));
    writeFileSync(path, KUBECTL_WRITTEN.replace(/\n/g, '\r\n'));
    await mergeContext(path, kwokEntry('demo'));
    assert.doesNotMatch(readFileSync(path, 'utf8').replace(/\r\n/g, ''), /\n/);
  });

  it('replaces an existing entry of the same name in place and drops its duplicates', async () => {
    const before = KUBECTL_WRITTEN.replace(
      'contexts:\n',
      '# kwok cluster below\n- cluster:\n    server: https://127.0.0.1:1\n  name: kwok-demo\n- cluster:\n    server: https://127.0.0.1:2\n  name: kwok-demo\ncontexts:\n',
    );
    writeFileSync(path, before, { mode: 0o600 });
    await mergeContext(path, kwokEntry('demo', 40000));
    const text = readFileSync(path, 'utf8');
    assert.match(
      text,
      /  name: kind-kind\n# kwok cluster below\n- cluster:\n    certificate-authority: \/root\/.kwok\/clusters\/demo\/pki\/ca.crt\n    server: https:\/\/127.0.0.1:40000\n  name: kwok-demo\ncontexts:\n/,
    );
    const config = parse(text) as { clusters: { name: string }[]; users: { name: string }[] };
    assert.deepEqual(config.clusters.map((c) => c.name), ['kind-kind', 'kwok-demo']);
    assert.deepEqual(config.users.map((u) => u.name), ['kind-kind', 'kwok-demo']);
  });

  it('drops a stale user when the cluster is now plain http', async () => {
    await mergeContext(path, kwokEntry('demo'));
    await mergeContext(path, buildClusterEntry({ name: 'kwok-demo', server: 'http://127.0.0.1:8080' }));
    const config = parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    assert.deepEqual(config.users, []);
    assert.deepEqual(config.contexts, [{ context: { cluster: 'kwok-demo' }, name: 'kwok-demo' }]);
  });

  it('keeps every file valid through a sequence of merges and removals', async () => {
    const plain = (cluster: string) => buildClusterEntry({ name: `kwok-${cluster}`, server: 'http://127.0.0.1:8080' });
    const steps: (() => Promise<unknown>)[] = [
      () => mergeContext(path, plain('a')),
      () => mergeContext(path, kwokEntry('b')),
      () => mergeContext(path, plain('b')),
      () => removeContext(path, 'kwok-a'),
      () => removeContext(path, 'kwok-b'),
      () => mergeContext(path, kwokEntry('c')),
      () => removeContext(path, 'kwok-c'),
    ];
    const contexts: string[][] = [];
    for (const step of steps) {
      await step();
      const config = parse(readFileSync(path, 'utf8')) as { contexts: { name: string }[] };
      contexts.push(config.contexts.map((c) => c.name));
    }
    assert.deepEqual(contexts, [['kwok-a'], ['kwok-a', 'kwok-b'], ['kwok-a', 'kwok-b'], ['kwok-b'], [], ['kwok-c'], []]);
    assert.deepEqual(parse(readFileSync(path, 'utf8')), {
      apiVersion: 'v1',
      clusters: [],
      contexts: [],
      'current-context': '',
      kind: 'Config',
      preferences: {},
      users: [],
    });
  });

  it('does not write when nothing changes', async () => {
    await mergeContext(path, kwokEntry('demo'));
    const stamp = fileStamp(path);
    const snapshot = await mergeContext(path, kwokEntry('demo'));
    assert.equal(snapshot.written, undefined);
    assert.equal(fileStamp(path), stamp);
  });

  it('leaves current-context alone with makeCurrent: false', async () => {
    writeFileSync(path, KUBECTL_WRITTEN);
    await mergeContext(path, kwokEntry('demo'), { makeCurrent: false });
    assert.match(readFileSync(path, 'utf8'), /\ncurrent-context: kind-kind\n/);
  });

  it('tightens the mode to 0600 and keeps a stricter one', async () => {
    for (const [before, after] of [
      [0o644, 0o600],
      [0o640, 0o600],
      [0o600, 0o600],
      [0o400, 0o400],
    ] as const) {
      writeFileSync(path, KUBECTL_WRITTEN);
      chmodSync(path, before);
      await mergeContext(path, kwokEntry(`mode-${before.toString(8)}`));
      assert.equal(modeOf(path), after, `from ${before.toString(8)}`);
      chmodSync(path, 0o600);
    }
  });

  it('writes through a symlink instead of replacing it', async () => {
    const real = join(scratch.dir, 'dotfiles-kubeconfig');
    writeFileSync(real, KUBECTL_WRITTEN, { mode: 0o600 });
    symlinkSync(real, path);
    await mergeContext(path, kwokEntry('demo'));
    assert.equal(readlinkSync(path), real);
    assert.match(readFileSync(real, 'utf8'), /name: kwok-demo/);
  });

  it('fills an empty or comment-only file', async () => {
    writeFileSync(path, '');
    await mergeContext(path, kwokEntry('demo'));
    assert.equal(readFileSync(path, 'utf8'), renderKubeconfig(buildClusterKubeconfig({ name: 'kwok-demo', ...kwokPaths('demo') })));
    writeFileSync(path, '# managed by hand\n');
    await mergeContext(path, kwokEntry('demo'));
    const text = readFileSync(path, 'utf8');
    assert.match(text, /^# managed by hand\n/);
    assert.equal((parse(text) as Record<string, unknown>)['current-context'], 'kwok-demo');
  });

  it('refuses a file that is not a kubeconfig and leaves it untouched', async () => {
    for (const content of ['clusters: [unclosed\n', '- just\n- a list\n', 'clusters: 3\n', 'a: 1\n---\nb: 2\n']) {
      writeFileSync(path, content);
      await assert.rejects(mergeContext(path, kwokEntry('demo')), UsageError, content);
      assert.equal(readFileSync(path, 'utf8'), content);
    }
  });

  it('lets every concurrent merge in one process land', async () => {
    writeFileSync(path, KUBECTL_WRITTEN, { mode: 0o600 });
    const names = Array.from({ length: 12 }, (_, i) => `async-${i}`);
    await Promise.all(names.map((name, i) => mergeContext(path, kwokEntry(name, 31000 + i))));
    const config = parse(readFileSync(path, 'utf8')) as { contexts: { name: string }[]; 'current-context': string };
    assert.deepEqual(config.contexts.map((c) => c.name).sort(), ['kind-kind', ...names.map((n) => `kwok-${n}`)].sort());
    assert.ok(names.map((n) => `kwok-${n}`).includes(config['current-context']));
  });

  it('lets merges from two processes land', { timeout: 60_000 }, async () => {
    writeFileSync(path, KUBECTL_WRITTEN, { mode: 0o600 });
    const worker = join(REPO, 'test', 'unit', 'kube', 'kubeconfig', 'merge-worker.ts');
    const startAt = String(Date.now() + 2500);
    await Promise.all(
      ['left', 'right'].map((prefix) => run(process.execPath, ['--import', 'tsx', worker, path, prefix, '6', startAt], { cwd: REPO })),
    );
    const config = parse(readFileSync(path, 'utf8')) as Record<'clusters' | 'contexts' | 'users', { name: string }[]>;
    const expected = ['kind-kind', ...['left', 'right'].flatMap((p) => Array.from({ length: 6 }, (_, i) => `kwok-${p}-${i}`))].sort();
    for (const section of ['clusters', 'contexts', 'users'] as const) {
      assert.deepEqual(config[section].map((e) => e.name).sort(), expected, section);
    }
    assert.deepEqual(readdirSync(scratch.dir), ['config'], 'no lock or temp file left behind');
  });

  it('waits for a held lock, then gives up with a ConflictError', async () => {
    writeFileSync(path, KUBECTL_WRITTEN);
    const release = await lockfile.lock(path, { realpath: false });
    try {
      await assert.rejects(mergeContext(path, kwokEntry('demo'), { waitMs: 300 }), ConflictError);
    } finally {
      await release();
    }
    // kubectl's own lock is a plain file with the same name: it excludes us too.
    writeFileSync(`${path}.lock`, '');
    await assert.rejects(mergeContext(path, kwokEntry('demo'), { waitMs: 300 }), ConflictError);
    assert.equal(readFileSync(path, 'utf8'), KUBECTL_WRITTEN);
  });

  it('produces files kubectl reads', { skip: hasKubectl ? false : 'skip: kubectl not on PATH' }, async () => {
    writeFileSync(path, HAND_EDITED, { mode: 0o600 });
    await mergeContext(path, kwokEntry('demo'));
    await mergeContext(path, kwokEntry('on'));
    assert.deepEqual(kubectl(path, 'config', 'get-contexts', '-o', 'name').trim().split('\n').sort(), ['kwok-demo', 'kwok-on', 'prod']);
    assert.equal(kubectl(path, 'config', 'current-context').trim(), 'kwok-on');
  });
});

function kwokPaths(cluster: string): { server: string; caFile: string; certFile: string; keyFile: string } {
  const pki = `/root/.kwok/clusters/${cluster}/pki`;
  return { server: 'https://127.0.0.1:32766', caFile: `${pki}/ca.crt`, certFile: `${pki}/admin.crt`, keyFile: `${pki}/admin.key` };
}

describe('checkMergeable', () => {
  let scratch: ReturnType<typeof scratchDir>;
  let path: string;
  beforeEach(() => {
    scratch = scratchDir();
    path = join(scratch.dir, 'config');
  });
  afterEach(() => scratch.cleanup());

  it('refuses what mergeContext refuses, with the same message, and writes nothing', async () => {
    const cases = [
      ['clusters: [\n', /not valid YAML/],
      ['- a\n- b\n', /not a kubeconfig/],
      ['apiVersion: v1\nkind: Config\nclusters: 5\n', /"clusters" is not a list/],
      ['apiVersion: v1\nkind: Config\nusers: {a: 1}\n', /"users" is not a list/],
    ] as const;
    for (const [text, message] of cases) {
      writeFileSync(path, text);
      const stamp = fileStamp(path);
      await assert.rejects(checkMergeable(path, kwokEntry('demo')), (error: unknown) => error instanceof UsageError && message.test(error.message));
      await assert.rejects(mergeContext(path, kwokEntry('demo')), (error: unknown) => error instanceof UsageError && message.test(error.message));
      assert.equal(fileStamp(path), stamp);
    }
  });

  it('accepts a missing file, an empty one and a hand-edited one, and changes none of them', async () => {
    await checkMergeable(path, kwokEntry('demo'));
    assert.equal(existsSync(path), false);
    for (const text of ['', HAND_EDITED]) {
      writeFileSync(path, text);
      const stamp = fileStamp(path);
      await checkMergeable(path, kwokEntry('demo'));
      assert.equal(fileStamp(path), stamp);
      assert.equal(readFileSync(path, 'utf8'), text);
    }
  });
});

describe('removeContext', () => {
  let scratch: ReturnType<typeof scratchDir>;
  let path: string;
  beforeEach(() => {
    scratch = scratchDir();
    path = join(scratch.dir, 'config');
  });
  afterEach(() => scratch.cleanup());

  it('removes our entries and clears current-context when it was ours, keeping the rest byte-for-byte', async () => {
    writeFileSync(path, HAND_EDITED_MERGED, { mode: 0o600 });
    assert.equal(await removeContext(path, 'kwok-demo'), true);
    assert.equal(readFileSync(path, 'utf8'), HAND_EDITED.replace('current-context: prod   # what I use most', 'current-context: "" # what I use most'));
    assert.equal(modeOf(path), 0o600);
  });

  it('keeps current-context when it points elsewhere', async () => {
    writeFileSync(path, HAND_EDITED_MERGED.replace('current-context: kwok-demo', 'current-context: prod'));
    assert.equal(await removeContext(path, 'kwok-demo'), true);
    assert.equal(readFileSync(path, 'utf8'), HAND_EDITED.replace('current-context: prod   #', 'current-context: prod #'));
  });

  it('does not write when nothing matches', async () => {
    writeFileSync(path, HAND_EDITED);
    const stamp = fileStamp(path);
    assert.equal(await removeContext(path, 'kwok-absent'), false);
    assert.equal(fileStamp(path), stamp);
  });

  it('never creates the file or its directory', async () => {
    const missing = join(scratch.dir, 'nowhere', 'config');
    assert.equal(await removeContext(missing, 'kwok-demo'), false);
    assert.equal(existsSync(join(scratch.dir, 'nowhere')), false);
  });

  it('keeps a stricter mode', async () => {
    writeFileSync(path, HAND_EDITED_MERGED);
    chmodSync(path, 0o400);
    await removeContext(path, 'kwok-demo');
    assert.equal(modeOf(path), 0o400);
  });
});

describe('restoreKubeconfig', () => {
  let scratch: ReturnType<typeof scratchDir>;
  let path: string;
  beforeEach(() => {
    scratch = scratchDir();
    path = join(scratch.dir, 'config');
  });
  afterEach(() => scratch.cleanup());

  it('puts back the exact previous bytes and mode', async () => {
    writeFileSync(path, HAND_EDITED);
    chmodSync(path, 0o644);
    const snapshot = await mergeContext(path, kwokEntry('demo'));
    assert.equal(modeOf(path), 0o600);
    // The snapshot survives a JSON journal.
    await restoreKubeconfig(path, JSON.parse(JSON.stringify(snapshot)) as KubeconfigSnapshot);
    assert.equal(readFileSync(path, 'utf8'), HAND_EDITED);
    assert.equal(modeOf(path), 0o644);
  });

  it('deletes a file the merge created', async () => {
    const snapshot = await mergeContext(path, kwokEntry('demo'));
    await restoreKubeconfig(path, snapshot);
    assert.equal(existsSync(path), false);
  });

  it('restores a replaced entry exactly', async () => {
    await mergeContext(path, kwokEntry('demo', 1111));
    const before = readFileSync(path, 'utf8');
    const snapshot = await mergeContext(path, kwokEntry('demo', 2222));
    await restoreKubeconfig(path, snapshot);
    assert.equal(readFileSync(path, 'utf8'), before);
  });

  it('undoes only our entries when someone merged after us', async () => {
    writeFileSync(path, KUBECTL_WRITTEN);
    const ours = await mergeContext(path, kwokEntry('ours'));
    await mergeContext(path, kwokEntry('theirs'), { makeCurrent: false });
    await restoreKubeconfig(path, ours);
    const config = parse(readFileSync(path, 'utf8')) as { contexts: { name: string }[]; 'current-context': string };
    assert.deepEqual(config.contexts.map((c) => c.name), ['kind-kind', 'kwok-theirs']);
    assert.equal(config['current-context'], 'kind-kind');
  });

  it('keeps a created file that others have written to since', async () => {
    const ours = await mergeContext(path, kwokEntry('ours'));
    await mergeContext(path, kwokEntry('theirs'));
    await restoreKubeconfig(path, ours);
    const config = parse(readFileSync(path, 'utf8')) as { contexts: { name: string }[]; 'current-context': string };
    assert.deepEqual(config.contexts.map((c) => c.name), ['kwok-theirs']);
    assert.equal(config['current-context'], 'kwok-theirs');
  });

  it('is a no-op for a merge that changed nothing, and for a file deleted since', async () => {
    await mergeContext(path, kwokEntry('demo'));
    const unchanged = await mergeContext(path, kwokEntry('demo'));
    const stamp = fileStamp(path);
    await restoreKubeconfig(path, unchanged);
    assert.equal(fileStamp(path), stamp);
    const other = join(scratch.dir, 'other', 'config');
    const snapshot = await mergeContext(other, kwokEntry('demo'));
    mkdirSync(join(scratch.dir, 'other'), { recursive: true });
    writeFileSync(other, '');
    await restoreKubeconfig(join(scratch.dir, 'missing'), snapshot);
    assert.equal(existsSync(join(scratch.dir, 'missing')), false);
  });
});
