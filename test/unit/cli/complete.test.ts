import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completeWords, renderCompletionScript, type CompletionFlag, type CompletionTable } from '../../../src/cli/complete.js';

const GLOBALS: CompletionFlag[] = [
  { name: 'name', type: 'option' },
  { name: 'config', char: 'c', type: 'option' },
  { name: 'dry-run', type: 'boolean' },
  { name: 'v', char: 'v', type: 'option' },
];
const TABLE: CompletionTable = {
  commands: new Map([
    ['create cluster', [...GLOBALS, { name: 'runtime', type: 'option' }, { name: 'wait', type: 'option' }, { name: 'secret', type: 'option', hidden: true }]],
    ['get clusters', [...GLOBALS, { name: 'output', char: 'o', type: 'option', options: ['name', 'wide', 'json'] }]],
    ['get artifacts', [...GLOBALS, { name: 'filter', type: 'option', options: ['binary', 'image'] }]],
    ['kubectl', GLOBALS],
  ]),
  topics: new Set(['create', 'get']),
  globals: GLOBALS,
  passthrough: new Set(['kubectl']),
};

const cases: Array<[string[], string[]]> = [
  [[''], ['create', 'get', 'kubectl']],
  [['g'], ['get']],
  [['get', ''], ['artifacts', 'clusters']],
  [['--name', 'x', 'get', 'cl'], ['clusters']],
  [['create', 'cluster', '--'], ['--config', '--dry-run', '--name', '--runtime', '--v', '--wait']],
  [['create', 'cluster', '--r'], ['--runtime']],
  [['get', 'clusters', '-o', ''], ['name', 'wide', 'json']],
  [['get', 'clusters', '--output', 'w'], ['wide']],
  [['get', 'artifacts', '--filter=i'], ['--filter=image']],
  [['get', 'clusters', ''], []],
  [['kubectl', 'get', ''], []],
  [['--'], ['--config', '--dry-run', '--name', '--v']],
];
for (const [typed, expected] of cases) {
  test(`completion: ${JSON.stringify(typed)}`, () => assert.deepEqual(completeWords(typed, TABLE), expected));
}

test('completion scripts call back __complete for every shell', () => {
  for (const shell of ['bash', 'zsh', 'fish', 'powershell'] as const) {
    const script = renderCompletionScript(shell, 'kwokts');
    assert.match(script, /__complete/, shell);
    assert.match(script, /kwokts/, shell);
  }
});
