/**
 * kwokctl's command line grammar on the built CLI (no cluster): pflag spellings, repeated flags,
 * global flags anywhere, one-line usage errors, typo suggestions, help defaults, completion
 * scripts in a real bash, get artifacts, and progress on a terminal without a size (`script`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execa } from 'execa';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, INVOKED_RE, kwokts, sandbox, ROOT, failure } from './harness.js';
import { peerBinary } from '../peers.js';
import { makeFakeGo } from '../unit/artifacts/helpers.js';

const KWOKCTL = peerBinary('kwokctl');

test('pflag spellings are accepted: --bool=false, =1, a repeated --wait, -v=4, -v -4, --v=DEBUG, globals anywhere', async () => {
  const box = sandbox();
  try {
    const accepted: string[][] = [
      ['create', 'cluster', '--dry-run', '--kube-authorization=false', '--kube-admission=0', '--quiet-pull=true'],
      // kwok's own e2e passes --wait twice: the last one wins.
      ['create', 'cluster', '--dry-run=true', '--wait=15m', '--runtime', 'binary', '--wait', '30m'],
      ['-v=4', 'get', 'clusters'],
      ['-v', '-4', 'get', 'clusters'],
      ['get', 'clusters', '--v=DEBUG'],
      ['-v4', '--name', 'gr-x', 'get', 'clusters'],
      ['create', '--name', 'gr-x', 'cluster', '--dry-run', '--timeout=1h2m3.5s'],
      ['--dry-run', 'delete', 'cluster', '--all=true'],
      ['-c', '/dev/null,/dev/null', 'get', 'clusters', '-o=wide'],
    ];
    for (const args of accepted) {
      const r = await kwokts(box, args);
      assert.equal(r.exitCode, 0, `${args.join(' ')}: ${r.stderr}`);
    }
    // The last value really wins, and the false really is false.
    const plan = await kwokts(box, ['create', 'cluster', '--dry-run', '--kube-authorization=false', '--kube-apiserver-port=1', '--kube-apiserver-port', '32123']);
    assert.equal(plan.exitCode, 0, failure(plan));
    assert.match(plan.stdout, /--secure-port=32123/);
    assert.doesNotMatch(plan.stdout, /--authorization-mode=Node,RBAC/);
    const withAuth = await kwokts(box, ['create', 'cluster', '--dry-run', '--kube-authorization=f', '--kube-authorization']);
    assert.match(withAuth.stdout, /--authorization-mode=Node,RBAC/);
  } finally {
    box.cleanup();
  }
});

test('bad input is one error line plus a hint, exit 2; typos get a suggestion', async () => {
  const box = sandbox();
  try {
    const table: Array<[string[], RegExp, RegExp]> = [
      [['craete', 'cluster'], /^error: unknown command "craete"$/, /^hint: did you mean "create"\?$/],
      [['get', 'cluster'], /^error: unknown command "get cluster"$/, /^hint: did you mean "get clusters"\?$/],
      [['--name', 'x', 'snapshot', 'sav'], /^error: unknown command "snapshot sav"$/, /^hint: did you mean "snapshot save"\?$/],
      [['delete', 'cluster', '--bogus'], /^error: unknown flag: --bogus$/, new RegExp(`^hint: see \`${INVOKED_RE} delete cluster --help\`$`)],
      // The closest flag, whichever path reads the command (create and delete cluster have a fast one).
      [['create', 'cluster', '--runtim', 'docker'], /^error: unknown flag: --runtim$/, /^hint: did you mean --runtime\?$/],
      [['delete', 'cluster', '--forse'], /^error: unknown flag: --forse$/, /^hint: did you mean --force\?$/],
      [['--nme', 'x', 'get', 'clusters'], /^error: unknown flag: --nme$/, /^hint: did you mean --name\?$/],
      [['get', 'clusters', '--dry-run=maybe'], /^error: invalid argument "maybe" for "--dry-run" flag/, /^hint: /],
      [['start', 'cluster', '--wait=soon'], /^error: .*--wait: invalid duration "soon"/, /^hint: /],
      [['get', 'clusters', '-o'], /^error: flag needs an argument: 'o' in -o$/, /^hint: /],
      [['snapshot', 'export', '--path', 'x.yaml', '--record', '--as', 'someone'], /^error: --record cannot impersonate \(--as, --as-group\)$/, /^hint: /],
    ];
    for (const [args, message, hint] of table) {
      const r = await kwokts(box, args);
      assert.equal(r.exitCode, 2, `${args.join(' ')}: ${r.stderr}`);
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(lines[0]!, message);
      assert.match(lines[1]!, hint);
      assert.equal(r.stdout, '');
    }
    // Not bad input but an unreachable cluster (the sandbox's kubeconfig names example.invalid):
    // one error line, exit 1, never "unexpected failure" (70), and no file left.
    mkdirSync(box.workdir, { recursive: true });
    const unreachable = await kwokts(box, ['snapshot', 'export', '--path', join(box.workdir, 'rec.yaml'), '--record']);
    assert.equal(unreachable.exitCode, 1, unreachable.stderr);
    assert.match(unreachable.stderr.split('\n')[0]!, /^error: snapshot export --record: .*example\.invalid/);
    assert.doesNotMatch(unreachable.stderr, /unexpected failure|    at /);
    assert.equal(existsSync(join(box.workdir, 'rec.yaml')), false);
  } finally {
    box.cleanup();
  }
});

test('help: -h, help CMD, and the true defaults of --wait, --timeout, --config, --kubeconfig', async () => {
  const box = sandbox();
  try {
    const create = await kwokts(box, ['help', 'create', 'cluster']);
    assert.equal(create.exitCode, 0, failure(create));
    assert.match(create.stdout, /--wait=DURATION\s+\[default: 2m\][^]*0 waits only until\s+kube-apiserver serves/);
    assert.match(create.stdout, /--timeout=DURATION[^]*\(default: none\)/);
    // The file read first: $KWOK_WORKDIR/kwok.yaml (the sandbox's), not a fixed ~/.kwok/kwok.yaml.
    assert.ok(create.stdout.replace(/\s+/g, ' ').includes(`-c, --config=<value>... [default: ${join(box.workdir, 'kwok.yaml')}]`), create.stdout);
    const del = await kwokts(box, ['delete', 'cluster', '-h']);
    assert.equal(del.exitCode, 0, failure(del));
    assert.match(del.stdout, /--force/);
    assert.match(del.stdout, /--kubeconfig=<value>\s+\[default: \$KUBECONFIG or ~\/\.kube\/config\]/);
    const topic = await kwokts(box, ['completion']);
    assert.equal(topic.exitCode, 0);
    for (const shell of ['bash', 'fish', 'powershell', 'zsh']) assert.match(topic.stdout, new RegExp(`completion ${shell}`));
  } finally {
    box.cleanup();
  }
});

test('completion bash: a real bash completes commands, flags and flag values', async () => {
  const box = sandbox();
  try {
    // The script calls the program by the name it completes: put kwokts on PATH.
    const bin = join(box.workdir, 'bin');
    mkdirSync(bin, { recursive: true });
    if (!existsSync(join(bin, 'kwokts'))) symlinkSync(BIN, join(bin, 'kwokts'));
    const complete = async (line: string[]): Promise<string[]> => {
      const script = `source <(kwokts completion bash)
COMP_WORDS=(${line.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${line.length - 1}
__kwokts_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const r = await execa('bash', ['-c', script], { env: { ...process.env, ...box.env, PATH: `${bin}:${process.env.PATH}` }, cwd: box.workdir });
      return String(r.stdout).split('\n').filter(Boolean);
    };
    assert.deepEqual(await complete(['kwokts', 'cr']), ['create']);
    assert.deepEqual(await complete(['kwokts', 'get', 'c']), ['clusters', 'components']);
    assert.ok((await complete(['kwokts', 'delete', 'cluster', '--'])).includes('--force'));
    assert.deepEqual(await complete(['kwokts', 'get', 'artifacts', '--filter', '']), ['binary', 'image']);
    // Values from the machine and from kwokts's own lists: clusters, runtimes, components, levels, kinds.
    mkdirSync(join(box.workdir, 'clusters', 'gr-one'), { recursive: true });
    writeFileSync(join(box.workdir, 'clusters', 'gr-one', 'kwok.yaml'), 'kind: KwokctlConfiguration\n');
    assert.deepEqual(await complete(['kwokts', '--name', '']), ['gr-one']);
    assert.deepEqual(await complete(['kwokts', 'create', 'cluster', '--runtime', 'p']), ['podman']);
    assert.deepEqual(await complete(['kwokts', 'create', 'cluster', '--enable', 'metrics-server,pro']), ['metrics-server,prometheus']);
    assert.deepEqual(await complete(['kwokts', '-v', '']), ['DEBUG', 'INFO', 'WARN', 'ERROR']);
    assert.deepEqual(await complete(['kwokts', 'scale', '']), ['node', 'pod']);
  } finally {
    box.cleanup();
  }
});

test('completion zsh and fish: the real shells complete through __complete (skipped where not installed)', async (t) => {
  const box = sandbox();
  try {
    const bin = join(box.workdir, 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(BIN, join(bin, 'kwokts'));
    const env = { ...process.env, ...box.env, PATH: `${bin}:${process.env.PATH}` };
    const has = async (shell: string) => (await execa('sh', ['-c', `command -v ${shell}`], { reject: false })).exitCode === 0;
    if (await has('zsh')) {
      // compadd and _files only work inside zsh's completion system: stand-ins print what they get.
      const script = `compdef() { :; }; source <(kwokts completion zsh); compadd() { print -l -- "\${@:2}"; }; _files() { print FILES; }
words=(kwokts get cl); CURRENT=3; ${'__kwokts_complete'}; words=(kwokts delete cluster --f); CURRENT=4; __kwokts_complete; words=(kwokts port-forward etcd ''); CURRENT=4; __kwokts_complete; words=(kwokts logs ''); CURRENT=3; __kwokts_complete`;
      const r = await execa('zsh', ['-c', script], { env, cwd: box.workdir });
      // Nothing to offer (the ports of port-forward): files; logs offers audit even without a cluster.
      assert.deepEqual(String(r.stdout).split('\n'), ['clusters', '--force', 'FILES', 'audit']);
    } else {
      console.log('skip: zsh is not installed');
    }
    if (await has('fish')) {
      const r = await execa('fish', ['-c', 'kwokts completion fish | source; complete -C "kwokts get cl"; complete -C "kwokts get artifacts --filter "'], { env, cwd: box.workdir });
      assert.deepEqual(String(r.stdout).split('\n'), ['clusters', 'binary', 'image']);
    } else {
      console.log('skip: fish is not installed');
    }
    t.diagnostic('powershell is not tested here (no pwsh on Debian without Microsoft\'s repository)');
  } finally {
    box.cleanup();
  }
});

test('get artifacts: one artifact a line, sorted, --filter binary|image, as kwokctl', async () => {
  const box = sandbox();
  try {
    const run = async (args: string[]) => {
      const r = await kwokts(box, ['get', 'artifacts', ...args]);
      assert.equal(r.exitCode, 0, failure(r));
      return r.stdout.trimEnd().split('\n').filter(Boolean);
    };
    const binary = await run(['--runtime', 'binary']);
    assert.deepEqual(binary, [...binary].sort());
    assert.ok(binary.includes('https://dl.k8s.io/release/v1.36.1/bin/linux/amd64/kube-apiserver'), binary.join('\n'));
    assert.deepEqual(await run(['--runtime', 'binary', '--filter', 'image']), []);
    const docker = await run(['--runtime', 'docker']);
    assert.ok(docker.includes('registry.k8s.io/kube-apiserver:v1.36.1'), docker.join('\n'));
    assert.deepEqual(await run(['--runtime', 'docker', '--filter', 'binary']), ['https://dl.k8s.io/release/v1.36.1/bin/linux/amd64/kubectl']);
    // kind: the node image and every image kind loads into the node (the extras too, as kwokctl).
    const kind = await run(['--runtime', 'kind', '--filter', 'image']);
    assert.deepEqual(kind, [...kind].sort());
    for (const image of ['docker.io/kindest/node:v1.36.1', 'ghcr.io/kwokts/kwok:', 'docker.io/prom/prometheus:', 'metrics-server/metrics-server:', 'docker.io/jaegertracing/all-in-one:']) {
      assert.ok(kind.some((line) => line.startsWith(image) || line.includes(`/${image}`)), `${image} not in:\n${kind.join('\n')}`);
    }
    // The lines kwokctl prints for the same runtime and filter are ours too (except kwok's own
    // artifacts and metrics-server, whose version kwokts cannot take: see versions.ts).
    if (existsSync(KWOKCTL)) {
      const theirs = await execa(KWOKCTL, ['get', 'artifacts', '--runtime', 'docker', '--filter', 'binary'], { env: { ...process.env, ...box.env }, reject: false });
      assert.deepEqual(String(theirs.stdout).trim().split('\n'), await run(['--runtime', 'docker', '--filter', 'binary']));
      const theirKind = await execa(KWOKCTL, ['get', 'artifacts', '--runtime', 'kind', '--filter', 'image'], { env: { ...process.env, ...box.env }, reject: false });
      const comparable = String(theirKind.stdout).trim().split('\n').filter((l) => !/\/kwok\/kwok:|metrics-server/.test(l));
      assert.deepEqual(comparable.filter((l) => !kind.includes(l)), [], `kwokctl's kind images missing from ours:\n${kind.join('\n')}`);
    } else {
      console.log(`skip: ${KWOCTL_MISSING}`);
    }
  } finally {
    box.cleanup();
  }
});
const KWOCTL_MISSING = `no kwokctl at ${KWOKCTL} to compare with`;

test('progress on a terminal without a size (script -c) is readable lines, not one character a line', async (t) => {
  const hasScript = (await execa('sh', ['-c', 'command -v script'], { reject: false })).exitCode === 0;
  if (!hasScript) {
    t.skip('script (Debian bsdutils) is not installed');
    console.log('skip: script (Debian bsdutils) is not installed');
    return;
  }
  // The progress module of the built CLI, run on the pty that `script` gives it, whose size is
  // 0x0 because this test's stdin is not a terminal.
  const program = `import { detectProgressMode, phaseRunner } from ${JSON.stringify(join(ROOT, 'dist/src/cli/progress.js'))};
await phaseRunner(detectProgressMode(false, false))([{ title: 'Start etcd, kube-apiserver', run: async (u) => u('etcd ready') }, { title: 'Add context kwok-gr', run: async () => {} }]);`;
  const r = await execa('script', ['-q', '-c', `node --input-type=module -e ${shellQuote(program)}`, '/dev/null'], { reject: false, input: '', env: { ...process.env, CI: '' } });
  const lines = String(r.stdout).replaceAll('\r', '').split('\n').filter(Boolean);
  assert.ok(lines.some((l) => l.includes('Start etcd, kube-apiserver')), String(r.stdout));
  assert.ok(lines.every((l) => l.trim().length > 3), `one character a line:\n${String(r.stdout)}`);
});

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

test('every kwokctl command and every flag of the non-create commands exists here, and help shows kwokctl\'s defaults (scripts/compare-kwokctl-flags.mjs)', async (t) => {
  if (!existsSync(KWOKCTL)) {
    t.skip(KWOCTL_MISSING);
    console.log(`skip: ${KWOCTL_MISSING}`);
    return;
  }
  const r = await execa('node', [join(ROOT, 'scripts', 'compare-kwokctl-flags.mjs'), KWOKCTL]);
  const lines = String(r.stdout).split('\n').filter(Boolean);
  // create cluster's option flags are the options table's business; get kubeconfig's --host and
  // --insecure-skip-tls-verify come with the kubeconfig work.
  const missing = lines.filter((l) => /missing/.test(l) && !/^(create cluster|get kubeconfig):/.test(l));
  assert.deepEqual(missing, []);
  // The defaults `--help` shows, resolved as create resolves them, are kwokctl's but where kwokts
  // differs on purpose (docs/user/configuration.md): kind from PATH, its own controller and image,
  // and the kubeconfig kubectl would write to.
  const defaults = lines.filter((l) => / default .* here, .* in kwokctl$/.test(l)).map((l) => l.replace(/ default .*/, ''));
  assert.deepEqual(defaults.sort(), ['create cluster: --kind-binary', 'create cluster: --kubeconfig', 'create cluster: --kwok-controller-binary', 'create cluster: --kwok-controller-image', 'delete cluster: --kubeconfig'], lines.join('\n'));
});

