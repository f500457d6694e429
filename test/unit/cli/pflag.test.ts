import { test } from 'node:test';
import assert from 'node:assert/strict';
import { flagTokenCount, normalizeFlags, parseGoBool, type FlagShape } from '../../../src/cli/pflag.js';

const FLAGS: Record<string, FlagShape> = {
  name: { type: 'option' },
  v: { type: 'option', char: 'v' },
  config: { type: 'option', char: 'c', multiple: true },
  'dry-run': { type: 'boolean' },
  follow: { type: 'boolean', char: 'f' },
  all: { type: 'boolean', char: 'a' },
  wait: { type: 'option' },
  'kube-authorization': { type: 'boolean', allowNo: true },
  output: { type: 'option', char: 'o' },
};

const cases: Array<[string, string[], string[], string[]?]> = [
  ['--flag=value', ['--name=foo'], ['--name=foo']],
  ['--flag value', ['--name', 'foo'], ['--name=foo']],
  ['a repeated scalar takes the last value (kwok e2e: --wait twice)', ['--wait=15m', 'x', '--wait', '30m'], ['x', '--wait=30m']],
  ['a repeated list accumulates', ['-c', 'a.yaml', '--config=b.yaml', '-cc.yaml'], ['--config=a.yaml', '--config=b.yaml', '--config=c.yaml']],
  ['bare boolean', ['--dry-run'], ['--dry-run']],
  ['boolean =true', ['--dry-run=true'], ['--dry-run']],
  ['boolean =1', ['--dry-run=1'], ['--dry-run']],
  ['boolean =T', ['--dry-run=T'], ['--dry-run']],
  ['boolean =TRUE', ['--dry-run=TRUE'], ['--dry-run']],
  ['boolean =false without a --no form is set after parsing', ['--dry-run=false'], [], ['dry-run']],
  ['boolean =0', ['--dry-run=0'], [], ['dry-run']],
  ['boolean =F', ['--dry-run=F'], [], ['dry-run']],
  ['boolean =False with a --no form', ['--kube-authorization=False'], ['--no-kube-authorization']],
  ['boolean: the last one wins', ['--kube-authorization=false', '--kube-authorization'], ['--kube-authorization']],
  ['--no- form is kept', ['--no-kube-authorization'], ['--no-kube-authorization']],
  ['a boolean never takes the next token', ['--dry-run', 'false'], ['false', '--dry-run']],
  ['-v=4', ['-v=4'], ['--v=4']],
  ['-v 4', ['-v', '4'], ['--v=4']],
  ['-v4', ['-v4'], ['--v=4']],
  ['--v=DEBUG', ['--v=DEBUG'], ['--v=DEBUG']],
  ['the next token is the value even if it starts with -', ['-v', '-4'], ['--v=-4']],
  ['--v -4', ['--v', '-4'], ['--v=-4']],
  ['-o=wide', ['-o=wide'], ['--output=wide']],
  ['short booleans in a row', ['-fa'], ['--follow', '--all']],
  ['short booleans then a value flag', ['-fv4'], ['--v=4', '--follow']],
  ['short boolean =false', ['-f=false'], [], ['follow']],
  ['positionals come first, flags after', ['--wait', '1m', 'node', '--name=x', 'big'], ['node', 'big', '--wait=1m', '--name=x']],
  ['an empty value', ['--name='], ['--name=']],
  ['a lone - is a positional', ['-', '--name', 'x'], ['-', '--name=x']],
  ['-- ends the flags; the rest is kept as it is', ['--name', 'x', '--', '--name', 'y'], ['--name=x', '--', '--name', 'y']],
  ['a value containing =', ['--name=a=b'], ['--name=a=b']],
];

for (const [title, argv, expected, falseBooleans = []] of cases) {
  test(`pflag grammar: ${title}`, () => {
    assert.deepEqual(normalizeFlags(argv, FLAGS), { argv: expected, falseBooleans });
  });
}

const errors: Array<[string[], RegExp]> = [
  [['--bogus'], /^unknown flag: --bogus$/],
  [['--bogus=1'], /^unknown flag: --bogus$/],
  [['-x'], /^unknown shorthand flag: 'x' in -x$/],
  [['-fx'], /^unknown shorthand flag: 'x' in -fx$/],
  [['--name'], /^flag needs an argument: --name$/],
  [['-v'], /^flag needs an argument: 'v' in -v$/],
  [['--dry-run=maybe'], /^invalid argument "maybe" for "--dry-run" flag/],
  [['--dry-run='], /^invalid argument "" for "--dry-run" flag/],
  [['--no-dry-run'], /^unknown flag: --no-dry-run$/],
];
for (const [argv, message] of errors) {
  test(`pflag grammar: ${argv.join(' ')} is refused`, () => {
    assert.throws(() => normalizeFlags(argv, FLAGS), { message });
  });
}

test('unknown flags may be kept in place for commands that take them', () => {
  assert.deepEqual(normalizeFlags(['--bogus', 'x', '--name', 'n'], FLAGS, { allowUnknown: true }).argv, ['--bogus', 'x', '--name=n']);
});

test('Go strconv.ParseBool spellings', () => {
  for (const t of ['1', 't', 'T', 'TRUE', 'true', 'True']) assert.equal(parseGoBool(t), true, t);
  for (const f of ['0', 'f', 'F', 'FALSE', 'false', 'False']) assert.equal(parseGoBool(f), false, f);
  for (const bad of ['yes', 'tRUE', '', 'on', '2']) assert.equal(parseGoBool(bad), undefined, bad);
});

test('flagTokenCount: how many tokens a known flag spans', () => {
  const table: Array<[string[], number | undefined]> = [
    [['--name', 'x'], 2],
    [['--name=x'], 1],
    [['-v', '4'], 2],
    [['-v4'], 1],
    [['-v=4'], 1],
    [['--dry-run', 'create'], 1],
    [['--dry-run=false'], 1],
    [['--no-kube-authorization'], 1],
    [['--bogus', 'x'], undefined],
    [['-x'], undefined],
    [['create'], undefined],
    [['--'], undefined],
  ];
  for (const [argv, count] of table) assert.equal(flagTokenCount(argv, 0, FLAGS), count, argv.join(' '));
});
