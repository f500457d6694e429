import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routeArgv, type CommandTable } from '../../../src/cli/argv.js';
import { suggest, levenshtein } from '../../../src/cli/suggest.js';
import { KwoktsError } from '../../../src/util/errors.js';

const TABLE: CommandTable = {
  bin: 'kwokts',
  commands: new Set(['create cluster', 'delete cluster', 'get clusters', 'get components', 'get kubeconfig', 'get artifacts', 'logs', 'kubectl', 'etcdctl', 'kwok', 'snapshot save', 'snapshot export', 'completion', 'scale']),
  topics: new Set(['create', 'delete', 'get', 'snapshot']),
  globals: {
    name: { type: 'option' },
    config: { type: 'option', char: 'c', multiple: true },
    'dry-run': { type: 'boolean' },
    v: { type: 'option', char: 'v' },
  },
};

const cases: Array<[string, string[], string[]]> = [
  ['global flags before the command move after it', ['--name', 'foo', 'create', 'cluster', '--wait', '1m'], ['create:cluster', '--name', 'foo', '--wait', '1m']],
  ['all spellings of globals', ['--name=foo', '-v', 'DEBUG', '-c', 'a.yaml', '--config=b.yaml', '--dry-run', 'get', 'clusters'], ['get:clusters', '--name=foo', '-v', 'DEBUG', '-c', 'a.yaml', '--config=b.yaml', '--dry-run']],
  ['-v4 and --dry-run=false before the command', ['-v4', '--dry-run=false', 'get', 'clusters'], ['get:clusters', '-v4', '--dry-run=false']],
  ['-v -4: the value starts with -', ['-v', '-4', 'get', 'clusters'], ['get:clusters', '-v', '-4']],
  ['globals between the command words', ['create', '--name', 'x', 'cluster', '--wait=1m'], ['create:cluster', '--name', 'x', '--wait=1m']],
  ['flags after the command stay where they are', ['create', 'cluster', '--name', 'x'], ['create:cluster', '--name', 'x']],
  ['a positional is not taken for a command word', ['get', 'clusters', 'extra'], ['get:clusters', 'extra']],
  ['positional after a single-word command', ['logs', 'kube-apiserver', '-f'], ['logs', 'kube-apiserver', '-f']],
  ['a topic alone shows its help', ['get'], ['get']],
  ['help CMD', ['help', 'create', 'cluster'], ['create:cluster', '--help']],
  ['help alone', ['help'], ['--help']],
  ['-h', ['create', 'cluster', '-h'], ['create:cluster', '--help']],
  ['nothing but globals: the help', ['--name', 'foo'], ['--help']],
  ['nothing at all: the help', [], ['--help']],
  ['--version', ['--version'], ['--version']],
  ['completion bash', ['completion', 'bash'], ['completion', 'bash']],
];
for (const [title, argv, expected] of cases) {
  test(`routeArgv: ${title}`, () => assert.deepEqual(routeArgv(argv, TABLE), expected));
}

test('routeArgv: passthrough commands keep every tool argument verbatim after --', () => {
  assert.deepEqual(routeArgv(['--name', 'ci', 'kubectl', 'get', 'ns', '--name', 'x', '-v', '9', '--', 'y'], TABLE), ['kubectl', '--name', 'ci', '--', 'get', 'ns', '--name', 'x', '-v', '9', '--', 'y']);
  assert.deepEqual(routeArgv(['etcdctl', 'get', '/registry', '--prefix'], TABLE), ['etcdctl', '--', 'get', '/registry', '--prefix']);
  assert.deepEqual(routeArgv(['kubectl', '--help'], TABLE), ['kubectl', '--', '--help']);
});

const unknown: Array<[string[], string, string]> = [
  [['craete', 'cluster'], 'unknown command "craete"', 'did you mean "create"?'],
  [['get', 'cluster'], 'unknown command "get cluster"', 'did you mean "get clusters"?'],
  [['--name', 'x', 'create', 'clustr'], 'unknown command "create clustr"', 'did you mean "create cluster"?'],
  [['get', 'comp'], 'unknown command "get comp"', 'did you mean "get components"?'],
  [['snapshot', 'sav'], 'unknown command "snapshot sav"', 'did you mean "snapshot save"?'],
  [['frobnicate'], 'unknown command "frobnicate"', 'see `kwokts --help` for the commands'],
  [['help', 'craete'], 'unknown command "craete"', 'did you mean "create"?'],
];
for (const [argv, message, hint] of unknown) {
  test(`routeArgv: ${argv.join(' ')} is one usage error with a suggestion`, () => {
    assert.throws(() => routeArgv(argv, TABLE), (e: unknown) => {
      assert.ok(KwoktsError.is(e));
      assert.equal(e.exitCode, 2);
      assert.equal(e.message, message);
      assert.equal(e.hint, hint);
      return true;
    });
  });
}

test('routeArgv: a command flag before the command is refused with a hint', () => {
  assert.throws(() => routeArgv(['--wait', '1m', 'create', 'cluster'], TABLE), /unknown flag: --wait/);
});

test('suggest: cobra-like distance and prefix', () => {
  assert.equal(levenshtein('craete', 'create'), 2);
  assert.deepEqual(suggest('craete', ['create', 'delete', 'get']), ['create']);
  assert.deepEqual(suggest('del', ['create', 'delete']), ['delete']);
  assert.deepEqual(suggest('xyz', ['create', 'delete']), []);
});

test('an unknown flag gets the closest flag as its hint, exit 2 (--runtim: did you mean --runtime?)', async () => {
  const { suggestFlags, unknownFlagHint } = await import('../../../src/cli/suggest.js');
  const flags = {
    runtime: { type: 'option' as const },
    wait: { type: 'option' as const },
    'secure-port': { type: 'boolean' as const, allowNo: true },
    'disable-kube-scheduler': { type: 'boolean' as const, hidden: true },
    v: { type: 'option' as const },
  };
  assert.deepEqual(suggestFlags('--runtim', flags), ['--runtime']);
  assert.deepEqual(suggestFlags('--runtim=docker', flags), ['--runtime']);
  assert.deepEqual(suggestFlags('--wiat', flags), ['--wait']);
  assert.deepEqual(suggestFlags('--no-secure-prot', flags), ['--no-secure-port']);
  // Hidden (deprecated) spellings are accepted but never taught; one letter is no typo of -v.
  assert.deepEqual(suggestFlags('--disable-kube-schedule', flags), []);
  assert.deepEqual(suggestFlags('--x', flags), []);
  assert.equal(unknownFlagHint('--bogus', flags, 'see --help'), 'see --help');
  // Before the command: a typo of a global flag is named.
  assert.throws(() => routeArgv(['--nme', 'x', 'get', 'clusters'], TABLE), (e: unknown) => KwoktsError.is(e) && e.exitCode === 2 && e.hint === 'did you mean --name?');
});
