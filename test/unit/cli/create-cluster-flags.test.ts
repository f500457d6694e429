import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Config, Parser } from '@oclif/core';
import { routeArgv } from '../../../src/cli/argv.js';
import { BaseCommand } from '../../../src/cli/base-command.js';
import { CREATE_CLUSTER_FLAGS, readCreateClusterFlags, type FastFlag } from '../../../src/cli/create-cluster-flags.js';
import { classifyFast } from '../../../src/cli/fast-path.js';
import { commandTable } from '../../../src/cli/main.js';
import { normalizeFlags, type FlagShape } from '../../../src/cli/pflag.js';
import { packageRoot } from '../../../src/util/package-root.js';
import CreateCluster from '../../../src/commands/create/cluster.js';

type OclifFlag = FlagShape & { delimiter?: string; default?: unknown; parse: (input: string, context: unknown, flag: unknown) => Promise<unknown> } & Record<string, unknown>;

const oclifFlags = (): Record<string, OclifFlag> => ({ ...BaseCommand.baseFlags, ...CreateCluster.flags }) as unknown as Record<string, OclifFlag>;

/**
 * What the fast reader knows how to read as oclif does. A flag with anything else (env, options,
 * required, exclusive, dependsOn, aliases, deprecated ...) fails here, so the fast reader is
 * taught it (or create falls through to oclif for it) before it can read that flag wrongly.
 */
const UNDERSTOOD = new Set(['parse', 'description', 'default', 'helpGroup', 'input', 'multiple', 'type', 'char', 'delimiter', 'defaultHelp', 'allowNo', 'hidden', 'helpValue']);

// Both come from the same declarations (command-flags.ts and the option table); this checks that
// the two translators agree, and that oclif gets nothing the fast reader cannot read.
test("the fast create's flag table is create cluster's oclif flags (BaseCommand's included)", async () => {
  const fromOclif: Record<string, FastFlag> = {};
  for (const [name, flag] of Object.entries(oclifFlags())) {
    for (const key of Object.keys(flag)) assert.ok(UNDERSTOOD.has(key), `--${name} has ${key}, which the fast create does not read`);
    if (flag.type === 'option') assert.ok(flag.multiple || flag.delimiter === undefined, `--${name}`);
    // Every oclif flag has a parser; ours either hands the text on or reads a Go duration.
    const parsed = flag.type === 'option' ? await flag.parse('90s', {}, flag) : undefined;
    const duration = parsed === 90_000;
    if (flag.type === 'option' && !duration) assert.equal(parsed, '90s', `--${name} has a parser the fast create does not know`);
    const hasDefault = flag.default !== undefined && !(flag.type === 'boolean' && flag.default === false && flag.allowNo);
    assert.notEqual(typeof flag.default, 'function', `--${name}: a computed default`);
    fromOclif[name] = {
      type: flag.type,
      ...(flag.char ? { char: flag.char } : {}),
      ...(flag.multiple ? { multiple: true } : {}),
      ...(flag.allowNo ? { allowNo: true } : {}),
      ...(flag.delimiter ? { delimiter: flag.delimiter as ',' } : {}),
      ...(hasDefault ? { default: flag.default as FastFlag['default'] } : {}),
      ...(duration ? { parse: 'duration' as const } : {}),
    };
  }
  assert.deepEqual(CREATE_CLUSTER_FLAGS, fromOclif);
  assert.deepEqual(Object.keys(CreateCluster.args ?? {}), [], 'create cluster takes no positional arguments');
  assert.notEqual(CreateCluster.strict, false);
});

/** The flags as BaseCommand gets them through oclif: pflag's rewrite, oclif's parser, then the false booleans. */
async function throughOclif(tokens: string[]): Promise<Record<string, unknown>> {
  const flags = oclifFlags();
  const normalized = normalizeFlags(tokens, flags);
  const { flags: parsed } = await Parser.parse(normalized.argv, { flags: flags as never, strict: true });
  const out: Record<string, unknown> = { ...parsed };
  for (const name of normalized.falseBooleans) out[name] = false;
  // oclif sets an unset flag without a default to undefined; the fast reader leaves it out.
  for (const [key, value] of Object.entries(out)) if (value === undefined) delete out[key];
  return out;
}

