import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completeWords, renderCompletionScript, type CompletionFlag, type CompletionSources, type CompletionTable } from '../../../src/cli/complete.js';

const GLOBALS: CompletionFlag[] = [
  { name: 'name', type: 'option' },
  { name: 'config', char: 'c', type: 'option' },
  { name: 'dry-run', type: 'boolean' },
  { name: 'v', char: 'v', type: 'option' },
];
const TABLE: CompletionTable = {
  commands: new Map([
    [
      'create cluster',
      [
        ...GLOBALS,
        { name: 'runtime', type: 'option' },
        { name: 'wait', type: 'option' },
        { name: 'secret', type: 'option', hidden: true },
        { name: 'enable', type: 'option', delimiter: ',' },
        { name: 'disable', type: 'option', delimiter: ',' },
      ],
    ],
    ['logs', [...GLOBALS, { name: 'follow', char: 'f', type: 'boolean' }]],
    ['port-forward', GLOBALS],
    ['scale', [...GLOBALS, { name: 'replicas', type: 'option' }]],
    ['get clusters', [...GLOBALS, { name: 'output', char: 'o', type: 'option', options: ['name', 'wide', 'json'] }]],
    ['get artifacts', [...GLOBALS, { name: 'filter', type: 'option', options: ['binary', 'image'] }]],
    ['kubectl', GLOBALS],
  ]),
  topics: new Set(['create', 'get']),
  globals: GLOBALS,
  passthrough: new Set(['kubectl']),
};

const cases: Array<[string[], string[]]> = [
  [[''], ['create', 'get', 'kubectl', 'logs', 'port-forward', 'scale']],
  [['g'], ['get']],
  [['get', ''], ['artifacts', 'clusters']],
  [['--name', 'x', 'get', 'cl'], ['clusters']],
  [['create', 'cluster', '--'], ['--config', '--disable', '--dry-run', '--enable', '--name', '--runtime', '--v', '--wait']],
  [['create', 'cluster', '--r'], ['--runtime']],
  [['get', 'clusters', '-o', ''], ['name', 'wide', 'json']],
  [['get', 'clusters', '--output', 'w'], ['wide']],
  [['get', 'artifacts', '--filter=i'], ['--filter=image']],
  [['get', 'clusters', ''], []],
  [['kubectl', 'get', ''], []],
  [['--'], ['--config', '--dry-run', '--name', '--v']],
];
for (const [typed, expected] of cases) {
  test(`completion: ${JSON.stringify(typed)}`, async () => assert.deepEqual(await completeWords(typed, TABLE), expected));
}

test('completion scripts call back __complete for every shell', () => {
  for (const shell of ['bash', 'zsh', 'fish', 'powershell'] as const) {
    const script = renderCompletionScript(shell, 'kwokts');
    assert.match(script, /__complete/, shell);
    assert.match(script, /kwokts/, shell);
  }
});

/** A machine with two clusters: kwok (the default components) and big (with metrics-server). */
const SOURCES: CompletionSources = {
  clusters: async () => ['big', 'kwok'],
  components: async (cluster) => (cluster === 'big' ? ['etcd', 'kube-apiserver', 'metrics-server'] : cluster === 'kwok' ? ['etcd', 'kube-apiserver'] : []),
  resourceKinds: async (files) => ['node', 'pod', ...(files.includes('gpu.yaml') ? ['gpu-node'] : [])],
};

const valueCases: Array<[string, string[], string[]]> = [
  ['cluster names for --name', ['--name', ''], ['big', 'kwok']],
  ['cluster names for --name=', ['get', 'kubeconfig', '--name=k'], ['--name=kwok']],
  ['runtimes for --runtime', ['create', 'cluster', '--runtime', ''], ['binary', 'docker', 'podman', 'nerdctl', 'kind']],
  ['runtimes by prefix', ['create', 'cluster', '--runtime', 'p'], ['podman']],
  ['component names for --enable', ['create', 'cluster', '--enable', 'pr'], ['prometheus']],
  ['the element after the last comma of --disable', ['create', 'cluster', '--disable=kube-scheduler,kube-c'], ['--disable=kube-scheduler,kube-controller-manager']],
  ['log levels for -v', ['-v', ''], ['DEBUG', 'INFO', 'WARN', 'ERROR']],
  ['log levels for --v', ['get', 'clusters', '--v', 'W'], ['WARN']],
  ["the default cluster's components for logs, and audit", ['logs', ''], ['etcd', 'kube-apiserver', 'audit']],
  ["the named cluster's components for logs", ['--name', 'big', 'logs', 'm'], ['metrics-server']],
  ['components for port-forward, the first argument only', ['port-forward', '--name=big', 'k'], ['kube-apiserver']],
  ['nothing for the second argument of port-forward', ['port-forward', 'etcd', ''], []],
  ['resource kinds for scale', ['scale', ''], ['node', 'pod']],
  ["the -c files' resources for scale", ['-c', 'gpu.yaml', 'scale', 'g'], ['gpu-node']],
  ['nothing for the name after the kind', ['scale', 'node', ''], []],
];
for (const [title, typed, expected] of valueCases) {
  test(`completion of values: ${title}`, async () => assert.deepEqual(await completeWords(typed, TABLE, SOURCES), expected));
}
