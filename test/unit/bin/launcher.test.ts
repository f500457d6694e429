/**
 * bin/kwokts, the installed POSIX sh launcher, run for real (/bin/sh) against fake tools in a
 * temporary directory: what it execs for the plain passthroughs, and that everything else goes
 * to `node bin/run.cjs` with the arguments untouched (a fake `node` first on PATH records them).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { clusterPaths } from '../../../src/naming/naming.js';
import { etcdctlInvocation, kubectlInvocation } from '../../../src/cluster/passthrough.js';
import { passthroughFactsFresh, passthroughFactsPath, recordIdentity, renderPassthroughFacts, writePassthroughFacts } from '../../../src/cluster/passthrough-facts.js';
import { renderRecord, type ClusterRecord } from '../../../src/cluster/record.js';
import { buildComponents } from '../../../src/components/index.js';
import { sampleSpec } from '../components/sample-spec.js';

const LAUNCHER = resolve(import.meta.dirname, '..', '..', '..', 'bin', 'kwokts');
const RUN_JS = join(resolve(import.meta.dirname, '..', '..', '..', 'bin'), 'run.cjs');

interface Box {
  dir: string;
  workdir: string;
  fakebin: string;
  kubectl: string;
  etcdctl: string;
  cleanup(): void;
}

/** A workdir, fake kubectl/etcdctl that print each argument and their stdin, and a fake node. */
function box(): Box {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-launcher-'));
  const fakebin = join(dir, 'fakebin');
  mkdirSync(fakebin);
  const tool = (name: string, body: string): string => {
    const path = join(dir, 'tools', name);
    mkdirSync(join(dir, 'tools'), { recursive: true });
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  };
  // Both fakes also say what they got of NODE_EXTRA_CA_CERTS and its deferred copy (set or not).
  const caEnv = 'echo "ca=${NODE_EXTRA_CA_CERTS+[$NODE_EXTRA_CA_CERTS]} deferred=${KWOKTS_DEFERRED_NODE_EXTRA_CA_CERTS+[$KWOKTS_DEFERRED_NODE_EXTRA_CA_CERTS]}"';
  const printer = caEnv + '; echo "tool=$(basename "$0")"; for a do printf "arg=[%s]\\n" "$a"; done; if [ -n "$READ_STDIN" ]; then printf "stdin=[%s]\\n" "$(cat)"; fi; exit "${EXIT_WITH:-0}"';
  const kubectl = tool('kubectl', printer);
  const etcdctl = tool('etcdctl', printer);
  // Falling through runs `node <bin>/run.cjs ARGS`: the fake says so and exits 99.
  writeFileSync(join(fakebin, 'node'), `#!/bin/sh\n${caEnv}\necho "node"; for a do printf "arg=[%s]\\n" "$a"; done; exit 99\n`);
  chmodSync(join(fakebin, 'node'), 0o755);
  return { dir, workdir: join(dir, 'w'), fakebin, kubectl, etcdctl, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

function sampleRecord(b: Box, name: string): ClusterRecord {
  return {
    name,
    runtime: 'binary',
    options: { runtime: 'binary' } as ClusterRecord['options'],
    componentsPatches: [],
    components: buildComponents(sampleSpec({ name, paths: clusterPaths(b.workdir, name) }), [], []),
    programs: { kubectl: b.kubectl, etcdctl: b.etcdctl },
    kwokDocuments: [],
    version: '0.1.0',
  };
}

/** A cluster directory with a record and the facts the Node side writes for it. */
async function cluster(b: Box, name = 'kwok'): Promise<ClusterRecord> {
  const paths = clusterPaths(b.workdir, name);
  mkdirSync(paths.root, { recursive: true });
  writeFileSync(paths.config, 'kind: KwokctlConfiguration\n');
  // Older than anything written after it, whatever the file system's time resolution.
  const past = new Date(Date.now() - 60_000);
  utimesSync(paths.config, past, past);
  const record = sampleRecord(b, name);
  await writePassthroughFacts(record, paths, (await recordIdentity(paths))!);
  return record;
}

interface Run {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function run(b: Box, args: string[], options: { env?: Record<string, string | undefined>; input?: string; command?: string; cwd?: string } = {}): Run {
  const env: Record<string, string> = { PATH: `${b.fakebin}:/usr/bin:/bin`, HOME: join(b.dir, 'home'), KWOK_WORKDIR: b.workdir };
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const result = spawnSync(options.command ?? LAUNCHER, args, { env, input: options.input ?? '', encoding: 'utf8', cwd: options.cwd ?? b.dir });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

const argsOf = (stdout: string): string[] => [...stdout.matchAll(/^arg=\[([\s\S]*?)\]$/gm)].map((m) => m[1]!);

function assertFellThrough(r: Run, args: string[], runJs = RUN_JS): void {
  assert.equal(r.status, 99, `expected node, got: ${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /^node$/m);
  assert.deepEqual(argsOf(r.stdout), [runJs, ...args]);
}

test('kubectl gets exactly the arguments the Node passthrough gives it, its exit code and stdin/stdout', async () => {
  const b = box();
  try {
    await cluster(b);
    const paths = clusterPaths(b.workdir, 'kwok');
    const user = ['get', 'a b', '*', "it's", '$HOME', '--name', 'x', '-h', '--', "line\nbreak"];
    const r = run(b, ['kubectl', ...user], { env: { EXIT_WITH: '7', READ_STDIN: '1' }, input: 'piped in' });
    assert.equal(r.status, 7, r.stderr);
    assert.match(r.stdout, /^tool=kubectl$/m);
    assert.deepEqual(argsOf(r.stdout), kubectlInvocation(b.kubectl, paths, user).args);
    assert.match(r.stdout, /^stdin=\[piped in\]$/m);
  } finally {
    b.cleanup();
  }
});

test('etcdctl gets its endpoint and certificates first, as etcdctlInvocation', async () => {
  const b = box();
  try {
    const record = await cluster(b, 'e1');
    const paths = clusterPaths(b.workdir, 'e1');
    const r = run(b, ['--name', 'e1', 'etcdctl', 'get', '/', '--prefix']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^tool=etcdctl$/m);
    assert.deepEqual(argsOf(r.stdout), etcdctlInvocation(b.etcdctl, record, paths, ['get', '/', '--prefix']).args);
  } finally {
    b.cleanup();
  }
});

test('--name N, --name=N, repeated (the last wins), and a name that looks like the tool', async () => {
  const b = box();
  try {
    await cluster(b, 'c1');
    await cluster(b, 'kubectl');
    for (const [args, name] of [
      [['--name', 'c1', 'kubectl', 'get'], 'c1'],
      [['--name=c1', 'kubectl', 'get'], 'c1'],
      [['--name', 'nope', '--name=c1', 'kubectl', 'get'], 'c1'],
      [['--name', 'kubectl', 'kubectl', 'get'], 'kubectl'],
    ] as Array<[string[], string]>) {
      const r = run(b, args);
      assert.equal(r.status, 0, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.deepEqual(argsOf(r.stdout), [`--kubeconfig=${clusterPaths(b.workdir, name).kubeconfig}`, 'get'], args.join(' '));
    }
  } finally {
    b.cleanup();
  }
});

test('the workdir is $HOME/.kwok without KWOK_WORKDIR (or with it empty)', async () => {
  const b = box();
  try {
    b.workdir = join(b.dir, 'home', '.kwok');
    await cluster(b);
    for (const env of [{ KWOK_WORKDIR: undefined }, { KWOK_WORKDIR: '' }]) {
      const r = run(b, ['kubectl', 'get'], { env });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      assert.deepEqual(argsOf(r.stdout), [`--kubeconfig=${join(b.workdir, 'clusters', 'kwok', 'kubeconfig.yaml')}`, 'get']);
    }
  } finally {
    b.cleanup();
  }
});

test('everything else runs node bin/run.cjs with the arguments untouched', async () => {
  const b = box();
  try {
    await cluster(b);
    for (const args of [
      [],
      ['--version'],
      ['get', 'clusters'],
      ['delete', 'cluster'],
      ['kectl', 'get'],
      ['-v', 'DEBUG', 'kubectl', 'get'],
      ['--dry-run', 'kubectl'],
      ['-c', 'x.yaml', 'kubectl'],
      ['--name'],
      ['--name', 'kwok'],
      ['--name=', 'kubectl'],
      ['--name', 'BAD', 'kubectl'],
      ['--name', '-x', 'kubectl'],
      ['--name', 'a-', 'kubectl'],
      ['--name', 'a'.repeat(64), 'kubectl'],
      ['--name', 'no-such-cluster', 'kubectl', 'get'],
      // Other spellings of the existing cluster's directory: the file names the one it was written for.
      ['--name', './kwok', 'kubectl', 'get'],
      ['--name', 'x/../kwok', 'kubectl', 'get'],
      ['--', 'kubectl'],
      ['kubectl-x'],
      ['--help', 'kubectl'],
    ]) {
      assertFellThrough(run(b, args), args);
    }
  } finally {
    b.cleanup();
  }
});

test('Node gets NODE_EXTRA_CA_CERTS deferred (src/util/extra-ca-certs.ts), unless unset, empty or another CA store is asked for; the passthroughs get it as it is', async () => {
  const b = box();
  try {
    await cluster(b);
    const ca = (r: Run): string => r.stdout.split('\n').find((line) => line.startsWith('ca='))!;
    assert.equal(ca(run(b, ['--version'], { env: { NODE_EXTRA_CA_CERTS: '/etc/x b.pem' } })), 'ca= deferred=[/etc/x b.pem]');
    assert.equal(ca(run(b, ['--version'])), 'ca= deferred=');
    assert.equal(ca(run(b, ['--version'], { env: { NODE_EXTRA_CA_CERTS: '' } })), 'ca=[] deferred=');
    for (const option of ['--use-openssl-ca', '--use-system-ca']) {
      assert.equal(ca(run(b, ['--version'], { env: { NODE_EXTRA_CA_CERTS: '/b.pem', NODE_OPTIONS: `--max-old-space-size=64 ${option}` } })), 'ca=[/b.pem] deferred=');
    }
    const passthrough = run(b, ['kubectl', 'get', 'ns'], { env: { NODE_EXTRA_CA_CERTS: '/b.pem' } });
    assert.equal(passthrough.status, 0, passthrough.stderr);
    assert.equal(ca(passthrough), 'ca=[/b.pem] deferred=');
  } finally {
    b.cleanup();
  }
});

test("through Node's fast path (a flag the launcher leaves to Node), the tool gets NODE_EXTRA_CA_CERTS back as it was set", async (t) => {
  if (!existsSync(join(RUN_JS, '..', '..', 'dist', 'fast', 'fast-path.cjs'))) return t.skip('needs `npm run build` (dist/fast)');
  const b = box();
  try {
    const record = await cluster(b);
    // A whole record this time: the Node side reads it (the launcher only the facts).
    writeFileSync(clusterPaths(b.workdir, 'kwok').config, renderRecord(record, clusterPaths(b.workdir, 'kwok').root));
    // The real node, not the fake: `-v info` before the tool is the Node passthrough's to read.
    const env = { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, NODE_EXTRA_CA_CERTS: '/b.pem' };
    const passthrough = run(b, ['-v', 'info', 'kubectl', 'get', 'ns'], { env });
    assert.equal(passthrough.status, 0, passthrough.stderr);
    assert.match(passthrough.stdout, /^tool=kubectl$/m);
    assert.equal(passthrough.stdout.split('\n').find((line) => line.startsWith('ca=')), 'ca=[/b.pem] deferred=');
  } finally {
    b.cleanup();
  }
});

test('facts it cannot vouch for go to Node: missing, older than the record, for another spelling, broken, a tool that is gone', async () => {
  const b = box();
  try {
    await cluster(b);
    const paths = clusterPaths(b.workdir, 'kwok');
    const facts = passthroughFactsPath(paths, 'kubectl');
    const good = readFileSync(facts, 'utf8');
    const args = ['kubectl', 'get', 'ns'];
    assert.equal(run(b, args).status, 0);

    // Another spelling of the same workdir: Node's path.join would spell the paths differently.
    assertFellThrough(run(b, args, { env: { KWOK_WORKDIR: `${b.workdir}/` } }), args);
    assertFellThrough(run(b, args, { env: { KWOK_WORKDIR: `${b.dir}/./w` } }), args);

    const broken = [
      '',
      good.replace('kwokts-passthrough 1 1', 'kwokts-passthrough 2 1'),
      good.replace('kwokts-passthrough 1 1', 'kwokts-passthrough 1 2'),
      good.replace('kwokts-passthrough 1 1', 'kwokts-passthrough 1 0'),
      good.replace('kwokts-passthrough 1 1', 'kwokts-passthrough 1 x'),
      good.split('\n').slice(0, 3).join('\n') + '\n',
      good + 'extra\n',
      good.replace(b.kubectl, join(b.dir, 'tools', 'gone')),
      good.replace(`${paths.root}\n`, `${paths.root}/\n`),
    ];
    for (const text of broken) {
      writeFileSync(facts, text);
      assertFellThrough(run(b, args), args);
    }
    writeFileSync(facts, good);
    assert.equal(run(b, args).status, 0);

    // A record written after the facts (kwokctl, an edit): Node decides, and writes them anew.
    writeFileSync(paths.config, 'kind: KwokctlConfiguration\n');
    const future = new Date(Date.now() + 60_000);
    utimesSync(paths.config, future, future);
    assert.equal(await passthroughFactsFresh(paths, 'kubectl'), false);
    assertFellThrough(run(b, args), args);

    rmSync(facts);
    assertFellThrough(run(b, args), args);
    rmSync(paths.config);
    writeFileSync(facts, good);
    assertFellThrough(run(b, args), args);
  } finally {
    b.cleanup();
  }
});

test('a tool that is not executable, or a working directory that is gone, goes to Node', async () => {
  const b = box();
  try {
    await cluster(b);
    const args = ['kubectl', 'get'];
    chmodSync(b.kubectl, 0o644);
    assertFellThrough(run(b, args), args);
    chmodSync(b.kubectl, 0o755);
    const gone = join(b.dir, 'gone');
    mkdirSync(gone);
    // PWD names a directory that is not the working directory any more (removed and made again).
    const r = spawnSync('/bin/sh', ['-c', `cd "${gone}" && rmdir "${gone}" && mkdir "${gone}" && exec "${LAUNCHER}" kubectl get`], {
      env: { PATH: `${b.fakebin}:/usr/bin:/bin`, HOME: b.dir, KWOK_WORKDIR: b.workdir },
      encoding: 'utf8',
    });
    assert.equal(r.status, 99, r.stdout + r.stderr);
  } finally {
    b.cleanup();
  }
});

test('installed as a symlink (npm -g, node_modules/.bin), it finds run.js beside the real file', async () => {
  const b = box();
  try {
    const bin = join(b.dir, 'prefix', 'bin');
    mkdirSync(bin, { recursive: true });
    // Relative, as npm makes them, and two deep.
    symlinkSync(LAUNCHER, join(b.dir, 'prefix', 'real-kwokts'));
    symlinkSync('../real-kwokts', join(bin, 'kwokts'));
    assertFellThrough(run(b, ['get', 'clusters'], { command: join(bin, 'kwokts') }), ['get', 'clusters'], RUN_JS);
    // Found on PATH by name.
    const r = run(b, ['--version'], { command: 'kwokts', env: { PATH: `${bin}:${b.fakebin}:/usr/bin:/bin` } });
    assertFellThrough(r, ['--version'], RUN_JS);
  } finally {
    b.cleanup();
  }
});

test('a tool killed by a signal ends the launcher the same way (exec: it is the tool)', async () => {
  const b = box();
  try {
    await cluster(b);
    writeFileSync(b.kubectl, '#!/bin/sh\nkill -TERM $$\n');
    const r = run(b, ['kubectl']);
    assert.equal(r.signal, 'SIGTERM');
  } finally {
    b.cleanup();
  }
});

test('the facts file: one value a line, refused for values it cannot carry', () => {
  assert.equal(renderPassthroughFacts('/w/clusters/a', { command: '/k', args: ['--x=1'], env: {} }), 'kwokts-passthrough 1 1\n/w/clusters/a\n/k\n--x=1\n');
  assert.equal(renderPassthroughFacts('/w/clusters/a', { command: 'kubectl', args: [], env: {} }), undefined);
  assert.equal(renderPassthroughFacts('/w/clusters/a', { command: '/k', args: [''], env: {} }), undefined);
  assert.equal(renderPassthroughFacts('/w/clus\nters/a', { command: '/k', args: [], env: {} }), undefined);
  assert.equal(renderPassthroughFacts('/w/clusters/a', { command: '/k', args: ['a\rb'], env: {} }), undefined);
});

test('facts are not left behind for a record that changed while they were written, nor for a tool the record lacks', async () => {
  const b = box();
  try {
    await cluster(b);
    const paths = clusterPaths(b.workdir, 'kwok');
    const identity = (await recordIdentity(paths))!;
    writeFileSync(paths.config, 'kind: KwokctlConfiguration\nchanged: true\n');
    await writePassthroughFacts(sampleRecord(b, 'kwok'), paths, identity);
    assert.equal(await passthroughFactsFresh(paths, 'kubectl'), false);
    assert.equal(await passthroughFactsFresh(paths, 'etcdctl'), false);

    const record = { ...sampleRecord(b, 'kwok'), programs: { kubectl: b.kubectl } };
    await writePassthroughFacts(record, paths, (await recordIdentity(paths))!);
    assert.equal(await passthroughFactsFresh(paths, 'kubectl'), true);
    assert.equal(await passthroughFactsFresh(paths, 'etcdctl'), false);
  } finally {
    b.cleanup();
  }
});

test('Node is told what the user typed ($0), for the hints that name a command', async () => {
  const b = box();
  try {
    writeFileSync(join(b.fakebin, 'node'), '#!/bin/sh\necho "invoked-as=[$KWOKTS_INVOKED_AS]"\nexit 99\n');
    chmodSync(join(b.fakebin, 'node'), 0o755);
    // Through a symlink on PATH (as npm installs it), the shell gives the script its full path.
    symlinkSync(LAUNCHER, join(b.fakebin, 'kwokts'));
    const viaPath = run(b, ['get', 'clusters'], { command: 'kwokts' });
    assert.match(viaPath.stdout, new RegExp(`^invoked-as=\\[${join(b.fakebin, 'kwokts')}\\]$`, 'm'));
    const viaLauncher = run(b, ['get', 'clusters']);
    assert.match(viaLauncher.stdout, new RegExp(`^invoked-as=\\[${LAUNCHER}\\]$`, 'm'));
  } finally {
    b.cleanup();
  }
});
