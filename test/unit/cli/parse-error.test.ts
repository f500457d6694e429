import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Args, Flags, Parser } from '@oclif/core';
import { oneLineParseError } from '../../../src/cli/base-command.js';

/** The message oclif's own parser throws for these argv and definitions. */
async function parseErrorOf(argv: string[], options: Parameters<typeof Parser.parse>[1]): Promise<string> {
  try {
    await Parser.parse(argv, options);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a parse error');
}

test('missing args: one line naming them, without oclif descriptions, notes or help pointer', async () => {
  const args = {
    component: Args.string({ required: true, description: 'the component' }),
    ports: Args.string({ required: true, description: 'LOCAL:PORT' }),
  };
  const message = await parseErrorOf([], { args, flags: { config: Flags.string({ multiple: true }) } });
  assert.ok(message.split('\n').length > 2, `oclif's message is several lines: ${JSON.stringify(message)}`);
  assert.equal(oneLineParseError(message), 'Missing 2 required args: component, ports');
  assert.equal(oneLineParseError(await parseErrorOf(['etcd'], { args })), 'Missing 1 required arg: ports');
});

test('other parse errors keep their first line', async () => {
  const message = await parseErrorOf(['--bogus'], { flags: { name: Flags.string() } });
  assert.equal(oneLineParseError(message), 'Nonexistent flag: --bogus');
  assert.equal(oneLineParseError('Flag --wait expects a value'), 'Flag --wait expects a value');
});

test('a flag whose parse function fails: one line naming the flag and the problem', async () => {
  const { durationFlag } = await import('../../../src/cli/duration-flag.js');
  const message = await parseErrorOf(['--wait=soon'], { flags: { wait: durationFlag({ description: 'd' }) } });
  const line = oneLineParseError(message);
  assert.doesNotMatch(line, /\n/);
  assert.match(line, /--wait: invalid duration "soon": use a Go duration such as 30s, 2m or 1h30m$/);
});