const READ: string[][] = [
  [],
  ['--name', 'ci'],
  ['--name=a', '--name', 'b', '-vWARN'],
  ['-v', 'DEBUG', '-c', 'a.yaml,b.yaml', '--config', 'c.yaml', '-c=d.yaml'],
  ['--config', ' "a b.yaml" , \'c.yaml\',d\\,e.yaml'],
  ['--runtime', 'binary', '--kube-apiserver-port=0', '--wait', '90s', '--timeout=5m', '--retain'],
  ['--wait', '0', '--timeout', '1h2m3.5s'],
  ['--wait', '30', '--wait=2m'],
  ['--enable', 'metrics-server,jaeger', '--disable=kube-scheduler', '--enable', 'prometheus', '--components', 'etcd,kube-apiserver'],
  ['--secure-port=false', '--quiet-pull', '--no-secure-port'],
  ['--quiet-pull=0', '--secure-port=t', '--retain=false', '--dry-run=false'],
  ['--extra-args', 'kube-apiserver=v=4', '--extra-args=etcd=quota-backend-bytes=1', '--extra-args', 'a,b'],
  ['--kubeconfig', ''],
  ['--kubeconfig=/tmp/k=1', '--kube-scheduler-config', 'sched.yaml'],
  ['--disable-kube-scheduler', '--enable-metrics-server=true', '--disable-kube-controller-manager=false'],
];

test('the fast create reads arguments as oclif does (through BaseCommand)', async () => {
  // Every flag once, with a value of its kind, then in its other spellings.
  const every: string[] = [];
  for (const [name, flag] of Object.entries(CREATE_CLUSTER_FLAGS)) {
    if (name === 'dry-run') continue;
    if (flag.type === 'boolean') every.push(flag.allowNo ? `--no-${name}` : `--${name}`);
    else every.push(`--${name}`, flag.parse === 'duration' ? '45s' : name === 'v' ? 'WARN' : name === 'name' ? 'x1' : `${name}-value`);
  }
  for (const tokens of [...READ, every]) {
    const fast = readCreateClusterFlags(tokens);
    assert.ok(fast, `fast path refused ${JSON.stringify(tokens)}`);
    assert.deepEqual({ ...fast }, await throughOclif(tokens), JSON.stringify(tokens));
  }
});

test('anything unusual about create is left to oclif, so its help, messages and exit codes stay', async () => {
  const slow: string[][] = [
    ['--help'],
    ['-h'],
    ['--', 'x'],
    ['extra'],
    ['--bogus'],
    ['-x'],
    ['--name'],
    ['--name', 'BAD'],
    ['--name='],
    ['-v', 'nope'],
    ['-v', '-4'],
    ['--dry-run'],
    ['--dry-run=true'],
    ['--wait', 'soon'],
    ['--wait='],
    ['--wait', '-1s'],
    ['--timeout', 'x'],
    ['--retain=maybe'],
    ['--no-retain'],
    ['--kubeconfig', '-c'],
    ['--kubeconfig', '--retain'],
    ['--config=-'],
    ['--quiet-pull=yes'],
    ['--no-secure-port=false'],
    ['--kube-version', 'v1.36.1'],
  ];
  for (const tokens of slow) assert.equal(readCreateClusterFlags(tokens), undefined, JSON.stringify(tokens));
  // And what oclif makes of the ones it has to answer: an error, never a silently different reading.
  for (const tokens of [['extra'], ['--wait', 'soon'], ['--kubeconfig', '-c'], ['--no-secure-port=false']]) {
    await assert.rejects(() => throughOclif(tokens), JSON.stringify(tokens));
  }
});

test('create cluster is a fast-path candidate wherever the global flags are, and routed to the same command by oclif', async () => {
  const table = commandTable(await Config.load(packageRoot()));
  const cases: Array<[string[], string[]]> = [
    [['create', 'cluster'], []],
    [['--name', 'a', 'create', 'cluster', '--wait', '1m'], ['--name', 'a', '--wait', '1m']],
    [['create', '-c', 'x.yaml', 'cluster', '--runtime=binary'], ['-c', 'x.yaml', '--runtime=binary']],
    [['-v', 'DEBUG', '--dry-run', 'create', 'cluster'], ['-v', 'DEBUG', '--dry-run']],
  ];
  for (const [argv, tokens] of cases) {
    assert.deepEqual(classifyFast(argv), { kind: 'create-cluster', tokens }, argv.join(' '));
    assert.equal(routeArgv(argv, table)[0], 'create:cluster', argv.join(' '));
  }
  for (const argv of [['create'], ['create', 'clusters'], ['create', 'cluster', '--help'], ['create', '-h', 'cluster'], ['create', 'cluster', '--', 'x'], ['help', 'create', 'cluster'], ['--wait', '1m', 'create', 'cluster']]) {
    assert.equal(classifyFast(argv), undefined, argv.join(' '));
  }
});