test('a Go build in plain output: why and what it costs first, then which package of how many and the time, never go\'s JSON; artifacts prune frees what it left', async () => {
  const box = sandbox();
  try {
    // A fake go (the unit tests' one) first on PATH, and a cache of our own: a real build takes minutes.
    const bin = join(box.workdir, '..', 'fake-go-bin');
    mkdirSync(bin, { recursive: true });
    const { go } = await makeFakeGo(bin);
    symlinkSync(go, join(bin, 'go'));
    box.env.KWOK_CACHE_DIR = join(box.workdir, '..', 'fresh-cache');
    const r = await execa('node', [BIN, 'artifacts', 'build', 'etcd'], { env: { ...process.env, ...box.env, PATH: `${bin}:${process.env.PATH}` }, reject: false });
    assert.equal(r.exitCode, 0, String(r.stderr));
    const lines = String(r.stderr).split('\n');
    const costLine = new RegExp(`^building etcd v3\\.6\\.10 from Go modules with go1\\.99\\.0: a cold build takes .* \\(this machine has \\d+ CPUs?\\), most of it Go's caches under .*fresh-cache/go \\(\`${INVOKED_RE} artifacts prune\` frees them\\)$`);
    const cost = lines.findIndex((l) => costLine.test(l));
    const compiled = lines.findIndex((l) => /^ {2}\[\d+s\] building etcd v3\.6\.10: (compiled \d+\/\d+ packages \(\S+\)|reading the go\.mod of \S+ \(\d+\/\d+\))$/.test(l));
    assert.ok(cost >= 0 && compiled > cost, String(r.stderr));
    assert.doesNotMatch(String(r.stderr), /"GoMod"|^\s*[{}]\s*$/m);

    // artifacts prune: what the build left (the fake go fills no Go cache: one stands in for it).
    const cache = box.env.KWOK_CACHE_DIR;
    mkdirSync(join(cache, 'go', 'build-cache', '00'), { recursive: true });
    writeFileSync(join(cache, 'go', 'build-cache', '00', 'entry'), Buffer.alloc(100_000));
    const env = { ...process.env, ...box.env };
    const dry = await execa('node', [BIN, 'artifacts', 'prune', '--dry-run'], { env, reject: false });
    assert.equal(dry.exitCode, 0, String(dry.stderr));
    assert.match(String(dry.stdout), /^would free \d+(\.\d)? [KMG]?B in .*fresh-cache:$/m);
    assert.match(String(dry.stdout), /^ +\d+(\.\d)? [KMG]?B {2}Go's build cache: .*fresh-cache\/go\/build-cache$/m);
    // The binaries the next create would take are kept (a rebuild without Go's caches is a cold one).
    assert.match(String(dry.stdout), /^kept, as clusters run them or the next create would:\n +\d+(\.\d)? [KMG]?B {2}etcd v3\.6\.10 binaries built from Go modules: .* \(the next create cluster\)$/m);
    assert.ok(existsSync(join(cache, 'go', 'build-cache')), 'a dry run removes nothing');
    const real = await execa('node', [BIN, 'artifacts', 'prune'], { env, reject: false });
    assert.equal(real.exitCode, 0, String(real.stderr));
    assert.match(String(real.stdout), /^freed \d+(\.\d)? [KMG]?B in /m);
    assert.equal(existsSync(join(cache, 'go')), false);
    assert.ok(existsSync(join(cache, 'gobuild', 'etcd', 'v3.6.10', 'etcd')));
    const all = await execa('node', [BIN, 'artifacts', 'prune', '--all'], { env, reject: false });
    assert.match(String(all.stdout), /^freed .*\n +\d+(\.\d)? [KMG]?B {2}etcd v3\.6\.10 binaries built from Go modules: /m);
    assert.equal(existsSync(join(cache, 'gobuild', 'etcd', 'v3.6.10')), false);
    const again = await execa('node', [BIN, 'artifacts', 'prune'], { env, reject: false });
    assert.match(String(again.stdout), /^nothing to free in /m);
  } finally {
    box.cleanup();
  }
});
